"""Setting up a game before it starts: a form of choices, and names entered with the keys."""
from __future__ import annotations

import string

from firmware.modes.base import Mode

PRESET_NAMES = ("Alice", "Bob", "Chris", "Dana", "Eve", "Frank", "Gina", "Hugo", "Ida", "Jake")
TYPE_A_NAME = "Type..."
NAME_LETTERS = string.ascii_uppercase + string.digits + " -"


class Field:
    """One line of a set-up form: a label and its choices (labels shown, values kept)."""

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


class FormMode(Mode):
    """K1 next line, K2 change the value, K3 start, K4 back.  `done(values)` starts the game;
    `check(values)` may return a sentence saying why the values cannot start one."""

    def __init__(self, app, title: str, fields: list[Field], done, back, check=None):
        super().__init__(app)
        self.title, self.fields, self.done, self.back, self.check = title, fields, done, back, check
        self.cursor = 0

    def softkeys(self, now):
        return ("Next", "Change", "Start", "Back")

    def values(self) -> dict:
        return {f.label: f.value for f in self.fields}

    def on_key(self, press, now):
        if press.long:
            return self.app.refuse("Hold does nothing here.")
        field = self.fields[self.cursor]
        if press.key == "K1":
            self.cursor = (self.cursor + 1) % len(self.fields)
        elif press.key == "K2":
            field.cycle()
            if field.value == TYPE_A_NAME:
                self.app.switch(NameEntry(self.app, field, self))
        elif press.key == "K3":
            problem = self.check(self.values()) if self.check else None
            if problem:
                return self.app.refuse(problem)
            self.done(self.values())
        else:
            self.back()

    def draw(self, p, now):
        p.title(self.title, f"{self.cursor + 1}/{len(self.fields)}")
        top = min(max(0, self.cursor - 3), max(0, len(self.fields) - 4))
        rows = [f"{f.label}: {f.value}" for f in self.fields[top:top + 4]]
        p.lines(rows, selected=self.cursor - top)


class NameEntry(Mode):
    """Spell a name: K1/K2 step through the letters, K3 adds it, K4 done; hold K1 deletes."""

    def __init__(self, app, field: Field, form: FormMode):
        super().__init__(app)
        self.field, self.form = field, form
        self.name, self.letter = "", 0

    def softkeys(self, now):
        return ("<", ">", "Add", "Done")

    def on_key(self, press, now):
        if press.long:
            if press.key == "K1":
                self.name = self.name[:-1]
            return
        if press.key == "K1":
            self.letter = (self.letter - 1) % len(NAME_LETTERS)
        elif press.key == "K2":
            self.letter = (self.letter + 1) % len(NAME_LETTERS)
        elif press.key == "K3":
            if len(self.name) >= 10:
                return self.app.refuse("Names are at most 10 letters.")
            ch = NAME_LETTERS[self.letter]
            self.name += ch if not self.name else ch.lower()
        else:
            name = self.name.strip()
            if not name:
                return self.app.refuse("Add a letter first (K3), or hold K1 to delete.")
            self.field.choices.insert(-1, name)
            self.field.index = self.field.choices.index(name)
            self.app.switch(self.form)

    def draw(self, p, now):
        p.title(f"Name for {self.field.label}")
        p.text((4, 16), self.name + "_", 14)
        p.big(NAME_LETTERS[self.letter].replace(" ", "space"), y=30, size=18)
