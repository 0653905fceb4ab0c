"""Glyph seeds: the letter-like dark marks a top face is looked for round.

Every top face carries one dark or red glyph in its middle, whatever the table, so the
search for faces starts from marks thinner than a quarter of a face and much darker than
the ground round them (a morphological black-hat), joined into one box per letter.  A
letter joined to a cube's dark edge, the gap to a touching cube or a tray's walls is
parted from them; the fainter ink joined to a blurred letter's pieces makes the whole
letter; and once the side is known, whole letters fainter still are looked for apart
from every seed, unless the table's own pattern (a weave, wood grain) makes too many,
and letters joined by a cube's edges to its side face's letter are parted."""
from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

from vision.glyphs import with_faint_parts

INK_DEPTH = 0.3           # how much darker than its surroundings a stroke must be
FAINT = 0.8               # ... and a fainter stroke joined to one, this share as dark
FAINT_LETTER = 0.6        # ... and, once the side is known, a letter this share as dark apart from any seed
FAINT_GAIN = 1.5          # a letter so joined is a seed of its own where its box is this much larger,
SAME_MIDDLE = 0.15        # ... and its middle this far (of the side) from its dark pieces' middles
SEED_REACH = 1.3          # of the learned side: the widest glyph blob (a wide letter on a near cube, closed up);
                          # a wider one may be letters joined to edge lines, and is parted
EDGE_LINES = (0.08, 0.13)  # of the side: dark lines this thin (a cube's edge, a gap) are not letter strokes
STRAIGHT_RUN = 0.8        # of the side: a straight dark line this long is a gap or a wall, longer than a
LINES_REACH = 8.0         # letter's stroke; looked for in marks up to this wide (wider: the table's pattern)
LINE_ANGLES = 60          # directions a straight line may run in, of which it is looked for along a mark's
MAIN_DIRECTIONS = 4       # ... main ones, give or take LINE_SPREAD (perspective turns a tray's grid lines
LINE_SPREAD = 1           # ... a little from one end to the other); what is left is a letter if it is
LINES_LETTER = 0.35       # ... this long (of the side) or more, not a piece of a letter or an edge
LETTERS_JOINED = 0.75     # of the side: a mark wider than one letter (to SEED_REACH) may be two letters joined
PIECE_LEAST = 0.25        # ... whose pieces this long (of the side) ...
PIECE_THICK = 0.15        # ... and this thick, not a cube's edge line, are letters of their own
MOST_OUTLINES = 40        # more bright outlines (or faint marks) than three throws have cubes are the table's pattern
MOST_SEEDS = 300          # more seeds than this at one side are a table's pattern: the likeliest are traced
SEEDS_NEAR = 2.0          # of the side: the neighbourhood a seed's ground is compared with
FAINT_LETTER_DEPTH = INK_DEPTH * FAINT_LETTER   # the faint letters' least darkness


def _odd(x: float) -> int:
    return max(3, int(x) // 2 * 2 + 1)


def disc(size: float) -> np.ndarray:
    k = _odd(size)
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))


def closing_size(side: float) -> int:
    """The disc `closed` wipes marks off with, for faces of this side: sides that make
    the same disc make the same closing."""
    return _odd(side * 0.25)


def closed(gray: np.ndarray, side: float) -> np.ndarray:
    """The photo with every mark thinner than a quarter of a face wiped off (a closing)."""
    return disc_closing(gray, closing_size(side)).astype(np.float32)


def disc_closing(image: np.ndarray, size: float) -> np.ndarray:
    """`cv2.morphologyEx(image, cv2.MORPH_CLOSE, disc(size))`, pixel for pixel, in less
    time: a disc is the union of the rectangles its rows stack up to, so a dilation by
    it is the largest of the dilations by each rectangle (and an erosion the least of
    the erosions), and OpenCV dilates by a rectangle as two running maxima, where by a
    disc it visits every one of its pixels (some 70 % of the time at a face's quarter
    of 80 pixels, 60 % at 120; the finder closes the photo once for every side it tries)."""
    rectangles = _disc_rectangles(_odd(size))
    grown = _stacked(cv2.dilate, cv2.max, image, rectangles)
    return _stacked(cv2.erode, cv2.min, grown, rectangles)


def _stacked(morph, combine, image: np.ndarray, rectangles: tuple[np.ndarray, ...]) -> np.ndarray:
    out = None
    for rectangle in rectangles:
        part = morph(image, rectangle)
        out = part if out is None else combine(out, part)
    return out


