"""The simulator's fingers: keyboard keys become presses on gpiozero MockFactory pins, so
everything above the pins is the code that runs on the box."""
from __future__ import annotations

import os
import select
import sys
from collections import deque

from .keys import KeyPress

TERMINAL_KEYS = {"1": "K1", "2": "K2", "3": "K3", "4": "K4"}
TERMINAL_LONG_KEYS = {"q": "K1", "w": "K2", "e": "K3", "r": "K4"}


class Finger:
    """Presses and releases mock pins one key at a time, as a hand would: a press waits
    until the last one has settled through the debounce window; a long press is held
    past the long-press time.

    The waits are measured on `clock`, read right after the pins moved: the keypad stamps
    each edge with that clock when its callback runs, which on a busy machine can be a
    little after the `now` the loop started its step with, and a wait counted from the
    older `now` would put the next press inside the last one's quiet window."""

    def __init__(self, factory, pins: dict[str, int], long_s: float, debounce_s: float, clock):
        self._pins = {key: factory.pin(pin) for key, pin in pins.items()}
        self._long_s = long_s
        self._clock = clock
        self._gap = 2 * debounce_s + 0.005   # down and up each need one quiet window
        self._waiting: deque[KeyPress] = deque()
        self._held: str | None = None
        self._release_at = 0.0
        self._free_at = 0.0

    def press(self, press: KeyPress, now: float) -> None:
        self._waiting.append(press)
        self.tick(now)

    def tick(self, now: float) -> None:
        if self._held is not None and now >= self._release_at:
            self._pins[self._held].drive_high()
            self._held, self._free_at = None, self._clock() + self._gap
        if self._held is None and self._waiting and now >= self._free_at:
            press = self._waiting.popleft()
            self._pins[press.key].drive_low()
            if press.long:
                self._held, self._release_at = press.key, self._clock() + self._long_s + 0.05
            else:
                self._pins[press.key].drive_high()
                self._free_at = self._clock() + self._gap

    def next_deadline(self) -> float | None:
        if self._held is not None:
            return self._release_at
        return self._free_at if self._waiting else None


class TerminalKeyboard:
    """Reads single keys from a terminal in cbreak mode; restores the terminal on close."""

    def __init__(self, stream=None):
        import termios
        import tty
        self._stream = stream or sys.stdin
        self._fd = self._stream.fileno()
        self._saved = termios.tcgetattr(self._fd)
        tty.setcbreak(self._fd)
        sys.stdout.write("\x1b[?25l\x1b[2J")  # hide the cursor, clear once

    def read(self, timeout: float) -> list[KeyPress]:
        ready, _, _ = select.select([self._fd], [], [], max(0.0, timeout))
        if not ready:
            return []
        presses = []
        for ch in os.read(self._fd, 32).decode(errors="ignore"):
            if ch in TERMINAL_KEYS:
                presses.append(KeyPress(TERMINAL_KEYS[ch]))
            elif ch.lower() in TERMINAL_LONG_KEYS:
                presses.append(KeyPress(TERMINAL_LONG_KEYS[ch.lower()], long=True))
        return presses

    def close(self) -> None:
        import termios
        termios.tcsetattr(self._fd, termios.TCSADRAIN, self._saved)
        sys.stdout.write("\x1b[?25h\n")
        sys.stdout.flush()


class LineKeyboard:
    """Reads presses as words from a pipe ("K1", "K2-long"), for scripts and tests."""

    def __init__(self, stream=None):
        self._fd = (stream or sys.stdin).fileno()
        self._buffer = b""
        self.closed = False

    def read(self, timeout: float) -> list[KeyPress]:
        if self.closed:
            return []
        ready, _, _ = select.select([self._fd], [], [], max(0.0, timeout))
        if not ready:
            return []
        chunk = os.read(self._fd, 4096)
        if not chunk:
            self.closed = True
        self._buffer += chunk
        *lines, self._buffer = self._buffer.split(b"\n")
        presses = []
        for line in lines:
            for word in line.decode(errors="ignore").split():
                try:
                    presses.append(KeyPress.parse(word))
                except ValueError as exc:
                    print(f"tablemate: {exc}", file=sys.stderr)
        return presses

    def close(self) -> None:
        pass

