"""A game's options, declared once in its rules module: the config file, the Settings
menu and the set-up form are all made from these declarations."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Option:
    """One rule option: its name inside the game's settings, its default, what it means,
    the values it may take, and where it shows on the box."""
    name: str
    default: object
    doc: str
    choices: tuple = ()      # allowed values (also what the menu and the form cycle through)
    low: int | None = None   # bounds for numbers without a fixed list of choices
    high: int | None = None
    menu: str = ""           # label in the Settings menu; empty: config file only
    form: str = ""           # label on the game's set-up form; empty: taken from the settings


def defaults(options: tuple[Option, ...]) -> dict:
    return {o.name: o.default for o in options}