@lru_cache(maxsize=32)
def _disc_rectangles(size: int) -> tuple[np.ndarray, ...]:
    """The rectangles (as kernels) whose union is `disc(size)`: for each half-width of
    its rows, as tall as the rows that wide or wider reach."""
    kernel = disc(size)
    middle = size // 2
    reach: dict[int, int] = {}
    for row in range(size):
        half = middle - int(np.argmax(kernel[row]))        # (the disc's rows are centred)
        reach[half] = max(reach.get(half, 0), abs(row - middle))
    return tuple(cv2.getStructuringElement(cv2.MORPH_RECT, (2 * half + 1, 2 * tall + 1))
                 for half, tall in sorted(reach.items()))


def glyph_seeds(depth: np.ndarray, side: float, changed: np.ndarray | None = None) -> list[tuple[int, int, int, int]]:
    """Boxes (x, y, width, height) round letter-like dark marks in a `darkness` map:
    thinner than a fifth of a face, much darker than the ground round them, about the
    size of a letter once their pieces are joined."""
    return _seeds(_ink(depth, changed, INK_DEPTH), side, lines=True)


def blurred_letter_seeds(depth: np.ndarray, side: float, changed: np.ndarray | None = None,
                         pieces: list[tuple[int, int, int, int]] | None = None) -> list[tuple[int, int, int, int]]:
    """Boxes round blurred letters that `glyph_seeds` finds only pieces of (their thin
    strokes are a little too faint): the fainter ink joins the pieces into the whole
    letter, a seed where it is more than its pieces.  `pieces`: `glyph_seeds`' boxes, if
    already found."""
    strong = _ink(depth, changed, INK_DEPTH)
    pieces = _seeds(strong, side, lines=True) if pieces is None else pieces
    whole = _seeds(with_faint_parts(strong, _ink(depth, changed, INK_DEPTH * FAINT)), side)
    if not (whole and pieces):
        return whole
    # a piece inside a whole letter has its corner within the letter's box of the
    # letter's corner: pairs in touching cells that large, then the boxes checked
    boxes, piece_boxes = np.int64(whole), np.int64(pieces)
    first, second = _near_pairs(boxes[:, :2], piece_boxes[:, :2], max(SEED_REACH * side, float(boxes[:, 2:].max()) + 1))
    a, b = boxes[first], piece_boxes[second]
    inside = ((a[:, :2] <= b[:, :2]) & (b[:, :2] + b[:, 2:] <= a[:, :2] + a[:, 2:])).all(axis=1)
    pieces_in: dict[int, list[tuple[int, int, int, int]]] = {}
    for i, j in zip(first[inside].tolist(), second[inside].tolist()):
        pieces_in.setdefault(i, []).append(pieces[j])
    return [(x, y, w, h) for i, (x, y, w, h) in enumerate(whole)
            if all(s[2] * s[3] * FAINT_GAIN < w * h and not _same_middle(s, (x, y, w, h), side)
                   for s in pieces_in.get(i, ()))]


def faint_letter_seeds(depth: np.ndarray, side: float, changed: np.ndarray | None,
                       known: list[tuple[int, int, int, int]], least: float = FAINT_LETTER_DEPTH,
                       plastic: np.ndarray | None = None) -> list[tuple[int, int, int, int]]:
    """Boxes round whole letters fainter than a seed's ink (a small cube at the far edge
    of a steep view, blurred, in dim light), at least `least` darker than round them,
    apart from the `known` seeds.  Looked for only once the side is known, and none
    where there are more than a table's pattern would make: faint marks that many are
    the cloth's weave or the wood's grain, unless, where `plastic` says where the photo
    is as bright as the cubes' plastic (see `_on_plastic`), few of them lie there."""
    seeds = _apart(_seeds(_ink(depth, changed, least), side), known, side)
    if len(seeds) > MOST_OUTLINES and plastic is not None:
        on_plastic = plastic if changed is None else plastic & changed
        seeds = _apart(_seeds(_ink(depth, on_plastic, least), side), known, side)
    return seeds if len(seeds) <= MOST_OUTLINES else []


