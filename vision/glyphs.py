"""From a straightened face to a normalised glyph and its ink colour.

The face's own white sets the white balance, so warm or cool light does not turn black
ink red.  Ink is what is much darker than that white (on a face lit unevenly, than the
light where it lies); red is ink whose red stands well above its green and blue.  The
glyph is the ink near the middle, cropped, padded to a square and described by a
histogram of oriented gradients (HOG)."""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.bright import percentile

GLYPH = 32
CELL, BINS = 8, 9
HOG_WEIGHT = 0.75           # the rest of the feature is the glyph's coarse 8x8 layout
RED_THRESHOLD = 0.18        # (red - mean of green and blue) of the ink, after white balance
MARGIN = 0.07              # of the face's side, cut off all round: the cube's rounded edge
BAR_ASPECT = 3.0            # a piece of ink this much longer than thick is an orientation bar
CUT_OFF_SHARE = 0.5         # ink left out at the edge this large, of the glyph's, leaves the glyph in doubt
APART = 0.15                # of the face: a piece of ink this far from the glyph, and within
EDGE_BAND = 0.08            # ... this of the face's edge, and spanning less than
GLYPH_SPAN = 0.6            # ... this share of the glyph along that edge, is not part of it
QU_GAP = 0.1                # of the face: on dice with a "Qu", a compact piece at the edge this close beside
QU_SHARE = (0.2, 0.8)       # ... the glyph, this share of its ink, is the u of the "Qu"
LIGHT_BLOCKS = 6            # the face's light is measured in this many blocks a side
UNEVEN_LIGHT = 1.3          # a face lit this much more brightly on one side has its light evened out
BAND_LENGTH = 0.6           # of the face: a band along its edge this long, and no thicker than
BAND_WIDTH = 0.3            # ... this, is the table or a side face past the outline, not a glyph
INK_FLOOR = 0.22            # the least darkness that is ink (of the face's white) ...
PALEST_INK = 0.12           # ... down to this on a face whose darkest is pale (print worn grey)
FULL_INK = 0.6              # ink's green and blue at full strength are this dark or more; paler ink is worn
HAIRLINE = 0.6              # ink joined to the glyph this share as dark as the threshold is a hairline


@dataclass
class Ink:
    mask: np.ndarray          # uint8 0/255, the glyph's ink in face coordinates
    red: bool
    redness: float
    bar_below: int | None     # quarter turns that bring the bar under the glyph, if a bar was found
    coverage: float           # share of the face covered by ink
    clipped: bool = False     # the glyph runs into the face's edge: the outline may cut through it
    # a stroke of the letter may be left out: ink as large as the glyph beside it at the
    # face's edge (or, the reader finds, a hairline too faint to be ink: see letter_reading._with_hairlines)
    cut_off: bool = False
    pale: bool = False        # paler than full-strength ink (print worn pale), so a little red may be a red ink's
    # the box (x0, y0, x1, y1, face pixels) of the glyph with the ink left out that may be
    # its own stroke (see cut_off), where there is such ink: the letter's whole extent
    reach: tuple[int, int, int, int] | None = None


def white_balanced(face: np.ndarray) -> np.ndarray:
    """The face (BGR, uint8) in units of its own white (its bright pixels' colour becomes 1, 1, 1)."""
    pixels = face.reshape(-1, 3)
    at = int(len(pixels) * 0.85)
    # the 85th percentile of each channel (of uint8 values), counted off its histogram:
    # a partial sort of the channels takes twice as long
    counts = np.cumsum([np.bincount(pixels[:, channel], minlength=256) for channel in range(3)], axis=1)
    white = (counts <= at).sum(axis=1).astype(np.float32) + 1
    return face.astype(np.float32) / white


