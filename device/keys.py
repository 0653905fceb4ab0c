"""The four soft keys K1..K4.

gpiozero buttons only put raw edges on the app's queue (callbacks run on gpiozero's
threads, and one loop owns all state).  Debounce and long press are decided here, in
`KeyGestures`, from timestamps of an injected clock: gpiozero's mock pins ignore
`bounce_time`, and a decision made from the clock can be tested without sleeping.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import partial

KEY_NAMES = ("K1", "K2", "K3", "K4")


@dataclass(frozen=True)
class KeyPress:
    """One gesture on one key: a short press (on release) or a long press (while held)."""
    key: str
    long: bool = False

    def __str__(self) -> str:
        return f"{self.key}{'-long' if self.long else ''}"

    @classmethod
    def parse(cls, text: str) -> "KeyPress":
        key, _, kind = text.strip().upper().partition("-")
        if key not in KEY_NAMES or kind not in ("", "LONG"):
            raise ValueError(f"not a key: {text!r} (use K1..K4, or K1-long..K4-long)")
        return cls(key, kind == "LONG")


@dataclass(frozen=True)
class Edge:
    """A raw level change on a key's pin, stamped with the clock when it happened."""
    key: str
    down: bool
    at: float


class Keypad:
    """Four pulled-up gpiozero Buttons whose edges go to `sink` (usually queue.put).

    `pin_factory` is gpiozero's: MockFactory in the simulator and in tests, lgpio on a Pi.
    The buttons are kept referenced here: an unreferenced gpiozero device is closed by the
    garbage collector and goes deaf.
    """

    def __init__(self, pins: dict[str, int], sink, clock, pin_factory=None):
        from gpiozero import Button

        self._sink = sink
        self._clock = clock
        self.pins = dict(pins)
        self.buttons = {}
        for key, pin in pins.items():
            # bounce_time stays None: debounce is KeyGestures' job, timed by our clock.
            button = Button(pin, pull_up=True, bounce_time=None, pin_factory=pin_factory)
            button.when_pressed = partial(self._edge, key, True)
            button.when_released = partial(self._edge, key, False)
            self.buttons[key] = button

    def _edge(self, key: str, down: bool) -> None:
        self._sink(Edge(key, down, self._clock()))

    def close(self) -> None:
        for button in self.buttons.values():
            button.close()


class KeyGestures:
    """Turns raw edges into short and long presses.

    Debounce: after an accepted edge a key ignores its pin for `debounce_s`; when that
    window ends, the last level seen is taken if it differs (so a press shorter than the
    window still counts, and contact bounce inside it does not).
    Long press: fires once, while the key is still held, `long_s` after it went down; its
    release then gives nothing.
    """

    def __init__(self, debounce_s: float = 0.03, long_s: float = 0.8):
        self.debounce_s = debounce_s
        self.long_s = long_s
        self._accepted = {k: False for k in KEY_NAMES}  # debounced level
        self._raw = {k: False for k in KEY_NAMES}       # last level seen on the pin
        self._raw_at = {k: 0.0 for k in KEY_NAMES}      # when it was seen
        self._quiet_until = {k: 0.0 for k in KEY_NAMES}
        self._down_at: dict[str, float | None] = {k: None for k in KEY_NAMES}
        self._long_sent = {k: False for k in KEY_NAMES}

    def edge(self, edge: Edge) -> list[KeyPress]:
        # A level that outlasted its quiet window before this edge is real, even if no
        # tick came in between (a busy loop): settle it first, or a release followed by
        # the next press would merge two presses into one.
        out = self.tick(edge.at, only=edge.key)
        self._raw[edge.key], self._raw_at[edge.key] = edge.down, edge.at
        return out + self.tick(edge.at, only=edge.key)

    def tick(self, now: float, only: str | None = None) -> list[KeyPress]:
        out = []
        for key in (only,) if only else KEY_NAMES:
            if now >= self._quiet_until[key] and self._raw[key] != self._accepted[key]:
                # taken as of when it could first be: the end of the quiet window (or the
                # edge itself), not when the loop got round to looking
                out += self._accept(key, self._raw[key], max(self._quiet_until[key], self._raw_at[key]))
            down_at = self._down_at[key]
            if down_at is not None and not self._long_sent[key] and now - down_at >= self.long_s - 1e-9:
                self._long_sent[key] = True
                out.append(KeyPress(key, long=True))
        return out

    def _accept(self, key: str, down: bool, now: float) -> list[KeyPress]:
        self._accepted[key] = down
        self._quiet_until[key] = now + self.debounce_s
        if down:
            self._down_at[key], self._long_sent[key] = now, False
            return []
        was_long = self._long_sent[key]
        self._down_at[key] = None
        return [] if was_long else [KeyPress(key)]

    def next_deadline(self) -> float | None:
        """The earliest time a tick could produce something, so the loop can wait till then."""
        times = [q for k, q in self._quiet_until.items() if self._raw[k] != self._accepted[k]]
        times += [d + self.long_s for k, d in self._down_at.items() if d is not None and not self._long_sent[k]]
        return min(times) if times else None
