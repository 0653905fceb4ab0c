"""Finding the cubes' top faces in a photo of the table and straightening each into a square.

Nothing here assumes the faces are brighter than the table (cream cubes on white paper
are darker than it).  What holds on any table: every top face carries one dark or red
glyph in its middle, the glyph's strokes and the face's border run along the face's own
axes, the border is a strong change of brightness (to the table, to a side face, to the
rounded edge), and every cube in a throw is the same size.  So:

1. glyph seeds (glyph_seeds.py): thin dark marks on a lighter ground (a morphological
   black-hat), joined into one blob per letter; faces brighter than the table also come
   from a whiteness map (bright.py); once the side is known, fainter letters too (dim
   light, blur, the small far faces of a steep view, worn print), unless the table's own
   pattern makes too many;
2. for each seed, the face's axes from the gradients round it (the four-fold mean
   angle), and along each axis the face's border: the first strong change of
   brightness, with the glyph wiped off inside its own box; the same border looked for
   either side of the axis tilts each edge to follow the face (a slanted view makes a
   trapezoid);
3. each candidate is scored by how much it looks like a top face (square, even inside,
   a sharp border all round, white or cream, a dark glyph), and the side of a top face
   is learned from the throw and the search run again with it; then the face network
   (face_net.py), which also sees what lies round each outline, says how surely it is
   a top face, and that ranks them;
4. candidates on the same face are one; a face against a top face closer than a whole
   face, and lit or sized differently, is that cube's side face, so a side face's letter
   never becomes a cube of its own (unless the network takes both for top faces: two
   touching cubes).  Which of the two is the top face: the much more face-like one
   (by the network); else the one further from the point under the camera (worked out from
   how the faces' size changes across the photo, the faces the network is sure of where
   there are five or more: a side face lies towards it); else the
   brighter.  Where these signs disagree, the reading is left in doubt.
5. a glyph whose traced border makes no face (a shadow across it, a touching cube, white
   on white) also gets a face of the throw's own size round it: the glyph is in a face's
   middle.
6. where the faces found are small (their glyphs' strokes a pixel or two wide at the
   working size), the search is made again on a finer copy of the photo.

An optional frame of the empty table (the camera fixed on the box) restricts the seeds
to what changed, which removes table texture (gingham, wood grain, paper edges)."""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cached_property
from itertools import chain

import cv2
import numpy as np

from vision import face_net
from vision.bright import bright_outlines, order_corners
from vision.glyph_seeds import (FAINT_LETTER_DEPTH, MOST_OUTLINES, blurred_letter_seeds, closed, closing_size,
                                darkness, disc, faint_letter_seeds, glyph_seeds)
from vision.networks import ModelMissing
from vision.perspective import Perspective
from vision.warping import sampled, straightening

WORK_WIDTH = 1024         # faces are found on a copy this wide; warped from the full image
FACE_PIXELS = 96          # the straightened face
FIRST_SIDES = (0.04, 0.08)   # of the photo's width: first guesses at a face's side
OVERLAP = 0.25            # of the smaller candidate: two candidates this much overlapped are one cube
SIZES = (0.3, 2.2)         # a top face's area, in squares of the learned side (near cubes look bigger)
FIRST_EDGE = 0.5          # a change this share of the strongest along a ray is the face's border
SHARP = 0.03              # a face's border changes brightness by this share of the face per pixel, or more
TINTED = 0.25             # saturation above which a "face" is more likely the table (wood, felt, cloth)
BRIGHTER = 1.08           # of two joined faces, one this much brighter is the top one
ALIKE = 0.7               # of two joined faces, one less than this share as face-like (to the network) is the side face
NO_FACE = 0.05            # ... and one less than this share is no face at all: no other sign leaves the other in doubt
JOINED_STEEP = 1.15       # of a face's own side: a face closer than this beside it, lit or sized
FORESHORTENED = 0.7       # differently, is its side face (a side face seen steeply is nearly as tall)
PLASTIC_SPREAD = 1.25     # ground this much darker than the dimmest sure face, or lighter than the brightest, is
                          # no cube's
NEAR = 0.15               # two sides this close (as a share) find the same faces
FAR_LARGER = 1.4          # faces the network is sure of this much larger (by area) than the side learned set it
NEAR_PAIR = 3.0           # of two faces' diagonals: faces further apart are not one cube's, nor overlap
SMALL_SIDE = 34           # working pixels: faces smaller than this are looked for on a finer copy,
SMALL_GUESS = 2.0         # ... there guessing sides less than this many times theirs (the first copy's side)
CHANGED = 30              # grey levels that count as a change from the empty table
GUESSED = 0.8             # a face guessed round a glyph counts as this square (less than one traced)
GUESS_FIT = 0.9           # and its size as this good a fit: it has the expected size by making, not by finding
LARGER_GUESS = 1.2        # of the side expected: a second guess round a glyph the face network doubts ...
GUESS_WORTH = 0.05        # ... where it takes the first for a face this surely at least (not a stray mark's)
GREY_WEIGHTS = np.float32([0.114, 0.587, 0.299])   # blue, green, red: their shares of grey
SQUARE_ENOUGH = 0.6       # a top face is at least this square (short side over long); less is refused
SURE_TOP = 0.6            # the face network this sure of a candidate overrules its unevenness, and
GLYPH_CONTRAST = 0.35     # ... the glyph's contrast a face needs, which down to this
FAINT_CONTRAST = 0.25     # ... is then enough (dim light, glare; less sure, a little more is needed)
UNEVEN = 0.25             # ... and below this unevenness (shade, blur, glare across a face),
FAIR_TOP = 0.15           # ... this sure: the cube count then decides which candidates are cubes
WORN_SHARE = 0.5          # where the print is pale, a face the network is sure of (SURE_TOP) needs a glyph
PALEST_PRINT = 0.1        # ... this share as dark as the throw's print's, no paler than this; and fainter
                          # letters are looked for, this share as dark
MOST_FACES = 48           # faces kept, the most face-like first: twice the largest board of cubes.  Wood grain or
                          # print can pass for hundreds of faces the network all but rules out; each costs a reading
CROWDED = f"past the {MOST_FACES} most face-like faces"    # the reason such an outline was rejected
TOO_CLOSE = 0.9           # of the side: two top faces' middles are a side apart or more (slack for the outlines)
BOTH_TOPS = 0.5           # two joined faces the face network both takes for top faces this surely are two cubes
SURE_SIDE = 0.9           # outlines the face network is this sure of measure the side ...
MIN_SURE_FACES = 3        # ... where there are this many
RESERVE_SQUARE = 0.45     # a refused candidate this square (a face a little foreshortened) ...
RESERVE_TOP = 0.25        # ... that the face network takes this surely for a top face is held in reserve,
RESERVE_APART = TOO_CLOSE  # ... where it lies as far from every kept face as two top faces' middles are


@dataclass
class Face:
    corners: np.ndarray    # 4x2 float32, in the input image's pixels, clockwise
    centre: tuple[float, float]
    square: np.ndarray     # FACE_PIXELS x FACE_PIXELS BGR, straightened
    likeness: float = 1.0      # how much the candidate looked like a top face, 0..1
    rival: float = 0.0         # likeness of a face joined to this one that was taken for its side face
    aside: bool = False        # it lies where a kept face's side face would (the camera's place says),
                               # or too close to a more face-like one for both to be top faces
    reserve: str = ""          # why it was refused, for a face held in reserve (see `_reserves`)