def extract_ink(face: np.ndarray, hairlines: bool = False, qu: bool = False, level: float = 1.0) -> Ink | None:
    """The glyph's ink on one face, or None when the face holds no glyph (not a face).
    `hairlines`: with the fainter ink joined to it, down to HAIRLINE of the threshold
    (the thin strokes of a serif letter, which blur leaves pale: a T's bar, a D's bowl).
    `qu`: the dice may have a "Qu" face, whose u may reach the face's edge.
    `level`: the threshold for ink times this (above 1 only the darker ink, where blur
    ran a letter's strokes together; below 1 the paler too, where its strokes faded)."""
    size = face.shape[0]
    margin = int(size * MARGIN)
    f = white_balanced(face)[margin:size - margin, margin:size - margin]
    # the darkest channel in units of the light (the channels one by one: numpy's min
    # across the last axis is many times slower)
    dark = 1 - np.minimum(np.minimum(f[..., 0], f[..., 1]), f[..., 2]) / _light(f)
    inner = dark.shape[0]
    labels, centroids, pieces = _inked_pieces(dark, hairlines, level)
    main = _main_piece(pieces, centroids, inner)
    if main is not None and _band_at_the_edge(main, centroids, inner):
        # a strip of table or side face past an outline too large, darker than a pale
        # letter: it set the ink's level, and the letter was lost under it
        band = cv2.dilate((labels == main[0]).astype(np.uint8), np.ones((5, 5), np.uint8))
        labels, centroids, pieces = _inked_pieces(np.where(band > 0, 0, dark), hairlines, level)
        main = _main_piece(pieces, centroids, inner)
    if main is None:
        return None
    keep = np.zeros((inner, inner), np.uint8)
    bar_below = None
    _, mx, my, mw, mh, _, clipped = main
    cut_off = False
    reach = [mx, my, mx + mw, my + mh]
    grown = (mx - 0.1 * mw, my - 0.1 * mh, mx + 1.1 * mw, my + 1.1 * mh)
    for i, x, y, w, h, area, touches in pieces:
        if touches and i != main[0] and not (x >= grown[0] and y >= grown[1] and x + w <= grown[2]
                                             and y + h <= grown[3]) \
                and not (qu and _the_u((x, y, w, h), (mx, my, mw, mh), area / main[5], inner, labels == i)):
            # as large as the glyph and beside it as tall: maybe the letter's own stroke,
            # past an outline a little too small (an H's stems, cut off from its blurred bar)
            if area >= CUT_OFF_SHARE * main[5] and _alongside((x, y, w, h), (mx, my, mw, mh)):
                cut_off = True
                reach = [min(reach[0], x), min(reach[1], y), max(reach[2], x + w), max(reach[3], y + h)]
            continue
        beside = max(_gaps((x, y, w, h), (mx, my, mw, mh))) >= 0               # wholly off one side
        if i != main[0] and beside and area < main[5] * 0.5 and _elongation(labels == i) >= BAR_ASPECT:
            bar_below = _bar_turns(centroids[i], centroids[main[0]])
            continue
        if i != main[0] and _past_the_outline((x, y, w, h), (mx, my, mw, mh), inner):
            continue
        keep[labels == i] = 255
    coverage = float((keep > 0).mean())
    if not 0.02 < coverage < 0.6:
        return None
    redness, pale = _ink_colour(f[keep > 0])
    full = np.zeros((size, size), np.uint8)
    full[margin:size - margin, margin:size - margin] = keep
    return Ink(full, redness > RED_THRESHOLD, redness, bar_below, coverage, bool(clipped), cut_off, pale,
               tuple(int(v) + margin for v in reach) if cut_off else None)


def _ink_colour(ink: np.ndarray) -> tuple[float, bool]:
    """How red the ink is (its red over its green and blue, white-balanced), and whether
    it is pale: print worn pale is the ink mixed with the plastic's white, which makes a
    red ink less red as it makes it less dark, until it is as little red as a black ink
    in tinted light, blur or glare."""
    green_blue = (ink[:, 0] + ink[:, 1]) / 2
    return float(np.median(ink[:, 2] - green_blue)), 1.0 - float(np.median(green_blue)) < FULL_INK