def joined_letter_seeds(depth: np.ndarray, side: float, changed: np.ndarray | None,
                        known: list[tuple[int, int, int, int]]) -> list[tuple[int, int, int, int]]:
    """Boxes round letters joined into one mark no wider than a near cube's letter: on a
    steep view a top face's letter and its side face's lie close, and the cube's dark
    edges join them, so their one seed lies between the two letters and no face is found
    round it.  Where the mark's ink, unjoined, holds an edge line (a piece longer or
    thinner than a letter), its pieces as long as a letter and thicker than an edge line
    are seeds of their own where no `known` seed has their middle.  Looked for once the
    side is known (they would not change it)."""
    ink = _ink(depth, changed, INK_DEPTH)
    seeds = []
    for x, y, w, h, _ in _marks(ink, side):
        if LETTERS_JOINED * side < max(w, h) <= SEED_REACH * side:
            _, _, stats, _ = cv2.connectedComponentsWithStats(ink[y:y + h, x:x + w], connectivity=8)
            pieces = [(x + int(a), y + int(b), int(c), int(d)) for a, b, c, d, _ in stats[1:]
                      if max(c, d) >= PIECE_LEAST * side]
            letters = [(a, b, c, d) for a, b, c, d in pieces
                       if max(c, d) <= LETTERS_JOINED * side and min(c, d) >= PIECE_THICK * side]
            # (only where an edge joins them: a Qu's Q and u, or a letter in pieces, are one glyph)
            if len(letters) < len(pieces):
                seeds += letters
    return [seed for seed in seeds if not any(_same_middle(seed, other, side) for other in known)]


def _apart(seeds: list[tuple[int, int, int, int]], known: list[tuple[int, int, int, int]],
           side: float) -> list[tuple[int, int, int, int]]:
    """The seeds but those on a `known` one: their boxes overlapping, their middles
    less than half a side apart.  (A mark beside a known seed is no part of it: a worn
    pink C beside the dark line of its cube's edge, a known seed whose face was refused,
    was dropped with it, its middle that near.)"""
    if not (seeds and known):
        return seeds
    reach = 0.5 * side
    boxes, known_boxes = np.float32(seeds), np.float32(known)          # (x, y, w, h)
    first, second = _near_pairs(boxes[:, :2] + boxes[:, 2:] / 2, known_boxes[:, :2] + known_boxes[:, 2:] / 2,
                                reach * 1.01)
    a, b = boxes[first], known_boxes[second]                            # pair by pair
    start_a, end_a, start_b, end_b = a[:, :2], a[:, :2] + a[:, 2:], b[:, :2], b[:, :2] + b[:, 2:]
    overlapping = ((start_a < end_b) & (start_b < end_a)).all(axis=-1)
    near = np.linalg.norm((start_a + end_a - start_b - end_b) / 2, axis=-1) < reach
    on = set(first[near & overlapping].tolist())
    return [s for i, s in enumerate(seeds) if i not in on]


