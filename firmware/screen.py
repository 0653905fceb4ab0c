"""Drawing on the 128x64 panel: one shipped font (DejaVu Sans Condensed Bold, licence in
fonts/), a title line, a body, and the soft-key bar that says what K1..K4 do now."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

WIDTH, HEIGHT = 128, 64
FONT_FILE = Path(__file__).parent / "fonts" / "DejaVuSansCondensed-Bold.ttf"
BAR_TOP = 54          # the soft-key bar takes the bottom 10 pixels


@lru_cache(maxsize=None)
def font(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONT_FILE), size)


class Painter:
    """A frame being drawn; `image` is the 1-bit result for the display."""

    def __init__(self):
        self.image = Image.new("1", (WIDTH, HEIGHT), 0)
        self.draw = ImageDraw.Draw(self.image)

    def width(self, text: str, size: int) -> int:
        return int(self.draw.textlength(text, font=font(size)))

    def text(self, xy, text: str, size: int = 10, fill: int = 1) -> None:
        self.draw.text(xy, text, font=font(size), fill=fill)

    def fit(self, text: str, size: int, width: int, smallest: int = 7) -> int:
        """The largest size not above `size` at which `text` fits in `width` pixels."""
        while size > smallest and self.width(text, size) > width:
            size -= 1
        return size

    def centre(self, text: str, y: int, size: int = 10, x0: int = 0, x1: int = WIDTH, fill: int = 1) -> None:
        size = self.fit(text, size, x1 - x0)
        self.text((x0 + (x1 - x0 - self.width(text, size)) // 2, y), text, size, fill)

    def right(self, text: str, y: int, size: int = 10, x1: int = WIDTH) -> None:
        self.text((x1 - self.width(text, size), y), text, size)

    def title(self, left: str, right: str = "") -> None:
        """The top line: where we are (left) and a short status (right), over a rule."""
        self.text((0, -1), left, 9)
        if right:
            self.right(right, -1, 9)
        self.draw.line((0, 10, WIDTH - 1, 10), fill=1)

    def big(self, text: str, y: int = 12, size: int = 34, x0: int = 0, x1: int = WIDTH) -> None:
        """The number that matters (dial, timer, dice), large enough to read across a table."""
        self.centre(text, y, self.fit(text, size, x1 - x0, 12), x0, x1)

    def box(self, xy, fill: int = 0, outline: int = 1) -> None:
        self.draw.rectangle(xy, fill=fill, outline=outline)

    def inverse(self, xy, text: str, size: int = 9) -> None:
        """Text in a filled box: the highlighted line of a list."""
        self.draw.rectangle(xy, fill=1)
        self.text((xy[0] + 2, xy[1] - 1), text, size, fill=0)

    def softkeys(self, labels) -> None:
        """Four cells under the display, one per key; an empty label means the key does nothing."""
        self.draw.line((0, BAR_TOP - 1, WIDTH - 1, BAR_TOP - 1), fill=1)
        for i, label in enumerate(labels):
            x0 = i * 32
            if i:
                self.draw.line((x0, BAR_TOP, x0, HEIGHT - 1), fill=1)
            if label:
                self.centre(label, BAR_TOP, 9, x0 + 1, x0 + 32)

    def lines(self, rows, y: int = 12, size: int = 9, step: int = 10, selected: int | None = None) -> None:
        for i, row in enumerate(rows):
            if i == selected:
                self.inverse((0, y + i * step, WIDTH - 1, y + i * step + step - 1), row, size)
            else:
                self.text((2, y + i * step - 1), row, size)

    def message(self, text: str) -> None:
        """A boxed note over the body (errors, hints), word-wrapped."""
        self.box((4, 14, WIDTH - 5, BAR_TOP - 3), fill=0)
        self.box((5, 15, WIDTH - 6, BAR_TOP - 4), fill=0)
        rows = wrap(self, text, 9, WIDTH - 16)[:3]
        for i, row in enumerate(rows):
            self.centre(row, 17 + i * 11, 9, 8, WIDTH - 8)


def wrap(painter: Painter, text: str, size: int, width: int) -> list[str]:
    rows, current = [], ""
    for word in text.split():
        trial = f"{current} {word}".strip()
        if painter.width(trial, size) <= width or not current:
            current = trial
        else:
            rows.append(current)
            current = word
    return rows + ([current] if current else [])
