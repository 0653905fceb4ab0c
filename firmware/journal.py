"""The journal: the source of truth for a game in progress.

One JSON object a line.  Line 1 is the header {"tablemate_journal": 1, "game": ...,
"settings": {...}, "started": unix time}; every later line is one game event.  Each
line is written, flushed and fsynced before the screen changes, so a power cut loses
nothing the players saw.  A torn or corrupt line (a crash mid-write) is skipped with a
warning and cut from the file, never a crash."""
from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path

FORMAT_VERSION = 1


class JournalError(ValueError):
    """A journal whose header cannot be read: it is not a TableMate game."""


def _line(obj: dict) -> bytes:
    return (json.dumps(obj, sort_keys=True, separators=(",", ":")) + "\n").encode()


def fsync_dir(path: Path) -> None:
    """Make a rename in `path` durable."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


@dataclass
class Journal:
    path: Path
    header: dict
    events: list[dict] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    @property
    def game(self) -> str:
        return self.header["game"]

    @property
    def settings(self) -> dict:
        return self.header.get("settings", {})

    @classmethod
    def create(cls, path: Path, game: str, settings: dict, started: float | None = None) -> "Journal":
        header = {"tablemate_journal": FORMAT_VERSION, "game": game, "settings": settings,
                  "started": started if started is not None else time.time()}
        path.parent.mkdir(parents=True, exist_ok=True)
        journal = cls(path, header)
        journal._rewrite()
        return journal

    @classmethod
    def load(cls, path: Path, repair: bool = True) -> "Journal":
        """Read a journal; with `repair`, damaged lines are also cut from the file."""
        data = Path(path).read_bytes()
        lines = data.split(b"\n")
        try:
            header = json.loads(lines[0])
            if not isinstance(header, dict) or not isinstance(header.get("game"), str):
                raise ValueError("no game named")
            if not isinstance(header.get("settings", {}), dict):
                raise ValueError("its settings are not a table")
        except ValueError as exc:
            raise JournalError(f"{path} is not a TableMate journal (its first line is unreadable: {exc}).") from exc
        if not isinstance(header.get("tablemate_journal", 0), int) or header.get("tablemate_journal", 0) > FORMAT_VERSION:
            raise JournalError(f"{path} was written by a newer TableMate (format {header['tablemate_journal']}).")
        journal = cls(Path(path), header)
        body, complete = lines[1:], data.endswith(b"\n")
        for number, raw in enumerate(body, start=2):
            if not raw.strip():
                continue
            last = number == len(body) + 1
            try:
                event = json.loads(raw)
                if not isinstance(event, dict) or "kind" not in event:
                    raise ValueError("not an event")
                if last and not complete:
                    raise ValueError("the line was never finished")
                journal.events.append(event)
            except ValueError as exc:
                what = "last line" if last else f"line {number}"
                journal.warnings.append(f"The journal's {what} was damaged ({exc}) and was skipped.")
        if journal.warnings and repair:
            journal._rewrite()  # cut the damage out so later appends start on a clean line
        return journal

    def append(self, event: dict) -> None:
        """Write one event durably: it is on disk when this returns."""
        with open(self.path, "ab") as f:
            f.write(_line(event))
            f.flush()
            os.fsync(f.fileno())
        self.events.append(event)

    def drop(self, indexes) -> None:
        """Remove events by their index (saved steps that no longer fit), in one atomic rewrite."""
        gone = set(indexes)
        self.events = [e for i, e in enumerate(self.events) if i not in gone]
        self._rewrite()

    def truncate(self, keep: int) -> None:
        """Keep only the first `keep` events (undo), rewriting the file atomically."""
        del self.events[keep:]
        self._rewrite()

    def _rewrite(self) -> None:
        tmp = self.path.with_name(self.path.name + ".tmp")
        with open(tmp, "wb") as f:
            f.write(_line(self.header) + b"".join(_line(e) for e in self.events))
            f.flush()
            os.fsync(f.fileno())
        tmp.replace(self.path)
        fsync_dir(self.path.parent)


class Draft:
    """Work in progress the players can see but the rules have not taken yet (words being
    counted, cubes just read, a set-up form half filled): one small JSON file, written to
    a temporary file, fsynced and renamed over the old one, so a power cut leaves either
    the old draft or the new one, never half of one."""

    def __init__(self, path: Path):
        self.path = path
        self._saved: bytes | None = None

    def load(self) -> dict | None:
        try:
            draft = json.loads(self.path.read_bytes())
        except (OSError, ValueError):
            return None
        self._saved = _line(draft) if isinstance(draft, dict) else None
        return draft if isinstance(draft, dict) else None

    def save(self, draft: dict | None) -> None:
        """Write `draft` durably, or remove it (None); nothing is written if it did not change."""
        data = None if draft is None else _line(draft)
        if data == self._saved:
            return
        if data is None:
            self.path.unlink(missing_ok=True)
        else:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.path.with_name(self.path.name + ".tmp")
            with open(tmp, "wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
            tmp.replace(self.path)
        fsync_dir(self.path.parent)
        self._saved = data