def _inked_pieces(dark: np.ndarray, hairlines: bool, scale: float = 1.0):
    """The pieces of ink on the face, as (label, x, y, w, h, area, touches the edge), with
    the labels and the pieces' middles; not the specks, nor the slivers of the cube's edge.
    (`scale`: the threshold for ink times this.)"""
    level, _ = cv2.threshold((np.clip(dark, 0, 1) * 255).astype(np.uint8), 0, 255,
                             cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    # (no paler than INK_FLOOR: on a blank face the split falls in the noise; but no
    # more than half as dark as the face's darkest, or pale print worn grey is lost)
    level = scale * max(level / 255, min(INK_FLOOR, max(PALEST_INK, 0.5 * float(percentile(dark, 99)))))
    mask = (dark > level).astype(np.uint8) * 255
    if hairlines:
        mask = with_faint_parts(mask, (dark > max(HAIRLINE * level, 0.15)).astype(np.uint8))
    count, labels, stats, centroids = cv2.connectedComponentsWithStats(mask, 8)
    inner = mask.shape[0]
    pieces = []
    for i in range(1, count):
        x, y, w, h, area = stats[i]
        if area < inner * inner * 0.004:
            continue
        touches = x <= 0 or y <= 0 or x + w >= inner or y + h >= inner
        if touches and area < inner * inner * 0.05 and (min(w, h) < inner * 0.04 or max(w, h) > inner * 0.7):
            continue   # a sliver of the cube's edge (an orientation bar is shorter and thicker)
        pieces.append((i, x, y, w, h, area, touches))
    return labels, centroids, pieces


def _main_piece(pieces, centroids: np.ndarray, inner: int):
    """The glyph: the largest piece in the middle, or else the largest (None: no ink)."""
    middle = [p for p in pieces if _in_the_middle(p, centroids, inner)]
    return max(middle or pieces, key=lambda p: p[5]) if pieces else None


def _in_the_middle(piece, centroids: np.ndarray, inner: int) -> bool:
    return bool(np.abs(centroids[piece[0]] - inner / 2).max() < inner * 0.3)


def _band_at_the_edge(piece, centroids: np.ndarray, inner: int) -> bool:
    """Whether the glyph found is a band along one of the face's edges, off its middle:
    as long as a letter at least, much longer than thick, touching that edge."""
    _, x, y, w, h, _, _ = piece
    if _in_the_middle(piece, centroids, inner) or max(w, h) < BAND_LENGTH * inner or min(w, h) > BAND_WIDTH * inner:
        return False
    return (y <= 0 or y + h >= inner) if w >= h else (x <= 0 or x + w >= inner)


def with_faint_parts(strong: np.ndarray, faint: np.ndarray) -> np.ndarray:
    """The ink, with the fainter marks joined to it (a blurred letter's thin strokes,
    which leave only pieces of it dark enough): a hysteresis threshold, 0/255."""
    count, labels = cv2.connectedComponents(faint, connectivity=8)
    inked = np.zeros(count, bool)
    inked[np.unique(labels[strong > 0])] = True
    inked[0] = False
    return inked[labels].astype(np.uint8) * 255


def _light(f: np.ndarray) -> np.ndarray:
    """How brightly each part of the face is lit, in units of its white (H x W): 1
    all over where the face is evenly lit.  Where a lamp to one side or the shade of a
    hand leaves part of it half as bright, that part is not ink: the light is then a
    plane fitted to the brightest pixels of each block of the face (the blocks covered
    by the glyph's strokes, darker than the plane, are left out of the fit)."""
    gray = (f[..., 0] + f[..., 1] + f[..., 2]) / 3
    n = gray.shape[0] // LIGHT_BLOCKS * LIGHT_BLOCKS
    step = n // LIGHT_BLOCKS
    blocks = gray[:n, :n].reshape(LIGHT_BLOCKS, step, LIGHT_BLOCKS, step).transpose(0, 2, 1, 3)
    level = percentile(blocks.reshape(LIGHT_BLOCKS * LIGHT_BLOCKS, -1), 80, axis=1)
    centres = (np.arange(LIGHT_BLOCKS) + 0.5) * step
    ys, xs = np.meshgrid(centres, centres, indexing="ij")
    design = np.column_stack([np.ones(level.size), xs.ravel(), ys.ravel()])
    fitted = np.ones(level.size, bool)
    for _ in range(3):
        plane, *_ = np.linalg.lstsq(design[fitted], level[fitted], rcond=None)
        fitted = level > 0.85 * (design @ plane)
        if fitted.sum() < LIGHT_BLOCKS:
            return np.ones(f.shape[:2], np.float32)
    rows, columns = np.arange(gray.shape[0])[:, None], np.arange(gray.shape[1])
    corners = plane[0] + plane[1] * columns[[0, -1]] + plane[2] * rows[[0, -1]]   # a plane's extremes
    if corners.max() < UNEVEN_LIGHT * max(corners.min(), 1e-3):
        return np.ones(f.shape[:2], np.float32)
    light = plane[0] + plane[1] * columns + plane[2] * rows
    return np.clip(light / percentile(light, 85), 0.2, 1.0).astype(np.float32)


def _gaps(piece, glyph) -> tuple[float, float]:
    """How far a piece of ink's box lies off the glyph's, across and down (negative where
    the two overlap that way)."""
    x, y, w, h = piece
    mx, my, mw, mh = glyph
    return max(x - (mx + mw), mx - (x + w)), max(y - (my + mh), my - (y + h))


def _alongside(piece, glyph) -> bool:
    """Whether a piece of ink lies beside the glyph, wholly off one side of it, and spans
    as much of that side as a parallel stroke of the same letter would."""
    x, y, w, h = piece
    mx, my, mw, mh = glyph
    across_x, across_y = _gaps(piece, glyph)
    if across_x >= 0:
        return min(y + h, my + mh) - max(y, my) >= GLYPH_SPAN * mh
    if across_y >= 0:
        return min(x + w, mx + mw) - max(x, mx) >= GLYPH_SPAN * mw
    return False


def _past_the_outline(piece, glyph, inner: int) -> bool:
    """Whether a piece of ink is the side face's letter seen past an outline a little too
    large: well apart from the glyph, at the face's edge, and short across the gap (a
    stroke of the letter itself, like an H's stem cut off by a blurred bar, runs the
    glyph's whole height)."""
    x, y, w, h = piece
    mx, my, mw, mh = glyph
    across_x, across_y = _gaps(piece, glyph)
    gap = max(across_x, across_y)
    edge = min(x, y, inner - (x + w), inner - (y + h))
    spans = w / mw if across_y >= across_x else h / mh     # along the gap's edge, against the glyph's
    return gap > APART * inner and edge < EDGE_BAND * inner and spans < GLYPH_SPAN


def _the_u(piece, glyph, share: float, inner: int, pixels: np.ndarray) -> bool:
    """Whether a piece of ink at the face's edge is the u of a "Qu" beside its Q: a compact
    piece, smaller than the Q, close beside it and within its span (the next face's letter
    seen past the outline lies further off; a bar or an edge line is long and thin)."""
    x, y, w, h = piece
    mx, my, mw, mh = glyph
    across_x, across_y = _gaps(piece, glyph)
    if not 0 <= max(across_x, across_y) < QU_GAP * inner or not QU_SHARE[0] <= share <= QU_SHARE[1]:
        return False
    within = (y >= my - 0.1 * mh and y + h <= my + 1.1 * mh) if across_x >= 0 else \
        (x >= mx - 0.1 * mw and x + w <= mx + 1.1 * mw)
    return within and _elongation(pixels) < BAR_ASPECT


def _elongation(piece: np.ndarray) -> float:
    """Length over thickness of a piece of ink, measured along the piece itself (a bar
    on a slightly tilted face has a squat bounding box but is still a bar)."""
    ys, xs = np.nonzero(piece)
    (_, _), (w, h), _ = cv2.minAreaRect(np.column_stack([xs, ys]).astype(np.float32))
    return max(w, h) / max(1.0, min(w, h))


def _bar_turns(bar, glyph) -> int:
    """Quarter turns (counter-clockwise, as np.rot90) that put the bar under the glyph."""
    dx, dy = bar[0] - glyph[0], bar[1] - glyph[1]
    if abs(dy) >= abs(dx):
        return 0 if dy > 0 else 2
    return 3 if dx > 0 else 1   # np.rot90 turns east to north: three turns bring east south


def normalise(mask: np.ndarray) -> np.ndarray:
    """The glyph cropped to its ink, padded to a square and scaled to GLYPH pixels."""
    ys, xs = np.nonzero(mask)
    if len(xs) == 0:
        return np.zeros((GLYPH, GLYPH), np.uint8)
    crop = mask[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
    h, w = crop.shape
    side = int(max(h, w) * 1.15) + 2
    square = np.zeros((side, side), np.uint8)
    square[(side - h) // 2:(side - h) // 2 + h, (side - w) // 2:(side - w) // 2 + w] = crop
    return cv2.resize(square, (GLYPH, GLYPH), interpolation=cv2.INTER_AREA)


def features(glyph: np.ndarray) -> np.ndarray:
    """Histograms of gradient orientation in 8x8-pixel cells over overlapping 2x2-cell
    blocks, each block normalised (HOG), as one unit vector."""
    return many_features(glyph[None])[0]


def many_features(glyphs: np.ndarray) -> np.ndarray:
    """`features` of N glyphs (N x GLYPH x GLYPH) at once: N x length (one glyph at a time,
    numpy's overhead costs more than the sums)."""
    g = np.stack([cv2.GaussianBlur(glyph, (3, 3), 0) for glyph in glyphs]).astype(np.float32) / 255
    gx = np.stack([cv2.Sobel(one, cv2.CV_32F, 1, 0, ksize=3) for one in g])
    gy = np.stack([cv2.Sobel(one, cv2.CV_32F, 0, 1, ksize=3) for one in g])
    magnitude = np.hypot(gx, gy)
    angle = np.mod(np.arctan2(gy, gx), np.pi)                  # unsigned orientation
    # each gradient is shared between its two nearest orientation bins, round the circle
    # (0 and pi are the same orientation: without this a near-vertical edge jumps bins)
    position = angle / np.pi * BINS - 0.5
    low = np.floor(position)
    upper_share = position - low
    low = low.astype(np.int64) % BINS
    high = (low + 1) % BINS
    cells = GLYPH // CELL
    cell_of = (np.arange(GLYPH) // CELL)
    size = cells * cells * BINS
    base = (cell_of[:, None] * cells + cell_of[None, :]) * BINS + np.arange(len(g))[:, None, None] * size
    hist = (np.bincount((base + low).ravel(), (magnitude * (1 - upper_share)).ravel(), size * len(g))
            + np.bincount((base + high).ravel(), (magnitude * upper_share).ravel(), size * len(g)))
    hist = hist.reshape(len(g), cells, cells, BINS)
    blocks = np.concatenate([hist[:, i:i + 2, j:j + 2].reshape(len(g), 1, 4 * BINS)
                             for i in range(cells - 1) for j in range(cells - 1)], axis=1)
    norms = np.linalg.norm(blocks, axis=2, keepdims=True)
    # a floor under the normalisation, so nearly empty blocks (beside a thin I) stay quiet
    blocks /= np.maximum(norms, 0.3 * norms.mean(axis=1, keepdims=True) + 1e-6)
    hog = blocks.reshape(len(g), -1)
    hog = hog / (np.linalg.norm(hog, axis=1, keepdims=True) + 1e-6)
    layout = np.stack([cv2.resize(one, (8, 8), interpolation=cv2.INTER_AREA).ravel() for one in g])
    layout = layout / (np.linalg.norm(layout, axis=1, keepdims=True) + 1e-6)
    v = np.concatenate([hog * HOG_WEIGHT, layout * (1 - HOG_WEIGHT)], axis=1)
    return (v / np.linalg.norm(v, axis=1, keepdims=True)).astype(np.float32)


def rotations(mask: np.ndarray) -> list[np.ndarray]:
    """The glyph in its four quarter turns, each normalised (k counter-clockwise turns)."""
    return [normalise(np.rot90(mask, k).copy()) for k in range(4)]
