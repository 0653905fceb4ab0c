"""What a screen asks the loop to do: small immutable values with an eval-able repr.

A screen never touches the box: its `on_key(press, now)` returns a list of these, and the
loop (`firmware.app`) performs them in order.  Slow outside work (camera, reader, solver)
is asked for the same way and its result comes back to the screen as an `EffectDone`."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class Go:
    """Open `screen` on top of this one (Back returns here)."""
    screen: object


@dataclass(frozen=True)
class Back:
    """Close this screen and show the one under it."""


@dataclass(frozen=True)
class Home:
    """The main menu, afresh."""


@dataclass(frozen=True)
class Refuse:
    """A key that means nothing now: an error cue and a line saying why."""
    text: str


@dataclass(frozen=True)
class Flash:
    """A note shown over the screen for a moment."""
    text: str
    seconds: float = 2.5


@dataclass(frozen=True)
class Warn:
    """Something went wrong but nothing is lost: shown until read, and logged."""
    text: str


@dataclass(frozen=True)
class Cue:
    name: str


@dataclass(frozen=True)
class StartGame:
    """Begin a new game (the menu has asked what to do with any game in progress)."""
    game: str
    settings: dict = field(hash=False)


@dataclass(frozen=True)
class ResumeGame:
    """Show the current game again, or bring back a saved one from the history."""
    saved: Path | None = None


@dataclass(frozen=True)
class SetAside:
    """Put the game in progress into the history, unfinished (resumable from Saved games)."""


@dataclass(frozen=True)
class LeaveGame:
    """Back to the menu from a game: a running timer pauses, a finished game is filed."""


@dataclass(frozen=True)
class RememberSetup:
    """The names and choices a game starts with, for the next game's set-up form."""
    game: str
    values: dict = field(hash=False)


@dataclass(frozen=True)
class SaveSetting:
    key: str
    value: object


# --- slow work, done by the worker (firmware.effects); the result comes back later ---------
@dataclass(frozen=True)
class ReadCubes:
    """Photograph the throw and read it (10 cubes, or 13 when vulnerable)."""
    vulnerable: bool
    red_set: str


@dataclass(frozen=True)
class Solve:
    """Every word the letters make, for the result screen (without offensive words when
    `family`, the setting words.family_friendly)."""
    letters: str
    family: bool = True


@dataclass(frozen=True)
class Capture:
    """Take a picture, save it under the state folder, and make a thumbnail."""


@dataclass(frozen=True)
class WarmUp:
    """Build the word index and the reader's references before they are first needed."""
    family: bool = True


@dataclass(frozen=True)
class Watch:
    """Watch the throw area: when the cubes come to rest, read them (the result comes back
    each time, until StopWatching or another Watch)."""
    vulnerable: bool
    red_set: str


@dataclass(frozen=True)
class StopWatching:
    """No more looks at the table (the timer runs, or the game was left)."""


@dataclass(frozen=True)
class Aim:
    """One small picture of what the camera sees, with the cube faces it finds boxed."""


@dataclass(frozen=True)
class TakeEmptyTable:
    """Photograph the empty table and keep it as the reader's reference."""


EFFECTS = (ReadCubes, Solve, Capture, WarmUp, Watch, StopWatching, Aim, TakeEmptyTable)


@dataclass(frozen=True)
class EffectDone:
    """The result of slow work, as it comes back on the loop's queue: `value`, or the
    `error` sentence when it failed."""
    request: object
    value: object = None
    error: str | None = None
    to: object = field(default=None, compare=False, repr=False)   # the screen that asked