@dataclass
class Rejected:
    corners: np.ndarray
    reason: str


@dataclass
class Search:
    """What the finder saw: the faces kept, the candidates rejected and why, and the side
    of a top face it learned (in the input image's pixels)."""
    faces: list[Face] = field(default_factory=list)
    rejected: list[Rejected] = field(default_factory=list)
    side: float = 0.0
    reserve: list[Face] = field(default_factory=list)     # refused, but cubes where the count lacks them
    notes: list[str] = field(default_factory=list)


class AxisField:
    """The face's axes (mod 90 degrees) round any point, from the gradients there: the
    glyph's strokes and the face's border run along them, so the mean of four times
    each gradient's angle, weighted by its strength, points along an axis.  Summed over
    boxes with integral images, so each seed costs four look-ups."""

    def __init__(self, blurred: np.ndarray):
        gx = cv2.Sobel(blurred, cv2.CV_32F, 1, 0)
        gy = cv2.Sobel(blurred, cv2.CV_32F, 0, 1)
        # strength times cos and sin of four times the angle, from the gradient's powers
        # (Re and Im of (gx + i gy)^4 over its strength cubed): no trigonometry per pixel.
        # In OpenCV's arithmetic: the same as NumPy's to the bit, the arithmetic some six times faster
        xx, yy = cv2.multiply(gx, gx), cv2.multiply(gy, gy)
        square = cv2.add(xx, yy)
        over = cv2.divide(1.0, cv2.max(cv2.multiply(square, cv2.sqrt(square)), 1e-30))
        cos = cv2.subtract(cv2.multiply(square, square), cv2.multiply(xx, yy, scale=8))
        sin = cv2.multiply(cv2.multiply(gx, gy, scale=4), cv2.subtract(xx, yy))
        self.cos = cv2.integral(cv2.multiply(cos, over), sdepth=cv2.CV_64F)
        self.sin = cv2.integral(cv2.multiply(sin, over), sdepth=cv2.CV_64F)

    def angle(self, cx: float, cy: float, radius: float) -> float:
        h, w = self.cos.shape[0] - 1, self.cos.shape[1] - 1
        x0, y0 = max(0, int(cx - radius)), max(0, int(cy - radius))
        x1, y1 = min(w, int(cx + radius) + 1), min(h, int(cy + radius) + 1)

        def total(table):
            return table[y1, x1] - table[y0, x1] - table[y1, x0] + table[y0, x0]
        return float(np.arctan2(total(self.sin), total(self.cos)) / 4)


