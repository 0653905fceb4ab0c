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


def _fsync_dir(path: Path) -> None:
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
    def load(cls, path: Path) -> "Journal":
        data = Path(path).read_bytes()
        lines = data.split(b"\n")
        try:
            header = json.loads(lines[0])
            if not isinstance(header, dict) or "game" not in header:
                raise ValueError("no game named")
        except ValueError as exc:
            raise JournalError(f"{path} is not a TableMate journal (its first line is unreadable: {exc}).") from exc
        if header.get("tablemate_journal", 0) > FORMAT_VERSION:
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
        if journal.warnings:
            journal._rewrite()  # cut the damage out so later appends start on a clean line
        return journal

    def append(self, event: dict) -> None:
        """Write one event durably: it is on disk when this returns."""
        with open(self.path, "ab") as f:
            f.write(_line(event))
            f.flush()
            os.fsync(f.fileno())
        self.events.append(event)

    def drop(self, index: int) -> dict:
        """Remove one event (undo) and rewrite the file atomically."""
        event = self.events.pop(index)
        self._rewrite()
        return event

    def _rewrite(self) -> None:
        tmp = self.path.with_name(self.path.name + ".tmp")
        with open(tmp, "wb") as f:
            f.write(_line(self.header) + b"".join(_line(e) for e in self.events))
            f.flush()
            os.fsync(f.fileno())
        tmp.replace(self.path)
        _fsync_dir(self.path.parent)

    def archive(self, history: Path, outcome: str) -> Path:
        """Move the journal into the history folder, its name saying when, what and how it ended."""
        history.mkdir(parents=True, exist_ok=True)
        stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(self.header.get("started", time.time())))
        target = history / f"{stamp}-{self.game}-{outcome}.jsonl"
        n = 1
        while target.exists():
            n += 1
            target = history / f"{stamp}-{self.game}-{outcome}-{n}.jsonl"
        self.path.replace(target)
        _fsync_dir(history)
        self.path = target
        return target
