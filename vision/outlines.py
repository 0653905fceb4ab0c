"""A top face's outline traced round a point inside it: the face's axes from the
gradients round the point, and along each axis the face's border, the first strong
change of brightness; the same border looked for either side of each axis tilts the
edge to follow the face's own (a face seen at a slant is a trapezoid).  Every seed at
once, as this runs for every glyph at every side tried."""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.warping import sampled

FIRST_EDGE = 0.5          # a change this share of the strongest along a ray is the face's border


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
class Ground:
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


def face_outlines(ground: Ground, centres: np.ndarray, angles: np.ndarray, side: float):
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
    plain = rectangles(centres, angles, found.astype(np.float32))
    # each edge as a line through the borders found either side of its axis; the corners
    # where the lines of neighbouring edges meet
    first = centres[:, None, :] + ends[:, :, 0, None] * along + (-0.25 * side) * normal
    direction = centres[:, None, :] + ends[:, :, 1, None] * along + (0.25 * side) * normal - first
    corners, met = _meet(first, direction, np.roll(first, -1, axis=1), np.roll(direction, -1, axis=1))
    outlines = []
    for i in range(n):
        quad = corners[i].astype(np.float32)
        # the tilted edges that do not make a face give the plain rectangle
        outline = quad if met[i].all() and _like(quad, plain[i]) else plain[i]
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


def rectangles(centres: np.ndarray, angles: np.ndarray, reaches: np.ndarray) -> np.ndarray:
    """The rectangle round each centre (N x 2) along the axes at its angle (N), reaching
    right, down, left and up as far as its `reaches` row says (N x 4, float32): N x 4 x 2."""
    along = np.stack([np.cos(angles), np.sin(angles)], axis=1).astype(np.float32)[:, None, :]
    normal = np.concatenate([-along[..., 1:], along[..., :1]], axis=2)
    right, down, left, up = (reaches[:, k, None, None] for k in range(4))
    centre = centres[:, None, :]
    return np.concatenate([centre + right * along + down * normal, centre - left * along + down * normal,
                           centre - left * along - up * normal, centre + right * along - up * normal], axis=1)