@dataclass
class _Ground:
    """What the faces' borders are looked for in: the photo (lightly blurred), except
    inside each glyph's box, where the glyph is wiped off (a closing).  Wiping it off
    everywhere would also wipe off the thin dark gap between two touching cubes."""
    gray: np.ndarray
    clean: np.ndarray
    boxes: np.ndarray             # x0, y0, x1, y1 of each seed's glyph, float32

    def sample(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        """The ground at the points (x, y) (seeds x ...), each seed's own glyph wiped off."""
        plain, wiped = sampled(self.gray, x, y), sampled(self.clean, x, y)
        box = self.boxes.reshape((len(self.boxes),) + (1,) * (x.ndim - 1) + (4,))
        inside = (x >= box[..., 0]) & (y >= box[..., 1]) & (x <= box[..., 2]) & (y <= box[..., 3])
        return np.where(inside, wiped, plain)


def _strongest(change: np.ndarray, reach: np.ndarray, low: np.ndarray, high: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Along each row of `change`, the first strong change between its `low` and `high`
    (a local peak at least FIRST_EDGE of the row's strongest: the top face's own border
    comes before the side face's outer edge, which is often the stronger), and its size.
    All rows at once: this runs for every seed at every side tried."""
    inside = (reach[None, :] >= low[:, None]) & (reach[None, :] <= high[:, None])
    values = np.where(inside, change, -1.0)           # outside the window: below any change
    edge = np.full((len(values), 1), -1.0)
    before = np.concatenate([edge, values[:, :-1]], axis=1)
    after = np.concatenate([values[:, 1:], edge], axis=1)
    peaks = inside & (values >= FIRST_EDGE * values.max(axis=1, keepdims=True)) & (values >= before) \
        & (values >= after)
    at = np.where(peaks.any(axis=1), peaks.argmax(axis=1), values.argmax(axis=1))
    return reach[at].astype(np.float64), change[np.arange(len(values)), at].astype(np.float64)


# where the strips run across an axis, as shares of the side: seven over the middle, five
# either side of it at a quarter of the side (for the tilt of the face's edge)
STRIPS = np.concatenate([np.linspace(-0.22, 0.22, 7), -0.25 + np.linspace(-0.08, 0.08, 5),
                         0.25 + np.linspace(-0.08, 0.08, 5)]).astype(np.float32)


def face_outlines(ground: _Ground, centres: np.ndarray, angles: np.ndarray, side: float):
    """The face round each seed (`centres` N x 2, float32; `angles` N, the face's axes):
    along each of its four axes, where the glyph-free image first changes strongly (the
    border, in a strip as wide as half a face, its median across so that what is left of
    the glyph does not decide); then the same border looked for in narrow strips either
    side of the axis, which tilts it to follow the face's own edge (a face seen at a
    slant is a trapezoid, not a square).  For each seed: the four corners, the reach
    along each axis, and how sharp the weakest border is (change per pixel over the
    face's brightness).  Every seed at once: this runs for every seed at every side tried."""
    n, step = len(centres), 0.5
    reach = np.arange(0.22 * side, 1.0 * side, step, dtype=np.float32)
    across = STRIPS * side
    turns = angles[:, None] + np.arange(4) * np.pi / 2
    along = np.stack([np.cos(turns), np.sin(turns)], axis=2).astype(np.float32)        # N x 4 x 2
    normal = np.stack([-along[..., 1], along[..., 0]], axis=2)
    # the points' x and y apart (N x 4 x strips x reach each), whole for the remaps
    x, y = (centres[:, k, None, None, None] + reach[None, None, None, :] * along[:, :, None, None, k]
            + across[None, None, :, None] * normal[:, :, None, None, k] for k in (0, 1))
    samples = ground.sample(x, y)
    profiles = np.stack([_middle(samples[:, :, :7]), _middle(samples[:, :, 7:12]), _middle(samples[:, :, 12:])],
                        axis=2).reshape(n * 12, len(reach))
    profiles = cv2.GaussianBlur(profiles, (5, 1), 1.0)
    changes = (np.abs(np.gradient(profiles, axis=1)) / step).reshape(n, 4, 3, len(reach))
    found, sharp = _strongest(changes[:, :, 0].reshape(n * 4, -1), reach, np.full(n * 4, reach[0]),
                              np.full(n * 4, reach[int(len(reach) * 0.85)]))
    sharpness = (sharp / (profiles[0::3, 0] + 1)).reshape(n, 4).min(axis=1)
    ends, _ = _strongest(changes[:, :, 1:].reshape(n * 8, -1), reach, np.repeat(found - 0.15 * side, 2),
                         np.repeat(found + 0.15 * side, 2))
    found, ends = found.reshape(n, 4), ends.reshape(n, 4, 2)
    rectangles = _rectangles(centres, angles, found.astype(np.float32))
    # each edge as a line through the borders found either side of its axis; the corners
    # where the lines of neighbouring edges meet
    first = centres[:, None, :] + ends[:, :, 0, None] * along + (-0.25 * side) * normal
    direction = centres[:, None, :] + ends[:, :, 1, None] * along + (0.25 * side) * normal - first
    corners, met = _meet(first, direction, np.roll(first, -1, axis=1), np.roll(direction, -1, axis=1))
    outlines = []
    for i in range(n):
        quad = corners[i].astype(np.float32)
        # the tilted edges that do not make a face give the plain rectangle
        outline = quad if met[i].all() and _like(quad, rectangles[i]) else rectangles[i]
        outlines.append((outline, [float(r) for r in found[i]], float(sharpness[i])))
    return outlines


def _middle(strips: np.ndarray) -> np.ndarray:
    """The median across an odd number of strips (axis 2): an odd-even transposition
    sort, whole strips at a time (many times faster than a partition across that axis)."""
    rows = [strips[:, :, i] for i in range(strips.shape[2])]
    for turn in range(len(rows)):
        for i in range(turn % 2, len(rows) - 1, 2):
            rows[i], rows[i + 1] = np.minimum(rows[i], rows[i + 1]), np.maximum(rows[i], rows[i + 1])
    return rows[len(rows) // 2]


def _like(quad: np.ndarray, rectangle: np.ndarray) -> bool:
    """Whether the quadrilateral from the tilted edges is a face much like the plain
    rectangle (convex, about as large, its corners near the rectangle's): a neighbour's
    edge picked up by one strip makes a wild shape."""
    if not cv2.isContourConvex(quad.reshape(-1, 1, 2)):
        return False
    size = np.sqrt(cv2.contourArea(rectangle))
    ratio = cv2.contourArea(quad) / max(1.0, size * size)
    return 0.7 < ratio < 1.4 and np.linalg.norm(quad - rectangle, axis=1).max() < 0.3 * size


def _meet(p: np.ndarray, d: np.ndarray, q: np.ndarray, e: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Where lines (points `p`, `q` and directions `d`, `e`, ... x 2) cross, and whether
    they do (not where they are nearly parallel)."""
    det = d[..., 0] * -e[..., 1] - d[..., 1] * -e[..., 0]
    met = np.abs(det) >= 1e-6 * (np.hypot(d[..., 0], d[..., 1]) * np.hypot(e[..., 0], e[..., 1]) + 1e-9)
    t = ((q[..., 0] - p[..., 0]) * -e[..., 1] - (q[..., 1] - p[..., 1]) * -e[..., 0]) / np.where(met, det, 1.0)
    return p + t[..., None] * d, met


def _rectangles(centres: np.ndarray, angles: np.ndarray, reaches: np.ndarray) -> np.ndarray:
    """The rectangle round each centre (N x 2) along the axes at its angle (N), reaching
    right, down, left and up as far as its `reaches` row says (N x 4, float32): N x 4 x 2."""
    along = np.stack([np.cos(angles), np.sin(angles)], axis=1).astype(np.float32)[:, None, :]
    normal = np.concatenate([-along[..., 1:], along[..., :1]], axis=2)
    right, down, left, up = (reaches[:, k, None, None] for k in range(4))
    centre = centres[:, None, :]
    return np.concatenate([centre + right * along + down * normal, centre - left * along + down * normal,
                           centre - left * along - up * normal, centre + right * along - up * normal], axis=1)


@dataclass
class _Candidate:
    corners: np.ndarray       # working-image pixels
    width: float
    height: float
    evenness: float = 0.0     # spread of the glyph-free face's brightness over its mean (a face is even)
    contrast: float = 0.0     # how much darker the darkest ink is than the face, over the face
    border: float = 1.0       # sharpness of the weakest of its four borders
    tint: float = 0.0         # saturation of the face's lighter half (cube plastic is white or cream)
    level: float = 0.0        # brightness of the glyph-free face
    fill: float = 1.0         # share of its bounding rectangle the outline fills (1 for a rectangle)
    topness: float | None = None  # the face network's judgement, with the surroundings (None: not asked)
    seed: tuple[int, int, int, int] | None = None         # the glyph seed's box it was traced round
    angle: float | None = None                            # ... and the cube's axes there (for a guessed face round it)

    @property
    def likeness(self) -> float:
        """How much this looks like a top face, 0..1 (size aside)."""
        return (self.squareness * min(1.0, self.contrast / 0.7) * float(np.exp(-self.evenness / 0.06))
                * min(1.0, self.border / SHARP) ** 0.5 * float(np.exp(-max(0.0, self.tint - TINTED) / 0.12)))

    @property
    def score(self) -> float:
        """How surely this is a top face: the face network's answer where it was asked
        (it also sees what lies round the outline), else the likeness."""
        return self.likeness if self.topness is None else self.topness

    @property
    def area(self) -> float:
        return self.width * self.height

    @cached_property
    def middle(self) -> np.ndarray:
        return self.corners.mean(axis=0)

    @cached_property
    def reach(self) -> float:
        """Its diagonal: no face lying against it or over it is further off than a few."""
        return math.hypot(self.width, self.height)

    @cached_property
    def ordered(self) -> np.ndarray:
        """The corners clockwise from the top left."""
        return order_corners(self.corners)

    @property
    def guessed(self) -> bool:
        return self.fill == GUESSED

    @property
    def squareness(self) -> float:
        return min(self.width, self.height) / max(self.width, self.height, 1e-6) * self.fill


@dataclass
class _View:
    """The working copy of the photo, and what is worked out from it once."""
    small: np.ndarray
    light_gains: np.ndarray   # each channel's gain that takes the light's own colour out, to judge tint by
    gray: np.ndarray
    blurred: np.ndarray
    axes: AxisField
    _closed: dict[int, np.ndarray] = field(default_factory=dict)     # by the closing's disc
    _darkness: dict[int, np.ndarray] = field(default_factory=dict)

    @classmethod
    def of(cls, small: np.ndarray) -> "_View":
        gray = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
        blurred = cv2.GaussianBlur(gray, (0, 0), 1.0).astype(np.float32)
        return cls(small, _light_gains(small), gray, blurred, AxisField(blurred))

    def closed(self, side: float) -> np.ndarray:
        """`closed(gray, side)`, made once for each side (the faces at a side are looked
        for, then completed), or for sides near enough to close with the same disc."""
        size = closing_size(side)
        if size not in self._closed:
            self._closed[size] = closed(self.gray, side)
        return self._closed[size]

    def red_darkness(self, side: float) -> np.ndarray:
        """`darkness` of the darker of grey and green, the green balanced for the light's
        colour (so that under warm light a white face or table is as light in it as in
        grey): red ink, light in grey, is as dark in it as black."""
        gains = self.light_gains
        green = self.small[..., 1] * (gains[1] * float(GREY_WEIGHTS @ (1 / gains)))
        return darkness(np.minimum(self.gray, np.minimum(green, 255).astype(np.uint8)), side)

    def darkness(self, side: float) -> np.ndarray:
        """`darkness(gray, side)`, made once for each side (the seeds, the blurred
        letters and the faint ones are all found in it)."""
        size = closing_size(side)
        if size not in self._darkness:
            self._darkness[size] = darkness(self.gray, side, self.closed(side))
        return self._darkness[size]


def _light_gains(small: np.ndarray) -> np.ndarray:
    """What each channel is multiplied by to see the photo as if under white light (over
    its brightest pixels').  Warm or tinted light makes every white cube look cream or
    orange; only a tint beyond the light's own says a candidate is the table (wood,
    felt, cloth)."""
    light = np.percentile(small[::4, ::4].reshape(-1, 3), 99.5, axis=0).astype(np.float32) + 1
    return light.max() / light


def _candidates(view: _View, side: float, changed: np.ndarray | None,
                outlines: list[np.ndarray]) -> list[_Candidate]:
    """A candidate round every glyph seed, and one for every outline found another way."""
    clean = view.closed(side)
    found = _traced(view, side, clean, glyph_seeds(view.darkness(side), side, changed))
    if not outlines:
        return found
    rectangles = [cv2.minAreaRect(corners) for corners in outlines]
    # each outline's sharpness, traced round its middle (wiped off: the glyph's place)
    middles = np.float32([[x, y] for (x, y), _, _ in rectangles])
    wiped = np.float32([[x - m, y - m, x + m, y + m] for (x, y), (w, h), _ in rectangles for m in [0.35 * min(w, h)]])
    traced = face_outlines(_Ground(view.blurred, clean, wiped), middles,
                           np.radians([angle for _, _, angle in rectangles]), side)
    for corners, (_, (w, h), _), (_, _, sharpness), inside in zip(outlines, rectangles, traced,
                                                                   _inside(view, clean, outlines)):
        fill = cv2.contourArea(corners.astype(np.float32)) / max(1.0, w * h)
        found.append(_Candidate(corners.astype(np.float32), w, h, **inside, border=sharpness, fill=min(1.0, fill)))
    return found


def _traced(view: _View, side: float, clean: np.ndarray, seeds: list[tuple[int, int, int, int]]) -> list[_Candidate]:
    """A face outline traced round each glyph seed (and a guessed face where it is refused)."""
    if not seeds:
        return []
    centres = np.float32([[x + w / 2, y + h / 2] for x, y, w, h in seeds])
    angles = np.array([view.axes.angle(cx, cy, side * 0.6) for cx, cy in centres])
    wiped = np.float32([[x - 0.15 * w, y - 0.15 * h, x + 1.15 * w, y + 1.15 * h] for x, y, w, h in seeds])
    outlines = face_outlines(_Ground(view.blurred, clean, wiped), centres, angles, side)
    traced = [_Candidate(corners, reach[0] + reach[2], reach[1] + reach[3], **inside, border=sharpness,
                         seed=seed, angle=angle)
              for seed, angle, (corners, reach, sharpness), inside
              in zip(seeds, angles, outlines, _inside(view, clean, [corners for corners, _, _ in outlines]))]
    # a face of the throw's own size round the glyph, which is in a face's middle: the
    # face where the border was lost (a shadow across it, a touching cube, the rounded
    # edge), or where the traced outline ran into a neighbour.  While the side is
    # learned, only where the outline was refused (see `_completed`)
    refused = [c for c in traced if _refusal(c, side) is not None]
    guessed = dict(zip(map(id, refused), _guessed(view, clean, refused, [side] * len(refused))))
    return [face for c in traced for face in ([c, guessed[id(c)]] if id(c) in guessed else [c])]


def _guessed(view: _View, clean: np.ndarray, traced: list[_Candidate], sides: list[float]) -> list[_Candidate]:
    """A face of the given side round each traced candidate's glyph, square to the cube's
    axes there."""
    if not traced:
        return []
    centres = np.float32([[x + w / 2, y + h / 2] for x, y, w, h in (c.seed for c in traced)])
    squares = _rectangles(centres, np.array([c.angle for c in traced]),
                          np.repeat(np.float32(sides)[:, None] / 2, 4, axis=1))
    return [_Candidate(square, side, side, **inside, border=c.border, fill=GUESSED)
            for c, square, side, inside in zip(traced, squares, sides, _inside(view, clean, squares))]


def _inside(view: _View, clean: np.ndarray, outlines) -> list[dict[str, float]]:
    """For each outline, the evenness of its glyph-free middle, its glyph's contrast, the
    tint of its lighter half and its brightness: a face is evenly lit white or cream
    plastic with dark ink on it; table texture and shadows are not."""
    quads = np.asarray(outlines, np.float32).reshape(-1, 4, 2)
    middle = quads.mean(axis=1, keepdims=True)
    inner = (quads - middle) * 0.7 + middle      # in turn round the face, as every outline is
    at = straightening(inner, 24)
    face, ink, colour = (sampled(image, *at, border=cv2.BORDER_CONSTANT).reshape(len(quads), 576, -1)
                         for image in (clean, view.gray, view.small))
    face, ink = face[..., 0], ink[..., 0].astype(np.float32)
    colour = np.minimum(colour * view.light_gains, 255)     # the light's colour out of these samples alone
    level = np.partition(face, 288, axis=1)[:, 288].astype(np.float64) + 1   # the median (np.median is slow)
    ranked = np.partition(ink, (28, 345), axis=1)
    darkest = ranked[:, 28]                                                   # the 5th percentile
    lighter_half = ink >= ranked[:, 345:346]                                  # the top 40 %
    lighter = (colour * lighter_half[..., None]).sum(axis=1, dtype=np.float64) / lighter_half.sum(axis=1)[:, None]
    tint = (lighter.max(axis=1) - lighter.min(axis=1)) / (lighter.max(axis=1) + 1)
    evenness = face.std(axis=1, dtype=np.float64) / level
    return [dict(evenness=e, contrast=c, tint=t, level=v) for e, c, t, v in
            zip(evenness.tolist(), ((level - darkest) / level).tolist(), tint.tolist(), level.tolist())]


def _near(a: _Candidate, b: _Candidate) -> bool:
    """Whether two candidates lie near enough to overlap, be one cube's faces or be taken
    for them (the tests of a pair cost far more than this, and most pairs are far apart)."""
    return math.dist(a.middle, b.middle) < NEAR_PAIR * (a.reach + b.reach)


def _overlap(a: _Candidate, b: _Candidate) -> float:
    area, _ = cv2.intersectConvexConvex(a.corners, b.corners)
    return area / max(1.0, min(a.area, b.area))


def _changed(image: np.ndarray, background: np.ndarray | None, scale: float) -> np.ndarray | None:
    """Where the table no longer looks empty (None without a frame of the empty table)."""
    if background is None:
        return None
    if background.shape != image.shape:
        raise ValueError(f"The empty-table frame is {background.shape[1]}x{background.shape[0]} but the photo is "
                         f"{image.shape[1]}x{image.shape[0]}: take both with the same camera setting.")
    diff = cv2.absdiff(image, background).max(axis=2)
    diff = cv2.resize(diff, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    mask = (cv2.GaussianBlur(diff, (0, 0), 1.5) > CHANGED).astype(np.uint8) * 255
    return cv2.dilate(mask, disc(WORK_WIDTH * 0.01))


def _learn_side(search, guess: float) -> tuple[float, list[_Candidate]]:
    """The side of a top face, learned from the throw (every cube is the same size): the
    median side of the candidates found with a guess that look most like faces; then
    the candidates found with it."""
    candidates = search(guess)
    threshold = _likely(candidates)
    likely = [c for c in candidates if c.likeness > threshold]
    if not likely:
        return guess, candidates
    side = float(np.median([np.sqrt(c.area) for c in likely]))
    return side, search(side)


def _likely(candidates: list[_Candidate]) -> float:
    """The likeness above which a candidate counts as a probable face: 0.4, or half the
    best one's in a photo where every face looks worse (shade bands, glare, dim light)."""
    best = max((c.likeness for c in candidates), default=0.0)
    return min(0.4, max(0.5 * best, 0.03))


def _guess_score(found: tuple[float, list[_Candidate]]) -> float:
    """How well a guess at the side did: the likeness of the probable faces it found,
    counted in full only for faces of the side it learned."""
    side, candidates = found
    threshold = _likely(candidates)
    return sum(c.likeness * _size_fit(c.area, side) for c in candidates if c.likeness > threshold)


def _mostly_changed(outline: np.ndarray, changed: np.ndarray) -> bool:
    """Whether most of an outline is where the table changed (not part of the table)."""
    inside = np.zeros(changed.shape, np.uint8)
    cv2.fillConvexPoly(inside, outline.astype(np.int32), 255)
    return cv2.countNonZero(inside & changed) > 0.5 * max(1, cv2.countNonZero(inside))


def search_faces(image: np.ndarray, background: np.ndarray | None = None, width: int = WORK_WIDTH) -> Search:
    """Every top face in a BGR photo, straightened, with the candidates rejected."""
    return _select(image, find_candidates(image, background, width))


@dataclass
class Found:
    """Every candidate face in a photo, on the working copy it was found in."""
    view: _View
    scale: float                  # of the working copy to the photo
    side: float                   # of a top face, learned from the throw, working pixels
    candidates: list[_Candidate]
    sight: "Perspective | None"   # where the camera stands, if the faces' sizes say (straight down: a guess)
    notes: list[str] = field(default_factory=list)   # what the finder could not do, for the reading's notes

    @property
    def perspective(self) -> "Perspective | None":
        return _leaning(self.sight)

    def foot_of(self, c: _Candidate) -> np.ndarray | None:
        """The direction of the camera's foot from a candidate, if the camera's place is known."""
        return self.perspective.foot_from(c) if self.perspective else None

    def side_at(self, point: np.ndarray) -> float:
        """The side of a top face at `point` (faces nearer the camera look larger)."""
        return self.perspective.side_at(point, self.side) if self.perspective else self.side

    def judged(self, candidates: list[_Candidate] | None = None) -> list[_Candidate]:
        """The candidates (of these, where given) the face network is asked about (the
        others are refused as not square)."""
        return [c for c in (self.candidates if candidates is None else candidates) if c.squareness >= SQUARE_ENOUGH]

    def sure_side(self, long: bool = True) -> float | None:
        """The side of the traced outlines the face network is sure are top faces, if
        there are a few: their long sides (a face seen at a slant is foreshortened, so
        they measure it best), or with `long` False, the roots of their areas (which a
        slant never makes larger)."""
        sure = [max(c.width, c.height) if long else np.sqrt(c.area) for c in self.candidates
                if not c.guessed and c.topness is not None and c.topness > SURE_SIDE]
        return float(np.median(sure)) if len(sure) >= MIN_SURE_FACES else None


def find_candidates(image: np.ndarray, background: np.ndarray | None = None, width: int = WORK_WIDTH) -> Found:
    """The candidate faces round every glyph seed and bright outline.  Where the faces
    are smaller than SMALL_SIDE, they are looked for again on a finer copy of the photo
    (their glyphs' strokes are a pixel or two wide at the usual working size)."""
    look = _Look.at(image, background, width)
    learned = look.ranked(look.first_guesses())
    side, candidates = learned[0]
    finer = _finer_width(image, width, side, candidates)
    if finer is None:
        found = look.checked(learned)
        side, finer = found.side, _finer_width(image, width, found.side, found.candidates)
        if finer is None:
            return found
    finer_look = _Look.at(image, background, finer)
    # the first guesses again, those far larger than the faces seen on the first copy
    # last, and lazily: they learn sides the first look ranked below, and cost the most
    # to search (0.65 s for one on a cloth's weave), so they are searched only where the
    # network is sure of no face at the others
    expected = side * finer_look.scale / look.scale
    guesses = finer_look.first_guesses()
    small = [guess for guess in guesses if guess < SMALL_GUESS * expected]
    large = [guess for guess in guesses if guess >= SMALL_GUESS * expected]
    return finer_look.checked(chain(finer_look.ranked(small), map(finer_look.learned, large)))


def _finer_width(image: np.ndarray, width: int, side: float, candidates: list[_Candidate]) -> int | None:
    """The width of the finer copy to look again in, if the faces are small ones."""
    finer = min(image.shape[1], int(width * SMALL_SIDE / max(side, 1.0)))
    if finer > width * 1.2 and any(_refusal(c, side) is None for c in candidates):
        return finer
    return None


@dataclass
class _Look:
    """A working copy of the photo, what changed from the empty table, the bright outlines
    on it, and the candidates searched for at each side tried."""
    view: _View
    scale: float
    changed: np.ndarray | None
    outlines: list[np.ndarray]
    searched: dict[float, list[_Candidate]] = field(default_factory=dict)

    @classmethod
    def at(cls, image: np.ndarray, background: np.ndarray | None, width: int) -> "_Look":
        scale = min(1.0, width / image.shape[1])
        small = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        changed = _changed(image, background, scale)
        outlines = [o for o in bright_outlines(small) if changed is None or _mostly_changed(o, changed)]
        if len(outlines) > MOST_OUTLINES:
            outlines = []         # the table's own pattern (gingham, tiles): the glyphs still find the faces
        return cls(_View.of(small), scale, changed, outlines)

    def search(self, side: float) -> list[_Candidate]:
        """The candidates at a side: a side within NEAR of one already tried would find
        the same faces, so its candidates are reused."""
        done = next((tried for tried in self.searched if abs(side / tried - 1) < NEAR), None)
        if done is None:
            done = side
            self.searched[side] = _candidates(self.view, side, self.changed, self.outlines)
        return self.searched[done]

    def learned(self, guess: float) -> tuple[float, list[_Candidate]]:
        return _learn_side(self.search, guess)

    def first_guesses(self) -> list[float]:
        """First guesses at the side: usual sizes, and the bright faces' if there are any."""
        guesses = [self.view.small.shape[1] * share for share in FIRST_SIDES]
        if self.outlines:
            bright = float(np.median([np.sqrt(cv2.contourArea(o)) for o in self.outlines]))
            guesses = [g for g in guesses if not 0.75 < bright / g < 1.33] + [bright]
        return guesses

    def ranked(self, guesses: list[float]) -> list[tuple[float, list[_Candidate]]]:
        """The side learned from each guess, with its candidates, the likeliest first."""
        return sorted(map(self.learned, guesses), key=_guess_score, reverse=True)

    def checked(self, learned) -> Found:
        """The candidates of the likeliest side learned (of `learned`, likeliest first),
        completed and judged by the face network; checked against the faces it is sure of."""
        learned = iter(learned)
        found = self.completed(*next(learned))
        checked = found.sure_side()
        # where the network is sure of hardly any face at the side the signs liked best (a
        # table's squares as large as faces), the next side it is sure of faces at
        if checked is None:
            for side, candidates in learned:
                other = self.completed(side, candidates)
                checked = other.sure_side()
                if checked is not None:
                    found = other
                    break
        # the hand-made signs' likely faces include pairs of touching cubes and faces with
        # their side face, which make the side learned from them too large; the faces the
        # network is sure of do not.  Where those are clearly smaller, the candidates are
        # looked for again with their side; and where they are far larger (a gingham's
        # squares, smaller than the faces, were taken for them), so too.  (Larger measured by
        # their areas: a slanted face's long side, and a face traced with a strip of table,
        # make the long sides high, by 40 % and more of a true side on a steep view)
        if checked is not None and (checked < (1 - NEAR) * found.side
                                    or found.sure_side(long=False) > FAR_LARGER * found.side):
            return self.completed(checked, self.search(checked))
        return found

    def completed(self, side: float, candidates: list[_Candidate]) -> Found:
        return _completed(self.view, self.scale, side, candidates, self.changed)


def _completed(view: _View, scale: float, side: float, candidates: list[_Candidate],
               changed: np.ndarray | None) -> Found:
    """The traced candidates, and those round blurred and faint letters (looked for once the
    side is known: they are little help in learning it, and cost a trace each), a guessed face round
    every glyph, as large as a top face is at its place (its size is no evidence of the
    camera's place, which comes from the traced faces alone), a larger one where the
    network doubts both (see `_guessed_larger`), and the face network's judgement of each."""
    traced = [c for c in candidates if not c.guessed]
    sight = _perspective(traced, side, view.small.shape)
    clean, depth = view.closed(side), view.darkness(side)
    pieces = [c.seed for c in traced if c.seed is not None]
    traced += [c for c in _traced(view, side, clean, blurred_letter_seeds(depth, side, changed, pieces))
               if not c.guessed]
    known = [c.seed for c in traced if c.seed is not None]
    traced += [c for c in _traced(view, side, clean, faint_letter_seeds(depth, side, changed, known))
               if not c.guessed]
    found = Found(view, scale, side, traced, sight)
    _judge(found)
    # the camera's place again, from the outlines the network is sure of: the signs'
    # likely faces include outlines cut short by a glyph or run into a side face, and a
    # few of those in one part of the photo tilt the fit far wrong at its other edges
    # (faces predicted a third smaller than they are, whose guessed faces then cut their
    # glyphs, and whose traced faces lose to outlines of that wrong size).  Where it is
    # sure of too few faces for that (dim light, blur: every outline poor), the signs'
    # fit is trusted no further than a camera seen straight down (faces alike in size,
    # side faces told only at the far edges)
    surer = _surer_perspective(traced, view.small.shape)
    if surer is not None:
        found.sight = surer
    elif sight is not None:
        found.sight = sight.straight_down()
    guessable = [c for c in traced if c.seed is not None]
    guessed = _guessed(view, clean, guessable, [found.side_at(c.middle) for c in guessable])
    _judge(found, guessed)
    found.candidates = traced + guessed + _guessed_larger(found, clean, guessable, guessed)
    print_contrast = _print_contrast(found.candidates)
    # red ink looks as dark as black, but is much lighter in grey (its red channel is
    # bright), the more where the print has worn: letters faint in grey and dark once the
    # green is seen too are looked for apart from every seed so far.  The dice of a throw
    # share their print: where it has worn pale, their letters are fainter than any
    # seed's, and are looked for as faint as the faces found show, red and black
    least = _faintest_letter(print_contrast)
    plastic = _on_plastic(clean, found.candidates)
    known = [c.seed for c in traced if c.seed is not None]
    traced += _looked_again(found, clean, faint_letter_seeds(view.red_darkness(side), side, changed, known, least,
                                                             plastic))
    if least < FAINT_LETTER_DEPTH:
        known = [c.seed for c in traced if c.seed is not None]
        _looked_again(found, clean, faint_letter_seeds(depth, side, changed, known, least, plastic))
    return found


def _guessed_larger(found: Found, clean: np.ndarray, traced: list[_Candidate],
                    guessed: list[_Candidate]) -> list[_Candidate]:
    """A second face guessed round each glyph whose traced and guessed faces the face
    network is unsure of, yet takes for a face a little: LARGER_GUESS times the side
    expected there, judged.  The side learned runs small where the outlines are poor (a
    white cube on a white table, a slant that foreshortens the faces measured), and the
    network, seeing the face's own plastic round an outline too small, doubts it."""
    unsure = [c for c, g in zip(traced, guessed) if GUESS_WORTH <= max(c.topness or 0.0, g.topness or 0.0) < SURE_SIDE]
    larger = _guessed(found.view, clean, unsure, [LARGER_GUESS * found.side_at(c.middle) for c in unsure])
    _judge(found, larger)
    return larger


def _on_plastic(clean: np.ndarray, candidates: list[_Candidate]) -> np.ndarray | None:
    """Where the photo, its letters wiped off, is about as bright as the faces the face
    network is sure of, or between them (0/255): the dice of a throw share their
    plastic, though the light across the table may vary twice over.  None where too few
    faces are sure to tell."""
    sure = _sure_faces(candidates)
    if sure is None:
        return None
    levels = [c.level for c in sure]
    return cv2.inRange(clean, min(levels) / PLASTIC_SPREAD, max(levels) * PLASTIC_SPREAD)


def _faintest_letter(print_contrast: float | None) -> float:
    """How much darker than round it the faintest letter looked for once the faces are
    judged is: as faint as the faint letters, or where the throw's print has worn pale
    (see `_print_contrast`: whole print shows 0.5 and more), a share of its contrast.
    (A worn black print can show more contrast than its worn red one, pale in grey:
    both are looked for as faint.)"""
    if print_contrast is None:
        return FAINT_LETTER_DEPTH
    return min(FAINT_LETTER_DEPTH, max(PALEST_PRINT, WORN_SHARE * print_contrast))


def _looked_again(found: Found, clean: np.ndarray, seeds: list[tuple[int, int, int, int]]) -> list[_Candidate]:
    """The faces round letters looked for once the others are judged: traced and guessed
    round each seed, judged, and added to `found`.  The traced ones are returned (their
    seeds are known from then on)."""
    view, side = found.view, found.side
    traced = [c for c in _traced(view, side, clean, seeds) if not c.guessed]
    more = traced + _guessed(view, clean, traced, [found.side_at(c.middle) for c in traced])
    _judge(found, more)
    found.candidates += more
    return traced


def _perspective(candidates: list[_Candidate], side: float, shape: tuple[int, ...]) -> "Perspective | None":
    """Where the camera stands, from the probable faces of about the learned size."""
    threshold = _likely(candidates)
    return Perspective.fit([c for c in candidates if c.likeness > threshold and _size_fit(c.area, side) > 0.7],
                            shape)


def _surer_perspective(candidates: list[_Candidate], shape: tuple[int, ...]) -> "Perspective | None":
    """Where the camera stands, from the outlines the face network is sure of, each face
    once (two outlines of one face would count its size twice), whatever their size (the
    side learned can itself be a sixth too small, where the likely faces' glyphs cut
    their outlines short)."""
    sure: list[_Candidate] = []
    for c in sorted((c for c in candidates if c.topness is not None and c.topness > SURE_SIDE),
                    key=lambda c: -c.topness):
        if all(_overlap(c, k) <= OVERLAP for k in sure if _near(c, k)):
            sure.append(c)
    return Perspective.fit(sure, shape)


def _leaning(sight: "Perspective | None") -> "Perspective | None":
    """The camera's place where the faces' sizes show it leaning: seen straight down, the
    place of its foot is only a guess (good enough to tell the far edges' side faces), and
    the faces' sizes and the face network go without it, as the network was taught."""
    return sight if sight is not None and sight.tilted else None


def _select(image: np.ndarray, found: Found) -> Search:
    """The top faces among the candidates: each face once, never a side face."""
    scale, side, candidates = found.scale, found.side, found.candidates
    search = Search(side=side / scale, notes=list(found.notes))
    sight = found.sight               # (straight down, a guess: see Perspective.side_of)
    kept: list[_Candidate] = []
    refused: list[tuple[_Candidate, str]] = []
    rival: dict[int, float] = {}
    print_contrast = _print_contrast(candidates)
    # the most face-like first, and of those the nearest the learned size (an outline
    # that jumped the gap to a touching cube's far edge is too large)
    # (a guessed face's size proves nothing: a traced outline near the learned size goes
    # before the guess round the same glyph, whose place is only the glyph's)
    for c in sorted(candidates, key=lambda c: -c.score * (GUESS_FIT if c.guessed else
                                                          _size_fit(c.area, found.side_at(c.middle)))):
        if len(kept) >= MOST_FACES:
            search.rejected.append(Rejected(c.ordered / scale, CROWDED))
            continue
        reason = _refusal(c, side, print_contrast)
        if reason:
            refused.append((c, reason))
            continue
        nearby = [k for k in kept if _near(c, k)]
        if any(_overlap(c, k) > OVERLAP and not _joined(c, k) for k in nearby):
            search.rejected.append(Rejected(c.ordered / scale, "overlaps a squarer face (a second seed on it)"))
            continue
        # (two overlapping faces are never two cubes, whatever the network says of them)
        joined = next((k for k in nearby if _joined(c, k)
                       and (not _both_top_faces(c, k) or _overlap(c, k) > OVERLAP)), None)
        if joined is not None:
            top, side_face, disputed = _top_of(c, joined, side, sight)
            if top is c:
                kept = [c if k is joined else k for k in kept]
            # where the signs disagreed, the reading must not come out sure either way
            rival[id(top)] = max(rival.get(id(top), 0.0), top.score if disputed else side_face.score)
            search.rejected.append(Rejected(side_face.ordered / scale,
                                            "a side face of the face it joins (less face-like, nearer the camera's foot or darker)"))
            continue
        kept.append(c)
    # two faces closer than two cubes' top faces can be (in one plane, the table's, a
    # side apart or more): one is a side face the signs did not tell, and either may be
    pairs = [(c, k) for i, c in enumerate(kept) for k in kept[i + 1:] if _near(c, k)]
    crowded: list[tuple[_Candidate, _Candidate]] = []
    for c, k in pairs:
        middles = c.middle, k.middle
        # (the side there as the camera's place says, or as the larger face's own
        # traced outline says where that is larger: the place is only a fit)
        traced = [np.sqrt(f.area) for f in (c, k) if not f.guessed]
        face_side = max([found.side_at((middles[0] + middles[1]) / 2)] + traced)
        if np.linalg.norm(middles[0] - middles[1]) < TOO_CLOSE * face_side:
            rival[id(c)] = max(rival.get(id(c), 0.0), k.score)
            rival[id(k)] = max(rival.get(id(k), 0.0), c.score)
            crowded.append((c, k))
    # a kept face lying from another towards the camera's foot, as far as that one's side
    # face would, may be its side face however alike the two look (lit alike, the network
    # sure of both, as at the photo's far edges): where the count says a face is one too
    # many, it is the likelier to go (see the reader)
    aside: set[int] = set()
    if sight is not None:
        for c, k in pairs:
            side_face = sight.side_of(c, k)
            if side_face is not None:
                aside.add(id(side_face))
    # and of two faces too close to be two top faces where the camera's place tells
    # neither for the other's side face (its place only a fit), the less face-like (two
    # touching cubes' side faces side by side at the far edge, both taken for faces)
    for c, k in crowded:
        if id(c) not in aside and id(k) not in aside:
            aside.add(id(min(c, k, key=lambda f: f.score)))
    for c in kept:
        search.faces.append(_face(image, c, scale, rival.get(id(c), 0.0), id(c) in aside))
    held = _reserves(found, kept, refused)
    for c, reason in refused:
        if id(c) in held:
            search.reserve.append(_face(image, c, scale, reserve=reason))
        else:
            search.rejected.append(Rejected(c.ordered / scale, reason))
    return search


def _face(image: np.ndarray, c: _Candidate, scale: float, rival: float = 0.0, aside: bool = False,
          reserve: str = "") -> Face:
    corners = c.ordered / scale
    return Face(corners, tuple(corners.mean(axis=0).tolist()), warp(image, corners), c.score, rival, aside, reserve)


def _reserves(found: Found, kept: list[_Candidate], refused: list[tuple[_Candidate, str]]) -> set[int]:
    """The refused candidates held in reserve (their ids): a top face can fail a test
    by a little (a red letter pale in grey, a face a little foreshortened, or shaded
    unevenly), and where the throw's count then lacks a cube, a shadow or a side face
    takes its place.  Held are those that pass the tests loosened (RESERVE_SQUARE, the
    palest print's contrast) and that the face network takes for a top face fairly
    surely (RESERVE_TOP), a top face's side from every kept face and from each other:
    never a kept cube's side face.  The reader takes one only where it fits the count
    better than a kept face (see the reader's `_keep_fitting`)."""
    side = found.side
    loose = [c for c, _ in refused if c.squareness >= RESERVE_SQUARE and c.contrast >= PALEST_PRINT
             and SIZES[0] * side * side < c.area < SIZES[1] * side * side]
    unjudged = [c for c in loose if c.topness is None]
    if unjudged:
        _judge(found, asked=unjudged)
    held: list[_Candidate] = []
    for c in sorted(loose, key=lambda c: -(c.topness or 0.0)):
        apart = RESERVE_APART * found.side_at(c.middle)
        if (c.topness or 0.0) >= RESERVE_TOP and all(math.dist(c.middle, k.middle) >= apart for k in kept + held):
            held.append(c)
    return {id(c) for c in held}


def _judge(found: Found, more: list[_Candidate] | None = None, asked: list[_Candidate] | None = None) -> None:
    """The face network's topness for every candidate not refused outright (of `more`,
    where given, instead of the found), or for every one `asked`; without the network,
    the likeness alone decides (and the notes say so)."""
    asked = found.judged(more) if asked is None else asked
    try:
        said = face_net.topness(found.view.small, [c.corners for c in asked],
                                [found.foot_of(c) for c in asked])
        for c, topness in zip(asked, said):
            c.topness = float(topness)
    except ModelMissing as exc:
        found.notes.append(f"Top faces told from side faces by their look alone: {exc}.")


def _size_fit(area: float, side: float) -> float:
    """1 for a face of the learned size, less for larger or smaller."""
    return float(np.sqrt(min(area, side * side) / max(area, side * side)))


def _top_of(c: _Candidate, k: _Candidate, side: float,
            perspective: Perspective | None) -> tuple[_Candidate, _Candidate, bool]:
    """Of two joined faces, (the top face, the other, whether the signs disagreed).  Each
    sign that is clear votes, the surest first: a face clearly more face-like than the
    other is the top one (the other is often a neighbour's side face, whose place would
    mislead); a side face lies towards the camera's foot; of two traced faces, one clearly
    foreshortened that the network also likes less is the side face; the light comes
    from above, so the top face is the brighter.  The first clear sign decides; with no
    sign, the one nearer the learned size (an outline across the gap between two
    touching cubes is smaller than either top face).  Signs that disagree leave the top
    face in doubt, unless the other is next to no face at all to the network (a stray
    outline on the table beyond the top face, which its place makes a top face)."""
    votes = []
    if min(c.score, k.score) < ALIKE * max(c.score, k.score):
        votes.append(c if c.score > k.score else k)
    side_face = perspective.side_of(c, k) if perspective else None
    if side_face is not None:
        votes.append(k if side_face is c else c)
    larger, smaller = (c, k) if c.area > k.area else (k, c)
    if not (c.guessed or k.guessed) and smaller.area < FORESHORTENED * larger.area and larger.score > smaller.score:
        votes.append(larger)
    if max(c.level, k.level) > BRIGHTER * min(c.level, k.level):
        votes.append(c if c.level > k.level else k)
    top = votes[0] if votes else (c if _size_fit(c.area, side) > _size_fit(k.area, side) else k)
    no_face = min(c.score, k.score) < NO_FACE * max(c.score, k.score)
    return top, (k if top is c else c), not no_face and any(v is not top for v in votes)


def _joined(c: _Candidate, k: _Candidate) -> bool:
    """Whether `c` lies against `k` closer than a whole face: a face sharing an edge with
    it, i.e. one of the same cube's side faces (two cubes' top faces are at least a face
    apart, whatever the perspective, measured along the face's own axes)."""
    c0, c1, c2, c3 = k.ordered
    across = ((c1 - c0) + (c2 - c3)) / 2
    down = ((c3 - c0) + (c2 - c1)) / 2
    offset = c.middle - k.middle
    u, v = np.linalg.solve(np.column_stack([across, down]).astype(np.float64), offset.astype(np.float64))
    apart = max(abs(u), abs(v))
    if min(abs(u), abs(v)) > 0.45 or apart < 0.45:
        return False                  # diagonal: two cubes; or on it: a second seed on the same face
    # a side face is lit differently from the top face, or foreshortened; two top faces
    # side by side (touching cubes, a tray of them) are lit alike and the same size (which
    # a guessed face's is by making: beside a traced face, only the light tells)
    unlike = (max(c.level, k.level) > BRIGHTER * min(c.level, k.level)
              or not (c.guessed or k.guessed) and min(c.area, k.area) < FORESHORTENED * max(c.area, k.area))
    return unlike and apart < JOINED_STEEP


def _both_top_faces(c: _Candidate, k: _Candidate) -> bool:
    """Two touching cubes side by side, not a top face and its side face: the face
    network, seeing what lies round each, takes both for top faces."""
    return c.topness is not None and k.topness is not None and min(c.topness, k.topness) > BOTH_TOPS


def _refusal(c: _Candidate, side: float, print_contrast: float | None = None) -> str | None:
    """Why a candidate is not a top face, or None."""
    if c.squareness < SQUARE_ENOUGH:
        return f"not square ({c.squareness:.2f}): a side face or a shadow"
    if not SIZES[0] * side * side < c.area < SIZES[1] * side * side:
        return f"not the size of the other faces ({np.sqrt(c.area) / side:.2f} of their side)"
    # a bold glyph the closing cannot wipe off, or a shadow's edge across a face, makes a
    # face uneven too: where the face network is sure of it, that sign is overruled
    if c.evenness > 0.15 and (c.topness is None or c.topness < (SURE_TOP if c.evenness > UNEVEN else FAIR_TOP)):
        return f"uneven inside ({c.evenness:.2f}): table texture or a shadow edge"
    # a dim or glared glyph is paler: the surer the face network is of the face, the paler it may be
    if c.contrast < _contrast_needed(c.topness, print_contrast):
        return f"no dark glyph inside (contrast {c.contrast:.2f})"
    return None


def _contrast_needed(topness: float | None, print_contrast: float | None = None) -> float:
    """The glyph's contrast a face needs: GLYPH_CONTRAST, down to FAINT_CONTRAST as the
    face network grows sure of the face (SURE_TOP).  The dice of a throw share their
    print: where it has worn pale (`print_contrast`, see `_print_contrast`, is low), a
    face the network is sure of needs only a share of it."""
    if topness is None:
        return GLYPH_CONTRAST
    needed = GLYPH_CONTRAST - (GLYPH_CONTRAST - FAINT_CONTRAST) * min(1.0, topness / SURE_TOP)
    if print_contrast is not None and topness >= SURE_TOP:
        needed = min(needed, max(PALEST_PRINT, WORN_SHARE * print_contrast))
    return needed


def _sure_faces(candidates: list[_Candidate]) -> list[_Candidate] | None:
    """The faces the face network is sure of, where there are enough of them to tell
    what the throw's dice share (their print, their plastic)."""
    sure = [c for c in candidates if c.topness is not None and c.topness >= SURE_SIDE]
    return sure if len(sure) >= MIN_SURE_FACES else None


def _print_contrast(candidates: list[_Candidate]) -> float | None:
    """How dark the throw's print is: the typical glyph contrast of the faces the face
    network is sure of."""
    sure = _sure_faces(candidates)
    return None if sure is None else float(np.median([c.contrast for c in sure]))


def warp(image: np.ndarray, corners: np.ndarray, size: int = FACE_PIXELS) -> np.ndarray:
    target = np.float32([[0, 0], [size - 1, 0], [size - 1, size - 1], [0, size - 1]])
    return cv2.warpPerspective(image, cv2.getPerspectiveTransform(corners, target), (size, size),
                               flags=cv2.INTER_LINEAR)
