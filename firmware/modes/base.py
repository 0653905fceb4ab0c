"""The controller interface every screen follows, and the scrolling list all menus use."""
from __future__ import annotations

from device.keys import KeyPress
from firmware.screen import Painter

VISIBLE_ROWS = 4


class Mode:
    """A screen and what its keys do.  The app calls on_key for presses, tick every loop,
    and draw to make the frame; `softkeys` labels K1..K4 (short presses)."""

    title = ""

    def __init__(self, app):
        self.app = app

    def softkeys(self, now: float) -> tuple[str, str, str, str]:
        return ("", "", "", "")

    def on_key(self, press: KeyPress, now: float) -> None:
        pass

    def tick(self, now: float) -> None:
        pass

    def draw(self, p: Painter, now: float) -> None:
        pass


class ListMode(Mode):
    """A list with a cursor: K1 up, K2 down, K3 choose, K4 back."""

    back_label = "Back"

    def __init__(self, app, title: str, items: list[tuple[str, object]], back=None):
        super().__init__(app)
        self.title = title
        self.items = items      # (label, action) where action() is called on K3
        self.back = back        # called on K4; None: nothing to go back to
        self.cursor = 0

    def softkeys(self, now):
        return ("Up", "Down", "OK", self.back_label if self.back else "")

    def labels(self) -> list[str]:
        return [label for label, _ in self.items]

    def on_key(self, press, now):
        if press.long:
            return self.app.refuse("Hold does nothing here.")
        if press.key == "K1":
            self.cursor = (self.cursor - 1) % len(self.items)
        elif press.key == "K2":
            self.cursor = (self.cursor + 1) % len(self.items)
        elif press.key == "K3":
            self.items[self.cursor][1]()
        elif self.back:
            self.back()
        else:
            self.app.refuse("This is the top menu.")

    def draw(self, p, now):
        p.title(self.title, f"{self.cursor + 1}/{len(self.items)}")
        top = min(max(0, self.cursor - VISIBLE_ROWS + 1), max(0, len(self.items) - VISIBLE_ROWS))
        rows = self.labels()[top:top + VISIBLE_ROWS]
        p.lines(rows, y=12, selected=self.cursor - top)


class MessageMode(Mode):
    """A plain message with one way on (the failsafe screen, notices)."""

    def __init__(self, app, title: str, text: str, then, label: str = "OK"):
        super().__init__(app)
        self.title, self.text, self.then, self.label = title, text, then, label

    def softkeys(self, now):
        return ("", "", "", self.label)

    def on_key(self, press, now):
        if press.key == "K4":
            self.then()
        else:
            self.app.refuse(f"Press K4 ({self.label}).")

    def draw(self, p, now):
        p.title(self.title)
        p.message(self.text)