def likeliest_seeds(seeds: list[tuple[int, int, int, int]], clean: np.ndarray, side: float,
                    most: int = MOST_SEEDS) -> list[tuple[int, int, int, int]]:
    """The seeds, in their order, or where there are more than `most` (a gingham cloth's
    squares make thousands, each traced and judged for seconds), the `most` on the
    brightest ground (`clean`, the letters closed up, at their middles): half of them the
    brightest of all, as the cubes' white plastic is brighter than most cloths, and the
    rest the brightest against the seeds round them, as a cube in a shade band is darker
    than the cloth in the light but brighter than the shaded cloth round it."""
    if len(seeds) <= most:
        return seeds
    boxes = np.int64(seeds)
    middles = boxes[:, :2] + boxes[:, 2:] / 2
    ground = clean[boxes[:, 1] + boxes[:, 3] // 2, boxes[:, 0] + boxes[:, 2] // 2].astype(np.float64)
    typical_near = _median_near(middles, ground, SEEDS_NEAR * side)
    chosen = dict.fromkeys(np.argsort(-ground, kind="stable")[:most // 2].tolist())
    for index in np.argsort(-ground / np.maximum(typical_near, 1), kind="stable").tolist():
        if len(chosen) >= most:
            break
        chosen.setdefault(index)
    return [seeds[index] for index in sorted(chosen)]


def _median_near(points: np.ndarray, values: np.ndarray, reach: float) -> np.ndarray:
    """For each point, the median of `values` over the points less than `reach` from it
    (itself among them), taken from one sort of the near pairs, not point by point."""
    first, second = _near_pairs(points, points, reach)
    near = np.hypot(*(points[first] - points[second]).T) < reach
    first, near_values = first[near], values[second[near]]
    by = np.lexsort((near_values, first))
    first, near_values = first[by], near_values[by]
    counts = np.bincount(first, minlength=len(points))
    starts = np.cumsum(counts) - counts
    return (near_values[starts + (counts - 1) // 2] + near_values[starts + counts // 2]) / 2


def _near_pairs(points: np.ndarray, others: np.ndarray, cell: float) -> tuple[np.ndarray, np.ndarray]:
    """The index pairs (i, j) of `points` and `others` lying in touching cells of a grid
    of `cell`: every pair less than `cell` apart along both axes is among them (the
    caller tests them).  The cells are sorted and looked up, not each point against
    each: on a gingham cloth thousands of seeds against thousands cost seconds."""
    def cells_of(at: np.ndarray) -> np.ndarray:
        return np.floor(np.asarray(at, np.float64).reshape(-1, 2) / max(cell, 1.0)).astype(np.int64)
    theirs, mine = cells_of(others), cells_of(points)
    keys = (theirs[:, 0] << 32) + theirs[:, 1]
    order = np.argsort(keys, kind="stable")
    filed = keys[order]
    first, second = [], []
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            wanted = ((mine[:, 0] + dx) << 32) + mine[:, 1] + dy
            low, high = np.searchsorted(filed, wanted, "left"), np.searchsorted(filed, wanted, "right")
            counts = high - low
            step = np.arange(counts.sum()) - np.repeat(np.cumsum(counts) - counts, counts)
            first.append(np.repeat(np.arange(len(mine)), counts))
            second.append(order[np.repeat(low, counts) + step])
    return np.concatenate(first), np.concatenate(second)


def darkness(gray: np.ndarray, side: float, clean: np.ndarray | None = None) -> np.ndarray:
    """How much darker each pixel is than round it, as a share, for marks thinner than a
    quarter of a face (a black-hat).  `clean`: `closed(gray, side)`, if already made."""
    clean = closed(gray, side) if clean is None else clean
    # the darkness over the ground (the dark part plus the grey), in OpenCV's arithmetic:
    # the same to the bit as NumPy's (whole grey levels add exactly), in a twentieth of the time or less
    return cv2.divide(cv2.subtract(clean, gray, dtype=cv2.CV_32F), cv2.add(clean, 10.0))


def _ink(depth: np.ndarray, changed: np.ndarray | None, least: float) -> np.ndarray:
    """The marks at least this much darker than round them, 0/255."""
    ink = (depth > least).astype(np.uint8) * 255
    return ink if changed is None else ink & changed


def _same_middle(a: tuple[int, int, int, int], b: tuple[int, int, int, int], side: float) -> bool:
    """Whether two seeds' boxes have nearly the same middle (they would find the same face)."""
    return bool(np.hypot(a[0] + a[2] / 2 - b[0] - b[2] / 2, a[1] + a[3] / 2 - b[1] - b[3] / 2) < SAME_MIDDLE * side)


def _seeds(ink: np.ndarray, side: float, lines: bool = False) -> list[tuple[int, int, int, int]]:
    """The boxes round the letter-sized marks of an ink map; with `lines`, also of the
    letters in wide marks once their straight lines are taken away (for the strong ink
    only: the fainter marks join up with the table's grain and weave, at a cost)."""
    seeds, joined = [], []
    marks = _marks(ink, side)
    for x, y, w, h, blob in marks:
        if max(w, h) <= SEED_REACH * side:
            seeds.append((x, y, w, h))
        else:
            joined.append((x, y, w, h, blob))
    # a letter joined to a cube's dark edge, the gap between touching cubes or the walls
    # of a Boggle tray (one grid round every cube): those are lines a pixel or two wide,
    # which an opening wipes off the letter; what is still too wide is opened wider (an
    # edge in shade beside a bold letter)
    for line in EDGE_LINES:
        still = []
        for x, y, w, h, blob in joined:
            alone = cv2.morphologyEx(ink[y:y + h, x:x + w] & blob, cv2.MORPH_OPEN, disc(side * line))
            for a, b, c, d, part in _marks(alone, side):
                if max(c, d) <= SEED_REACH * side:
                    seeds.append((x + a, y + b, c, d))
                else:
                    still.append((x + a, y + b, c, d, part))
        joined = still
    if not lines:
        return seeds
    return seeds + [seed for seed in _off_straight_lines(ink, marks, side)
                    if not any(_same_middle(seed, other, side) for other in seeds)]


def _off_straight_lines(ink: np.ndarray, marks, side: float) -> list[tuple[int, int, int, int]]:
    """The letters of wide marks once the long straight lines in them are taken away:
    the gaps between packed cubes and a tray's walls run straight for a face's length and
    more, and take with them letters whose strokes are as thin as they are (which an
    opening would wipe off too)."""
    seeds = []
    for x, y, w, h, blob in marks:
        if not SEED_REACH * side < max(w, h) <= LINES_REACH * side:
            continue
        part = ink[y:y + h, x:x + w] & blob
        alone = part & ~cv2.dilate(_straight_lines(part, _odd(STRAIGHT_RUN * side)), np.ones((3, 3), np.uint8))
        seeds += [(x + a, y + b, c, d) for a, b, c, d, _ in _marks(alone, side)
                  if LINES_LETTER * side <= max(c, d) <= SEED_REACH * side]
    return seeds


def _straight_lines(part: np.ndarray, length: int) -> np.ndarray:
    """The pixels of a mark on straight runs at least `length` long (an opening with a
    line): looked for only along the mark's own main directions, where the edges of its
    pixels mostly run (a tray's two, a few in a cluster of cubes), to keep the work small."""
    lines = np.zeros_like(part)
    kernels = _line_kernels(length)
    for index in _main_directions(part):
        for near in range(index - LINE_SPREAD, index + LINE_SPREAD + 1):
            lines |= cv2.morphologyEx(part, cv2.MORPH_OPEN, kernels[near % LINE_ANGLES])
    return lines


def _main_directions(part: np.ndarray, most: int = MAIN_DIRECTIONS) -> list[int]:
    """The directions (of LINE_ANGLES round half a turn) the edges of a mark mostly run
    along, strongest first: the peaks of a histogram of its gradients' directions."""
    gx = cv2.Sobel(part, cv2.CV_32F, 1, 0)
    gy = cv2.Sobel(part, cv2.CV_32F, 0, 1)
    strength = np.hypot(gx, gy)
    edges = strength > 0
    along = (np.arctan2(gy[edges], gx[edges]) + np.pi / 2) % np.pi
    counts = np.bincount((along / np.pi * LINE_ANGLES).astype(int) % LINE_ANGLES, strength[edges], LINE_ANGLES)
    counts = counts + np.roll(counts, 1) + np.roll(counts, -1)
    peaks = [i for i in np.argsort(-counts)
             if counts[i] >= counts[i - 1] and counts[i] >= counts[(i + 1) % LINE_ANGLES]]
    return [int(i) for i in peaks[:most]]


@lru_cache(maxsize=8)
def _line_kernels(length: int) -> list[np.ndarray]:
    """Line-shaped kernels `length` long, a pixel thick, in LINE_ANGLES directions."""
    kernels, middle = [], length // 2
    for angle in np.linspace(0, np.pi, LINE_ANGLES, endpoint=False):
        kernel = np.zeros((length, length), np.uint8)
        dx, dy = np.cos(angle) * middle, np.sin(angle) * middle
        cv2.line(kernel, (round(middle - dx), round(middle - dy)), (round(middle + dx), round(middle + dy)), 1, 1)
        kernels.append(kernel)
    return kernels


def _marks(ink: np.ndarray, side: float) -> list[tuple[int, int, int, int, np.ndarray | None]]:
    """The marks in an ink map once each letter's pieces are joined, large enough to be
    a letter: their boxes, and the own pixels within its box of each mark too wide to be
    one letter."""
    joined = disc_closing(ink, side * 0.12)
    # (16-bit labels, where they cannot run out, halve the labelling's time)
    label_type = cv2.CV_16U if cv2.countNonZero(joined) < 65535 else cv2.CV_32S
    count, labels, stats, _ = cv2.connectedComponentsWithStats(joined, connectivity=8, ltype=label_type)
    marks = []
    for label, (x, y, w, h, area) in enumerate(stats[1:], start=1):
        if max(w, h) >= 0.2 * side and area >= 0.015 * side * side:
            # the mark's own pixels, only where it may be parted (most marks are letters)
            blob = (labels[y:y + h, x:x + w] == label).astype(np.uint8) * 255 if max(w, h) > SEED_REACH * side \
                else None
            marks.append((int(x), int(y), int(w), int(h), blob))
    return marks
