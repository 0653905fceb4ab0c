"""The game in play: its journal, its rules and its state, and its whole life.

new / resume / submit / undo / pause / finish all live here, with the one replay (a
saved event that does not fit is dropped BY ITS INDEX, with a warning) and the one
policy for games put away (finished, set aside, or unreadable): each goes to the history
folder under a name no other game has, and if that folder cannot be written it stays in
the state folder under a unique name, with a warning saying so.  Nothing here draws or
sounds, and times come in as arguments: `now` (monotonic) and `wall` (for people)."""
from __future__ import annotations

import math
import time
from dataclasses import dataclass
from pathlib import Path

from firmware import paths
from firmware.games import active_timer, rules
from firmware.games.core import RuleError
from firmware.journal import Journal, JournalError, fsync_dir

# Events that only move a timer: undo skips over them and takes them along with the step
# they followed, so "undo" always means the last thing the players did.
TIMER_KINDS = frozenset({"pause", "resume"})
HEARTBEAT_S = 2.0

def _number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def _index(v):
    return isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 100


# The fields events carry, and what each must hold.  A journal is ours, but a disk, an
# editor or an older TableMate can leave an event that parses and is still wrong.
FIELDS = {
    "at": _number,
    "player": _index, "side": _index, "action": _index, "length": _index,
    "correct": lambda v: isinstance(v, bool), "one_word": lambda v: isinstance(v, bool),
    "letters": lambda v: isinstance(v, str) and len(v) < 40,
    "who": lambda v: isinstance(v, str),
    "counts": lambda v: isinstance(v, dict) and all(
        isinstance(k, str) and k.isdigit() and _index(n) for k, n in v.items()),
    "dice": lambda v: isinstance(v, list) and len(v) == 2 and all(_index(d) and 1 <= d <= 6 for d in v),
}


def check_event(event) -> None:
    """Raise ValueError when an event is not one TableMate could have written."""
    if not isinstance(event, dict) or not isinstance(event.get("kind"), str):
        raise ValueError("not an event")
    for name, value in event.items():
        fits = FIELDS.get(name)
        if fits is not None and not fits(value):
            raise ValueError(f"{name} = {value!r} is not possible")


def apply_checked(game, state, event):
    """One event through the rules, checked before (its fields) and after (the new state
    must still describe a game: its summary and timer can be read)."""
    check_event(event)
    new = game.apply(state, event)
    game.summary(new)
    game.outcome(new)
    timer = active_timer(game, new)
    if timer is not None:
        timer.remaining(timer.since)
    return new


def replay(game, settings: dict, events: list[dict]):
    """The state after `events`, and the indexes of the events that did not fit (each
    with the reason).  One bad event never stops the rest."""
    state = game.new_game(settings)
    dropped = []
    for index, event in enumerate(events):
        try:
            state = apply_checked(game, state, event)
        except Exception as exc:   # a saved event that does not fit must never stop the box
            dropped.append((index, event, exc))
    return state, dropped


def _describe(event, exc) -> str:
    kind = event.get("kind") if isinstance(event, dict) else None
    return f"A saved step ({kind}) did not fit the game ({exc}) and was dropped."


@dataclass
class Filed:
    """Where a journal was put away, and the warning to show when that was not the history."""
    path: Path
    warning: str | None = None


def file_away(source: Path, name: str) -> Filed:
    """Move a journal into the history as `name`.jsonl (or name-2, -3 ... if taken); if the
    history cannot be written, keep it beside the current game as set-aside-`name`."""
    def unique(folder: Path, stem: str) -> Path:
        target, n = folder / f"{stem}.jsonl", 1
        while target.exists():
            n += 1
            target = folder / f"{stem}-{n}.jsonl"
        return target
    try:
        history = paths.history_dir()
        history.mkdir(parents=True, exist_ok=True)
        target = unique(history, name)
        source.replace(target)
        fsync_dir(history)
        return Filed(target)
    except OSError as exc:
        target = unique(source.parent, f"set-aside-{name}")
        source.replace(target)
        fsync_dir(source.parent)
        return Filed(target, f"The history folder could not be written ({exc.strerror or exc}); "
                             f"the game was kept as {target.name}.")


def set_aside_unreadable(path: Path, reason: str, wall: float) -> str:
    """An unreadable current game goes away under a unique name; the sentence to show."""
    filed = file_away(path, time.strftime("%Y%m%d-%H%M%S", time.localtime(wall)) + "-unreadable")
    return (f"The saved game could not be read ({reason}); it was moved to {filed.path.name}."
            + (f" {filed.warning}" if filed.warning else ""))


