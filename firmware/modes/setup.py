"""Setting up a game before it starts: a form of choices, and names entered with the keys.
The rule options on a form come from the game's OPTIONS (the ones with a `form` label),
their starting values from the settings; a form shows only the lines that apply to what
is chosen so far, and starts with the names and choices of the last game of its kind."""
from __future__ import annotations

import json
import os
import string

from firmware import paths
from firmware.actions import Back, Go, Refuse, RememberSetup
from firmware.modes.base import Screen

PRESET_NAMES = ("Alice", "Bob", "Chris", "Dana", "Eve", "Frank", "Gina", "Hugo", "Ida", "Jake")
TYPE_A_NAME = "Type..."
NAME_LETTERS = string.ascii_uppercase + string.digits + " -"


def shown(value) -> str:
    return {True: "on", False: "off"}.get(value, str(value)) if isinstance(value, bool) else str(value)


class Field:
    """One line of a set-up form: a label and its choices (the values themselves are kept)."""

    def __init__(self, label: str, choices, value=None, names: bool = False, when=None, upto=None):
        self.label = label
        self.upto = upto        # values -> how many of the first choices apply (None: all)
        self.choices = list(choices) + ([TYPE_A_NAME] if names else [])
        self.names = names
        self.when = when        # values -> whether the line applies (None: always)
        self.index = self.choices.index(value) if value in self.choices else 0

    def applies(self, values: dict) -> bool:
        return self.when is None or bool(self.when(values))

    @property
    def value(self):
        return self.choices[self.index]

    def cycle(self, values: dict) -> None:
        self.index = (self.index + 1) % self.offered(values)

    def offered(self, values: dict) -> int:
        return len(self.choices) if self.upto is None else max(1, min(len(self.choices), self.upto(values)))

    def settle(self, values: dict) -> None:
        """A choice that no longer applies (who starts, after fewer players were chosen)
        goes back to the first."""
        if self.index >= self.offered(values):
            self.index = 0

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
        self.restore({"values": recall(game)})

    def softkeys(self, now):
        return ("Next", "Change", "Start", "Back")

    def values(self) -> dict:
        return {f.label: f.value for f in self.fields}

    def shown(self) -> list[Field]:
        """The lines that apply to what is chosen so far (3-player Password has no teams)."""
        values = self.values()
        return [f for f in self.fields if f.applies(values)]

    def on_key(self, press, now):
        if press.long:
            return [Refuse("Hold does nothing here.")]
        shown = self.shown()
        field = shown[min(self.cursor, len(shown) - 1)]
        if press.key == "K1":
            self.cursor = (shown.index(field) + 1) % len(shown)
        elif press.key == "K2":
            field.cycle(self.values())
            for other in self.fields:
                other.settle(self.values())
            self.cursor = self.shown().index(field)
            if field.value == TYPE_A_NAME:
                return [Go(NameEntry(field))]
        elif press.key == "K3":
            problem = self.check(self.values()) if self.check else None
            if problem:
                return [Refuse(problem)]
            return [RememberSetup(self.game, self.draft()["values"])] + self.done(self.values())
        else:
            return [Back()]
        return []

    def draw(self, p, now):
        fields = self.shown()
        cursor = min(self.cursor, len(fields) - 1)
        p.title(self.title, f"{cursor + 1}/{len(fields)}")
        top = min(max(0, cursor - 3), max(0, len(fields) - 4))
        rows = [f"{f.label}: {shown(f.value)}" for f in fields[top:top + 4]]
        p.lines(rows, selected=cursor - top)

    def draft(self):
        values = {f.label: f.value for f in self.fields if f.value != TYPE_A_NAME}
        return {"screen": "form", "game": self.game, "values": values, "cursor": self.cursor}

    def restore(self, draft: dict) -> None:
        by_label = {f.label: f for f in self.fields}
        for label, value in dict(draft.get("values") or {}).items():
            if label in by_label:
                by_label[label].set(value)
        for field in self.fields:
            field.settle(self.values())
        cursor = draft.get("cursor")
        if isinstance(cursor, int) and 0 <= cursor < len(self.shown()):
            self.cursor = cursor


# --- the last set-up of each game, for the next one ------------------------------------
def setup_file():
    return paths.state_dir() / "last-setup.json"


def recall(game: str) -> dict:
    """The names and choices the last game of this kind started with ({} if none, or if
    the file cannot be read: a form then starts from the presets)."""
    try:
        remembered = json.loads(setup_file().read_text(encoding="utf-8")).get(game)
    except (OSError, ValueError, AttributeError):
        return {}
    return remembered if isinstance(remembered, dict) else {}


def remember(game: str, values: dict) -> None:
    """Keep a game's set-up for the next one (atomic: a power cut leaves the old file)."""
    path = setup_file()
    try:
        every = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        every = {}
    every = every if isinstance(every, dict) else {}
    every[game] = values
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(every, indent=1), encoding="utf-8")
    os.replace(tmp, path)


class NameEntry(Screen):
    """Spell a name: K1/K2 step through the letters, K3 adds it, K4 done; hold K1 deletes."""

    def __init__(self, field: Field):
        self.field = field
        self.name, self.letter = "", 0
        # the choice to go back to: the one "Type..." was reached from
        self.before = (field.index - 1) % len(field.choices) if field.value == TYPE_A_NAME else field.index

    def softkeys(self, now):
        return ("<", ">", "Add", "Done" if self.name.strip() else "Back")

    def cancel(self) -> list:
        """Back to the form with the name chosen before, so the presets stay in reach."""
        self.field.index = self.before
        return [Back()]

    def on_key(self, press, now):
        if press.long:
            if press.key == "K1":
                self.name = self.name[:-1]
                return []
            if press.key == "K4":
                return self.cancel()
            return [Refuse("Hold K1 deletes a letter, hold K4 leaves without the name.")]
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
                return self.cancel()
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
