"""Faces brighter than the table: the usual case on a dark or coloured table.  The image
is flattened (each pixel's darkest channel over the table's own level round it, which
removes uneven light) and faces are taken as the whitest regions; touching faces are
parted by a higher threshold inside a region the size of several faces."""
from __future__ import annotations

import cv2
import numpy as np

LARGE = 100_000          # values: more than this, and a top percentile (TOP_SHARE and up) is taken
TOP_SHARE = 90           # ... among the values above a bound from every SAMPLE_STEP-th value, at
SAMPLE_STEP = 61         # ... BOUND_MARGIN percentage points below the share (so nearly always
BOUND_MARGIN = 1.0       # ... enough values are above it: else all are sorted)


def order_corners(corners: np.ndarray) -> np.ndarray:
    """Corners clockwise from the top-left, so every warp has the same handedness."""
    return order_all_corners(np.asarray(corners)[None])[0]


def order_all_corners(quads: np.ndarray) -> np.ndarray:
    """`order_corners` for many outlines of as many corners each (N x k x 2), at once."""
    c = quads.astype(np.float32)
    centre = c.mean(axis=1, keepdims=True)
    angles = np.arctan2(c[..., 1] - centre[..., 1], c[..., 0] - centre[..., 0])
    c = np.take_along_axis(c, np.argsort(angles, axis=1)[..., None], axis=1)
    start = np.argmin(c.sum(axis=2), axis=1)
    return c[np.arange(len(c))[:, None], (start[:, None] + np.arange(c.shape[1])) % c.shape[1]]


def percentile(values: np.ndarray, share: float, axis: int | None = None) -> np.ndarray:
    """np.percentile(values, share, axis) (its linear interpolation, to the same value) by
    a partial sort of the two values it lies between, which is several times faster; of
    a whole photo's values, a top percentile sorts only those above a bound that a
    sample of them gives."""
    values = values.reshape(-1) if axis is None else values
    axis = -1 if axis is None else axis
    position = share / 100 * (values.shape[axis] - 1)
    below = int(position)
    above = min(below + 1, values.shape[axis] - 1)
    skipped = 0
    if values.ndim == 1 and values.size > LARGE and share >= TOP_SHARE:
        sample = values[::SAMPLE_STEP]
        at = int(len(sample) * (share - BOUND_MARGIN) / 100)
        bound = np.partition(sample, at)[at]
        top = values[values >= bound]        # every value ranked at or above the bound's place, ties included
        if values.size - len(top) <= below:
            skipped, values = values.size - len(top), top
    both = np.partition(values, (below - skipped, above - skipped), axis=axis)
    low, high = np.take(both, below - skipped, axis=axis), np.take(both, above - skipped, axis=axis)
    t = position - below               # numpy's own interpolation, from whichever end is nearer
    return low + (high - low) * t if t < 0.5 else high - (high - low) * (1 - t)


def table_level(low: np.ndarray, block: int) -> np.ndarray:
    """The table's own brightness everywhere: a low percentile of each block (faces are
    brighter and shadows darker than most of a block), smoothed over the blocks."""
    h, w = low.shape
    block = max(1, min(block, h, w))     # (a strip of a photo narrower than a block is one block across)
    bh, bw = h // block, w // block
    cut = low[:bh * block, :bw * block].reshape(bh, block, bw, block).transpose(0, 2, 1, 3).reshape(bh, bw, -1)
    level = percentile(cut, 35, axis=2).astype(np.float32)
    if min(bh, bw) >= 3:
        level = cv2.medianBlur(level, 3)
    return cv2.resize(cv2.GaussianBlur(level, (0, 0), 0.8), (w, h), interpolation=cv2.INTER_LINEAR)


def whiteness(image: np.ndarray, face_side: float) -> np.ndarray:
    """How many times brighter than the table each pixel is in its darkest channel, so
    faces stand out on any table colour (a red cloth or green felt counts as dark), and
    by the same ratio in the light and in the shade."""
    b, g, r = cv2.split(image)
    low = cv2.min(cv2.min(b, g), r)
    level = table_level(low, max(8, int(face_side * 1.5)))     # (partly sorted as bytes: faster)
    return np.maximum(low.astype(np.float32) / (level + 8) - 1, 0)


