"""The simulator's fingers: keyboard keys become presses on gpiozero MockFactory pins, so
everything above the pins is the code that runs on the box."""
from __future__ import annotations

import os
import select
import sys

from .keys import KEY_NAMES, KeyPress

TERMINAL_KEYS = {"1": "K1", "2": "K2", "3": "K3", "4": "K4"}
TERMINAL_LONG_KEYS = {"q": "K1", "w": "K2", "e": "K3", "r": "K4"}


class Finger:
    """Presses and releases mock pins; a long press is held past the long-press time."""

    def __init__(self, factory, pins: dict[str, int], long_s: float):
        self._pins = {key: factory.pin(pin) for key, pin in pins.items()}
        self._long_s = long_s
        self._releases: dict[str, float] = {}

    def press(self, press: KeyPress, now: float) -> None:
        if press.key in self._releases:
            return  # still held from a long press
        self._pins[press.key].drive_low()
        if press.long:
            self._releases[press.key] = now + self._long_s + 0.05
        else:
            # Released at once; the debounce window then settles it into a short press.
            self._pins[press.key].drive_high()

    def tick(self, now: float) -> None:
        for key, at in list(self._releases.items()):
            if now >= at:
                del self._releases[key]
                self._pins[key].drive_high()

    def next_deadline(self) -> float | None:
        return min(self._releases.values(), default=None)


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


__all__ = ["Finger", "TerminalKeyboard", "LineKeyboard", "KEY_NAMES"]
