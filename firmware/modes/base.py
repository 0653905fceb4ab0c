"""What every screen is, and the scrolling list and the message all menus use.

A screen describes; the loop does.  `on_key(press, now)` returns a list of actions
(`firmware.actions`), `draw(painter, now)` paints, `softkeys(now)` labels K1..K4.  Slow
work a screen asks for comes back to its `on_result`.  `draft()` is what the screen must
keep through a power cut (None: nothing in progress); the loop writes it durably."""
from __future__ import annotations

from device.keys import KeyPress
from firmware.actions import Back, Refuse
from firmware.screen import Painter

VISIBLE_ROWS = 4
MESSAGE_ROWS = 3    # rows of 9-point text between the title and the keys


class Screen:
    title = ""

    def softkeys(self, now: float) -> tuple[str, str, str, str]:
        return ("", "", "", "")

    def on_key(self, press: KeyPress, now: float) -> list:
        return []

    def on_result(self, done, now: float) -> list:
        return []

    def on_open(self) -> list:
        return []

    def tick(self, now: float) -> list:
        return []

    def draw(self, p: Painter, now: float) -> None:
        pass

    def draft(self) -> dict | None:
        return None


def run(what) -> list:
    """A menu item's actions: a list, or a function that returns one when chosen."""
    return list(what()) if callable(what) else list(what)


class ListScreen(Screen):
    """A list with a cursor: K1 up, K2 down, K3 choose, K4 back."""

    back_label = "Back"

    def __init__(self, title: str, items: list[tuple[str, object]], back=(Back(),)):
        self.title = title
        self.items = items      # (label, actions or a function returning them) chosen with K3
        self.back = back        # actions of K4; empty: nothing to go back to
        self.cursor = 0

    def softkeys(self, now):
        return ("Up", "Down", "OK", self.back_label if self.back else "")

    def labels(self) -> list[str]:
        return [label for label, _ in self.items]

    def on_key(self, press, now):
        if press.long:
            return [Refuse("Hold does nothing here.")]
        if press.key == "K1":
            self.cursor = (self.cursor - 1) % len(self.items)
        elif press.key == "K2":
            self.cursor = (self.cursor + 1) % len(self.items)
        elif press.key == "K3":
            return run(self.items[self.cursor][1])
        elif self.back:
            return run(self.back)
        else:
            return [Refuse("This is the top menu.")]
        return []

    def draw(self, p, now):
        p.title(self.title, f"{self.cursor + 1}/{len(self.items)}")
        top = min(max(0, self.cursor - VISIBLE_ROWS + 1), max(0, len(self.items) - VISIBLE_ROWS))
        # a long line gets a smaller font, then is shortened ("Saved: Perquackey (3 pla."), never cut
        rows = [p.shorten(row, 124, p.fit(row, 9, 124)) for row in self.labels()[top:top + VISIBLE_ROWS]]
        p.lines(rows, selected=self.cursor - top)


class MessageScreen(Screen):
    """A plain message with one way on (the failsafe screen, notices); K1/K2 scroll a
    message longer than the screen."""

    def __init__(self, title: str, text: str, then, label: str = "OK"):
        self.title, self.text, self.then, self.label = title, text, then, label
        self.first, self.rows = 0, 0

    def softkeys(self, now):
        more = self.rows > MESSAGE_ROWS
        return ("Up" if more else "", "Down" if more else "", "", self.label)

    def on_key(self, press, now):
        if press.key == "K4" and not press.long:
            return run(self.then)
        if press.key in ("K1", "K2") and not press.long and self.rows > MESSAGE_ROWS:
            step = -1 if press.key == "K1" else 1
            self.first = min(max(0, self.first + step), self.rows - MESSAGE_ROWS)
            return []
        return [Refuse(f"Press K4 ({self.label}).")]

    def draw(self, p, now):
        p.title(self.title, f"{self.first + 1}/{self.rows - MESSAGE_ROWS + 1}" if self.rows > MESSAGE_ROWS else "")
        self.rows = p.paragraph(self.text, first=self.first)


def refused(actions: list) -> bool:
    return any(isinstance(a, Refuse) for a in actions)