def _quad(contour: np.ndarray) -> np.ndarray:
    """The face's four corners: a fitted quadrilateral if the outline has one, else the
    minimum-area rectangle (slight keystone makes faces not quite square)."""
    hull = cv2.convexHull(contour)
    peri = cv2.arcLength(hull, True)
    for eps in (0.02, 0.04, 0.06):
        approx = cv2.approxPolyDP(hull, eps * peri, True)
        if len(approx) == 4:
            return approx.reshape(4, 2).astype(np.float32)
    return cv2.boxPoints(cv2.minAreaRect(contour)).astype(np.float32)



def _hulls(mask: np.ndarray) -> list[np.ndarray]:
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    return [cv2.convexHull(c) for c in contours if cv2.contourArea(c) > 40]


def _separate(score: np.ndarray, hull: np.ndarray, face_area: float) -> list[np.ndarray]:
    """A region the size of several faces is touching cubes: their faces are brighter
    than the rounded edges between them, so a higher threshold inside it parts them."""
    # worked on round the region only (with a margin, so the opening sees the same
    # background at its edge as in the whole photo)
    points = hull.reshape(-1, 2).astype(np.int32)
    x0, y0 = np.maximum(points.min(axis=0) - 2, 0)
    x1, y1 = np.minimum(points.max(axis=0) + 3, (score.shape[1], score.shape[0]))
    score = score[y0:y1, x0:x1]
    blob = np.zeros(score.shape, np.uint8)
    cv2.fillConvexPoly(blob, points - (x0, y0), 255)
    brightest = percentile(score[blob > 0], 90)
    for share in (0.75, 0.85, 0.92):
        mask = ((score > share * brightest) & (blob > 0)).astype(np.uint8) * 255
        mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3)))
        parts = [h + (x0, y0) for h in _hulls(mask) if 0.35 * face_area < cv2.contourArea(h) < 1.6 * face_area]
        if len(parts) >= 2:
            return parts
    return [hull]


def _grow(hull: np.ndarray, factor: float) -> np.ndarray:
    centre = hull.reshape(-1, 2).mean(axis=0)
    return ((hull.reshape(-1, 2) - centre) * factor + centre).astype(np.float32)


def bright_outlines(small: np.ndarray) -> list[np.ndarray]:
    """Outlines of faces that are brighter than the table (the usual case on a dark or
    coloured table, and the flat generated throws): the whitest regions, touching ones
    parted by a higher threshold.  Corners in `small`'s pixels."""
    side = small.shape[1] / 12          # a first guess, refined from what is found
    hulls: list[np.ndarray] = []
    hulls_all: list[np.ndarray] = []
    for _ in range(2):
        score = whiteness(small, side)
        top = float(percentile(score, 99.5))
        if top < 0.12:                  # nothing is much brighter than the table
            return []
        mask = (score > 0.45 * top).astype(np.uint8) * 255
        mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3)))
        hulls_all = _hulls(mask)
        hulls = [h for h in hulls_all if _squareness(h) > 0.6]
        if not hulls:
            return []
        side = float(np.sqrt(np.median([cv2.contourArea(h) for h in hulls])))
    face_area = side * side
    faces = []
    for hull in hulls_all:
        area = cv2.contourArea(hull)
        if area >= 1.6 * face_area:
            faces += _separate(score, hull, face_area)
        elif area > 0.4 * face_area and _squareness(hull) > 0.6:
            faces.append(hull)
    return [order_corners(_quad(_grow(hull, 1.04).reshape(-1, 1, 2))) for hull in faces]


def _squareness(contour: np.ndarray) -> float:
    """1 for a filled square; lower for long, thin or ragged shapes."""
    (_, _), (w, h), _ = cv2.minAreaRect(contour)
    if min(w, h) == 0:
        return 0.0
    fill = cv2.contourArea(contour) / (w * h)
    return min(w, h) / max(w, h) * fill
