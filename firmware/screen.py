"""Drawing on the 128x64 panel: one shipped font (DejaVu Sans Condensed Bold, licence in
fonts/), a title line, a body, the soft-key bar that says what K1..K4 do now, and the
one-line band where notes appear.

The Painter also checks its own work, so that no text is ever cut off or drawn over other
text: every text it draws records its ink box, and a text that runs out of the space it
was given (the panel, a list row, a key's cell) or onto another text is written down in
`problems`.  The tests walk every screen the keys reach and fail on any problem."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

WIDTH, HEIGHT = 128, 64
FONT_FILE = Path(__file__).parent / "fonts" / "DejaVuSansCondensed-Bold.ttf"
BAR_TOP = 54          # the soft-key bar takes the bottom 10 pixels
NOTE_BOTTOM = 11      # a note takes the title's band: the body and the keys stay in view
NOTE_PAGE_S = 1.8     # how long each line of a longer note stays
SMALLEST = 7          # the smallest size still read at arm's length
PANEL = (0, 0, WIDTH, HEIGHT)


@lru_cache(maxsize=None)
def font(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONT_FILE), size)


@dataclass
class Placed:
    """A text drawn: its ink box (right and bottom exclusive), and whether it is the thing
    that matters on the screen (a running timer, the dial) that nothing may hide."""
    text: str
    box: tuple[int, int, int, int]
    key: bool = False


def _overlap(a, b) -> bool:
    return min(a[2], b[2]) > max(a[0], b[0]) and min(a[3], b[3]) > max(a[1], b[1])


def _inside(inner, outer) -> bool:
    return inner[0] >= outer[0] and inner[1] >= outer[1] and inner[2] <= outer[2] and inner[3] <= outer[3]


class Painter:
    """A frame being drawn; `image` is the 1-bit result for the display, `problems` the
    texts that did not fit."""

    def __init__(self):
        self.image = Image.new("1", (WIDTH, HEIGHT), 0)
        self.draw = ImageDraw.Draw(self.image)
        self.placed: list[Placed] = []
        self.problems: list[str] = []

    def width(self, text: str, size: int) -> int:
        """How far the ink of `text` reaches from where it starts."""
        return ink_width(text, size)

    def text(self, xy, text: str, size: int = 10, fill: int = 1, within=PANEL, key: bool = False) -> None:
        """Draw `text` with its top-left at `xy`; it must stay `within` (left, top, right,
        bottom: the panel unless said) and off every text drawn before."""
        if not text:
            return
        self.draw.text(xy, text, font=font(size), fill=fill)
        box = tuple(int(v) for v in self.draw.textbbox(xy, text, font=font(size)))
        if not _inside(box, within):
            self.problems.append(f"{text!r} runs past its space {tuple(within)} (ink {box})")
        for other in self.placed:
            if _overlap(box, other.box):
                self.problems.append(f"{text!r} is drawn over {other.text!r}")
        self.placed.append(Placed(text, box, key))

    def fit(self, text: str, size: int, width: int, smallest: int = SMALLEST) -> int:
        """The largest size not above `size` at which `text` fits in `width` pixels."""
        while size > smallest and self.width(text, size) > width:
            size -= 1
        return size

    def shorten(self, text: str, width: int, size: int = SMALLEST) -> str:
        """`text`, or its longest beginning that fits `width` at `size` marked with a
        full stop ("Christophe" -> "Christo."): for names in a key's cell or a narrow column."""
        if self.width(text, size) <= width:
            return text
        cut = len(text)
        while cut > 1 and self.width(text[:cut].rstrip() + ".", size) > width:
            cut -= 1
        return text[:cut].rstrip() + "."

    def first_fit(self, variants, size: int, width: int) -> str:
        """The first of `variants` (the longest wording first) that fits `width` at the
        smallest size or above; the last one, shortened, if none does."""
        for variant in variants:
            if self.width(variant, SMALLEST) <= width:
                return variant
        return self.shorten(variants[-1], width)

    def headline(self, text: str, y: int, size: int = 14, rows: int = 2, x0: int = 0, x1: int = WIDTH) -> int:
        """Centred text, as large as it fits on at most `rows` lines; returns the y below it."""
        for trial in range(size, SMALLEST - 1, -1):
            lines = wrap(self, text, trial, x1 - x0)
            if len(lines) <= rows or trial == SMALLEST:
                break
        if len(lines) > rows:
            self.problems.append(f"{text!r} needs {len(lines)} rows, has {rows}")
        for i, line in enumerate(lines[:rows]):
            self.centre(line, y + i * (trial + 1), trial, x0, x1)
        return y + min(rows, len(lines)) * (trial + 1) + 1

    def centre(self, text: str, y: int, size: int = 10, x0: int = 0, x1: int = WIDTH, fill: int = 1,
               key: bool = False) -> None:
        size = self.fit(text, size, x1 - x0)
        self.text((x0 + (x1 - x0 - self.width(text, size)) // 2, y), text, size, fill,
                  within=(x0, 0, x1, HEIGHT), key=key)

    def right(self, text: str, y: int, size: int = 10, x1: int = WIDTH, x0: int = 0) -> None:
        size = self.fit(text, size, x1 - x0)
        self.text((x1 - self.width(text, size), y), text, size, within=(x0, 0, x1, HEIGHT))

    def left(self, text: str, y: int, size: int = 10, x0: int = 0, x1: int = WIDTH) -> None:
        """Text from `x0`, made smaller (down to the smallest size) to end before `x1`."""
        self.text((x0, y), text, self.fit(text, size, x1 - x0), within=(x0, 0, x1, HEIGHT))

    def title(self, left: str, right: str = "") -> None:
        """The top line: where we are (left) and a short status (right), over a rule.  The
        status keeps its size; the place gets what is left of the line."""
        room = WIDTH
        if right:
            size = self.fit(right, 9, WIDTH // 2)
            self.right(right, -1, size)
            room = WIDTH - self.width(right, size) - 4
        if left:   # a long name in the place is shortened ("Christo.'s throw") rather than cut
            self.left(self.shorten(left, room), -1, 9, 0, room)
        self.draw.line((0, 10, WIDTH - 1, 10), fill=1)

    def big(self, text: str, y: int = 12, size: int = 34, x0: int = 0, x1: int = WIDTH) -> None:
        """The number that matters (dial, timer, dice), large enough to read across a table."""
        self.centre(text, y, self.fit(text, size, x1 - x0, 12), x0, x1, key=True)

    def box(self, xy, fill: int = 0, outline: int = 1) -> None:
        self.draw.rectangle(xy, fill=fill, outline=outline)

    def inverse(self, xy, text: str, size: int = 9) -> None:
        """Text in a filled box: the highlighted line of a list (a smaller size if it must)."""
        self.draw.rectangle(xy, fill=1)
        size = self.fit(text, size, xy[2] - xy[0] - 2)
        text = self.shorten(text, xy[2] - xy[0] - 2, size)
        self.text((xy[0] + 2, xy[1] - 1), text, size, fill=0, within=(xy[0], xy[1] - 1, xy[2] + 1, xy[3] + 1))

    def softkeys(self, labels) -> None:
        """Four cells under the display, one per key; an empty label means the key does nothing."""
        for placed in self.placed:
            if placed.box[3] > BAR_TOP - 1:
                self.problems.append(f"{placed.text!r} runs into the key bar")
        self.draw.line((0, BAR_TOP - 1, WIDTH - 1, BAR_TOP - 1), fill=1)
        for i, label in enumerate(labels):
            x0 = i * 32
            if i:
                self.draw.line((x0, BAR_TOP, x0, HEIGHT - 1), fill=1)
            if label:   # a name as a label is shortened to its cell ("Christo.")
                self.centre(self.shorten(label, 30), BAR_TOP - 1, 9, x0 + 1, x0 + 32)

    def lines(self, rows, y: int = 12, size: int = 9, step: int = 10, selected: int | None = None) -> None:
        """List rows, each made smaller if it must to fit the width."""
        for i, row in enumerate(rows):
            if i == selected:
                self.inverse((0, y + i * step, WIDTH - 1, y + i * step + step - 1), row, size)
            else:
                self.left(row, y + i * step - 1, size, 2, WIDTH)

    def paragraph(self, text: str, top: int = 12, bottom: int = BAR_TOP - 1, size: int = 9, first: int = 0) -> int:
        """Word-wrapped text between `top` and `bottom`, from its row `first` (so a long one
        can be scrolled); returns how many rows the whole text takes."""
        rows = wrap(self, text, size, WIDTH - 4)
        step = size + 2
        for i, row in enumerate(rows[first:first + max(1, (bottom - top) // step)]):
            self.centre(row, top + i * step - 1, size, 0, WIDTH)
        return len(rows)

    def note(self, text: str, shown_for: float = 0.0) -> None:
        """A note (a refusal, a warning) in a band over the title line, so the timer, the
        body and the key labels stay in view; a note longer than the line shows a line at
        a time (`shown_for`: seconds it has been up)."""
        pages = note_pages(self, text)
        page = pages[min(len(pages) - 1, int(shown_for // NOTE_PAGE_S))]
        band = (0, 0, WIDTH, NOTE_BOTTOM)
        hidden = [p for p in self.placed if _overlap(p.box, band)]
        for placed in hidden:
            if placed.key or not _inside(placed.box, band):
                self.problems.append(f"the note {text!r} cuts {placed.text!r}")
        self.placed = [p for p in self.placed if p not in hidden]
        self.draw.rectangle((0, 0, WIDTH - 1, NOTE_BOTTOM - 1), fill=1)
        self.text((2, -1), page, 9 if self.width(page, 9) <= WIDTH - 4 else 8, fill=0, within=band)


@lru_cache(maxsize=4096)
def ink_width(text: str, size: int) -> int:
    return int(font(size).getbbox(text)[2]) if text else 0


def wrap(painter: Painter, text: str, size: int, width: int) -> list[str]:
    """`text` in rows no wider than `width`; a word longer than a row is split."""
    rows, current = [], ""
    for word in text.split():
        while painter.width(word, size) > width:      # a path, a long number: split where it must
            cut = max(1, max(i for i in range(1, len(word) + 1) if painter.width(word[:i], size) <= width))
            if current:
                rows.append(current)
                current = ""
            rows.append(word[:cut])
            word = word[cut:]
        trial = f"{current} {word}".strip()
        if painter.width(trial, size) <= width or not current:
            current = trial
        else:
            rows.append(current)
            current = word
    return rows + ([current] if current else [])


def note_pages(painter: Painter, text: str) -> list[str]:
    """A note as the lines of the band, one shown at a time."""
    return wrap(painter, text, 8, WIDTH - 4) or [""]


def note_seconds(text: str, at_least: float) -> float:
    """How long a note stays: its own time, or long enough to show each of its lines."""
    return max(at_least, len(note_pages(Painter(), text)) * NOTE_PAGE_S)
