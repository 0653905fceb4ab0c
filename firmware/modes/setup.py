"""Setting up a game before it starts: a form of choices, and names entered with the keys.
The rule options on a form come from the game's OPTIONS (the ones with a `form` label),
their starting values from the settings."""
from __future__ import annotations

import string

from firmware.actions import Back, Go, Refuse
from firmware.modes.base import Screen

PRESET_NAMES = ("Alice", "Bob", "Chris", "Dana", "Eve", "Frank", "Gina", "Hugo", "Ida", "Jake")
TYPE_A_NAME = "Type..."
NAME_LETTERS = string.ascii_uppercase + string.digits + " -"


def shown(value) -> str:
    return {True: "on", False: "off"}.get(value, str(value)) if isinstance(value, bool) else str(value)


class Field:
    """One line of a set-up form: a label and its choices (the values themselves are kept)."""

    def __init__(self, label: str, choices, value=None, names: bool = False):
        self.label = label
        self.choices = list(choices) + ([TYPE_A_NAME] if names else [])
        self.names = names
        self.index = self.choices.index(value) if value in self.choices else 0

    @property
    def value(self):
        return self.choices[self.index]

    def cycle(self) -> None:
        self.index = (self.index + 1) % len(self.choices)

    def set(self, value) -> None:
        """A value kept in a draft: a typed name comes back as a choice of its own."""
        if value not in self.choices:
            if not (self.names and isinstance(value, str) and value.strip()):
                return
            self.choices.insert(-1, value)
        self.index = self.choices.index(value)


def option_fields(game, settings: dict) -> list[Field]:
    """The form's lines for the game's options that have a form label."""
    return [Field(o.form, o.choices, settings[f"{game.NAME}.{o.name}"]) for o in game.OPTIONS if o.form]


def option_values(game, settings: dict, values: dict) -> dict:
    """Every option of the game: the form's value where the form shows it, else the setting."""
    return {o.name: values[o.form] if o.form else settings[f"{game.NAME}.{o.name}"] for o in game.OPTIONS}


class FormScreen(Screen):
    """K1 next line, K2 change the value, K3 start, K4 back.  `done(values)` returns the
    actions that start the game; `check(values)` may return a sentence saying why the
    values cannot start one."""

    def __init__(self, game: str, title: str, fields: list[Field], done, check=None):
        self.game, self.title, self.fields, self.done, self.check = game, title, fields, done, check
        self.cursor = 0

    def softkeys(self, now):
        return ("Next", "Change", "Start", "Back")

    def values(self) -> dict:
        return {f.label: f.value for f in self.fields}

    def on_key(self, press, now):
        if press.long:
            return [Refuse("Hold does nothing here.")]
        field = self.fields[self.cursor]
        if press.key == "K1":
            self.cursor = (self.cursor + 1) % len(self.fields)
        elif press.key == "K2":
            field.cycle()
            if field.value == TYPE_A_NAME:
                return [Go(NameEntry(field))]
        elif press.key == "K3":
            problem = self.check(self.values()) if self.check else None
            if problem:
                return [Refuse(problem)]
            return self.done(self.values())
        else:
            return [Back()]
        return []

    def draw(self, p, now):
        p.title(self.title, f"{self.cursor + 1}/{len(self.fields)}")
        top = min(max(0, self.cursor - 3), max(0, len(self.fields) - 4))
        rows = [f"{f.label}: {shown(f.value)}" for f in self.fields[top:top + 4]]
        p.lines(rows, selected=self.cursor - top)

    def draft(self):
        values = {f.label: f.value for f in self.fields if f.value != TYPE_A_NAME}
        return {"screen": "form", "game": self.game, "values": values, "cursor": self.cursor}

    def restore(self, draft: dict) -> None:
        by_label = {f.label: f for f in self.fields}
        for label, value in dict(draft.get("values") or {}).items():
            if label in by_label:
                by_label[label].set(value)
        cursor = draft.get("cursor")
        if isinstance(cursor, int) and 0 <= cursor < len(self.fields):
            self.cursor = cursor


class NameEntry(Screen):
    """Spell a name: K1/K2 step through the letters, K3 adds it, K4 done; hold K1 deletes."""

    def __init__(self, field: Field):
        self.field = field
        self.name, self.letter = "", 0

    def softkeys(self, now):
        return ("<", ">", "Add", "Done")

    def on_key(self, press, now):
        if press.long:
            if press.key == "K1":
                self.name = self.name[:-1]
            return []
        if press.key == "K1":
            self.letter = (self.letter - 1) % len(NAME_LETTERS)
        elif press.key == "K2":
            self.letter = (self.letter + 1) % len(NAME_LETTERS)
        elif press.key == "K3":
            if len(self.name) >= 10:
                return [Refuse("Names are at most 10 letters.")]
            ch = NAME_LETTERS[self.letter]
            self.name += ch if not self.name else ch.lower()
        else:
            name = self.name.strip()
            if not name:
                return [Refuse("Add a letter first (K3), or hold K1 to delete.")]
            self.field.set(name)
            return [Back()]
        return []

    def draw(self, p, now):
        p.title(f"Name for {self.field.label}")
        p.text((4, 16), self.name + "_", 14)
        p.big(NAME_LETTERS[self.letter].replace(" ", "space"), y=30, size=18)

    def draft(self):
        return {"screen": "name", "field": self.field.label, "name": self.name, "letter": self.letter}

    def restore(self, draft: dict) -> None:
        name, letter = draft.get("name"), draft.get("letter")
        if isinstance(name, str) and len(name) <= 10:
            self.name = name
        if isinstance(letter, int) and 0 <= letter < len(NAME_LETTERS):
            self.letter = letter