class Session:
    """One game in play.  Every change goes through the journal first (fsynced), then the
    state; the screens read `state` and call `submit` and `undo`."""

    def __init__(self, journal: Journal, warnings: list[str] | None = None):
        self.journal = journal
        self.rules = rules(journal.game)
        self.warnings = list(warnings or [])
        self.state = self._replay()
        self._heartbeat_at = None

    # --- life ---------------------------------------------------------------------
    @classmethod
    def new(cls, game: str, settings: dict, wall: float, path: Path | None = None) -> "Session":
        rules(game).new_game(settings)   # settings the rules refuse never reach a journal
        return cls(Journal.create(path or paths.current_journal(), game, settings, started=wall))

    @classmethod
    def resume(cls, path: Path | None = None) -> "Session":
        """The game saved at `path`; JournalError (or KeyError for a game we do not know)
        when it cannot be read at all."""
        journal = Journal.load(path or paths.current_journal())
        rules(journal.game).new_game(journal.settings)
        return cls(journal, journal.warnings)

    def _replay(self):
        state, dropped = replay(self.rules, self.journal.settings, self.journal.events)
        if dropped:   # by index: the failing one, not the first one equal to it
            self.journal.drop(index for index, _, _ in dropped)
        if len(dropped) == 1:
            self.warnings.append(_describe(*dropped[0][1:]))
        elif dropped:   # one note for all of them: each stays 4 s on the screen
            self.warnings.append(f"{len(dropped)} saved steps did not fit the game and were dropped; the first: "
                                 + _describe(*dropped[0][1:]))
        return state

    @property
    def game(self) -> str:
        return self.journal.game

    @property
    def label(self) -> str:
        return self.rules.LABEL

    @property
    def outcome(self):
        return self.rules.outcome(self.state)

    def timer(self):
        return active_timer(self.rules, self.state)

    def take_warnings(self) -> list[str]:
        warnings, self.warnings = self.warnings, []
        return warnings

    # --- changes -------------------------------------------------------------------
    def submit(self, event: dict) -> None:
        """Check the event against the rules, write it durably, then keep the new state.
        RuleError (with a sentence for the screen) when the rules refuse it."""
        try:
            new = apply_checked(self.rules, self.state, event)
        except RuleError:
            raise
        except (ValueError, KeyError, TypeError, IndexError) as exc:
            raise RuleError(f"That step does not fit the game ({exc}).") from exc
        self.journal.append(event)
        self.state = new

    def undo(self) -> str:
        """Take back the last thing the players did (with the timer moves after it);
        the kind of step undone, or RuleError when there is none."""
        steps = [i for i, e in enumerate(self.journal.events) if e["kind"] not in TIMER_KINDS]
        if not steps:
            raise RuleError("Nothing to undo.")
        last = steps[-1]
        undone = self.journal.events[last]["kind"]
        self.journal.truncate(last)
        self.state = self._replay()
        return undone.replace("_", " ")

    def pause(self, at: float) -> bool:
        """Pause a running timer (the players left the game); True if it was running."""
        timer = self.timer()
        if timer is None or not timer.running or timer.expired(at):
            return False
        self.submit({"kind": "pause", "at": at})
        return True

    def pause_after_restart(self) -> bool:
        """A timer that ran when the box went down resumes paused, with the time it had
        left when the box was last seen alive: the later of the last heartbeat of this very
        journal and the last step since the timer (re)started.  All those stamps are the
        old run's monotonic clock, so neither the wall clock nor the new run's clock (which
        starts again near 0 after a reboot) plays any part."""
        timer = self.timer()
        if timer is None or not timer.running:
            return False
        events = self.journal.events
        since = max((i for i, e in enumerate(events) if e.get("at") == timer.since), default=0)
        last_seen = max([timer.since] + [e["at"] for e in events[since:] if "at" in e])
        try:
            count, at = paths.heartbeat_path().read_text().split()
            if int(count) == len(events):
                last_seen = max(last_seen, float(at))
        except (OSError, ValueError):
            pass
        self.submit({"kind": "pause", "at": min(last_seen, timer.since + timer.left)})
        return True

    def heartbeat(self, now: float) -> None:
        """While a timer runs, note every few seconds that the box is alive (see above),
        with the number of steps it had, so a note left by another game is never used."""
        timer = self.timer()
        if timer is None or not timer.running:
            return
        if self._heartbeat_at is not None and 0 <= now - self._heartbeat_at < HEARTBEAT_S:
            return
        self._heartbeat_at = now
        path = paths.heartbeat_path()
        tmp = path.with_suffix(".tmp")
        try:
            tmp.write_text(f"{len(self.journal.events)} {now!r}")
            tmp.replace(path)
        except OSError:
            pass  # only costs precision on resume

    def put_away(self) -> Filed:
        """File the game in the history: finished, or unfinished (resumable from Saved games)."""
        started = self.journal.header.get("started")
        started = started if _number(started) else time.time()
        stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(started))
        outcome = "finished" if self.outcome is not None else "unfinished"
        filed = file_away(self.journal.path, f"{stamp}-{self.game}-{outcome}")
        self.journal.path = filed.path
        return filed


@dataclass(frozen=True)
class SavedGame:
    """An unfinished game in the history, as the Saved games list shows it."""
    path: Path
    label: str


def saved_games() -> list[SavedGame]:
    """Unfinished games put away, newest first (the history, then any kept beside it)."""
    found = sorted(paths.history_dir().glob("*-unfinished*.jsonl"), reverse=True)
    found += sorted(paths.state_dir().glob("set-aside-*-unfinished*.jsonl"), reverse=True)
    games = []
    for path in found:
        stamp, _, rest = path.stem.removeprefix("set-aside-").partition("-")
        clock, _, rest = rest.partition("-")
        name = rest.split("-")[0]
        try:
            label = rules(name).LABEL
        except KeyError:
            continue
        games.append(SavedGame(path, f"{label.split(' (')[0]} {stamp[4:6]}/{stamp[6:8]} {clock[:2]}:{clock[2:4]}"))
    return games


def bring_back(saved: Path) -> Session:
    """Make a saved game the current one again and resume it."""
    current = paths.current_journal()
    if current.exists():
        raise FileExistsError("a game is in progress: set it aside first")
    saved.replace(current)
    fsync_dir(current.parent)
    return Session.resume(current)

