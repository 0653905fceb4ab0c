"""Letters as cube faces print them: a glyph mask centred on a square tile, and a bar
under the letters that would read as another letter upside down or on their side."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

SHIPPED_FONTS = sorted((Path(__file__).parent / "fonts").glob("*.ttf")) + \
    [Path(__file__).resolve().parents[1] / "firmware" / "fonts" / "DejaVuSansCondensed-Bold.ttf"]
BARRED = frozenset("MWNZ")
LETTER_SIZE = 0.74        # of the face's side


@lru_cache(maxsize=64)
def _font(path: str, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(path, size)


def glyph_tile(letter: str, font_path: Path, size: int, bar: bool = False, stretch: float = 1.0) -> Image.Image:
    """The letter as a white-on-black mask on a `size` square tile; `stretch` widens (>1)
    or narrows (<1) it, as fonts differ."""
    tile = Image.new("L", (size, size), 0)
    draw = ImageDraw.Draw(tile)
    font = _font(str(font_path), int(size * LETTER_SIZE))
    left, top, right, bottom = draw.textbbox((0, 0), letter, font=font)
    gw, gh = right - left, bottom - top
    shift = -size * 0.05 if bar else 0
    draw.text(((size - gw) / 2 - left, (size - gh) / 2 - top + shift), letter, font=font, fill=255)
    if bar:
        y = (size + gh) / 2 + shift + size * 0.07
        draw.rectangle(((size - gw * 0.8) / 2, y, (size + gw * 0.8) / 2, y + max(2, size * 0.05)), fill=255)
    if stretch != 1.0:
        wide = tile.resize((max(1, int(size * stretch)), size), Image.BICUBIC)
        tile = Image.new("L", (size, size), 0)
        tile.paste(wide, ((size - wide.width) // 2, 0))
    return tile
