"""Sampling one photo at many places at once: every candidate's outline straightened into
a small square, in one remap instead of one warp each (the finder straightens hundreds
of candidates a photo, and a warp apiece costs more in calls than in pixels)."""
from __future__ import annotations

import cv2
import numpy as np

REMAP_ROWS = 16384                # rows of sample points per remap (OpenCV's maps stay below 32767)


def sampled(image: np.ndarray, x: np.ndarray, y: np.ndarray, border: int = cv2.BORDER_REPLICATE) -> np.ndarray:
    """`image` at the points (x, y) (float32 arrays of one shape, ... x n), bilinearly:
    an array of that shape (with the image's channels after it)."""
    if x.size == 0:
        return np.zeros(x.shape + image.shape[2:], image.dtype)
    rows_x, rows_y = x.reshape(-1, x.shape[-1]), y.reshape(-1, y.shape[-1])
    parts = [cv2.remap(image, rows_x[at:at + REMAP_ROWS], rows_y[at:at + REMAP_ROWS], cv2.INTER_LINEAR,
                       borderMode=border) for at in range(0, len(rows_x), REMAP_ROWS)]
    return np.concatenate(parts).reshape(x.shape + image.shape[2:])


def straightened(image: np.ndarray, quads: np.ndarray, size: int, low: float = 0.0, high: float | None = None,
                 border: int = cv2.BORDER_REPLICATE) -> np.ndarray:
    """Each quadrilateral (N x 4 x 2, corners in turn round it) mapped by its perspective
    onto the square from (low, low) to (high, high) of a size x size picture, its first
    corner at the top left: N x size x size (x channels)."""
    return sampled(image, *straightening(quads, size, low, high), border)


def straightening(quads: np.ndarray, size: int, low: float = 0.0,
                  high: float | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Where in the photo each pixel of `straightened`'s pictures is sampled: x and y, N x
    size x size (worked out once for several images of one photo)."""
    high = size - 1 if high is None else high
    q = np.asarray(quads, np.float64).reshape(-1, 4, 2)
    grid = (np.arange(size, dtype=np.float64) - low) / (high - low)
    u, v = grid[None, None, :], grid[None, :, None]
    # the projective map of the unit square onto each quadrilateral (Heckbert's closed form),
    # its coefficients per outline in float64, the N x size x size sums in float32 (a
    # ten-thousandth of a pixel off, a quarter of the time: hundreds of windows a photo)
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = (q[:, k, :].T[..., None, None] for k in range(4))
    sx, sy = x0 - x1 + x2 - x3, y0 - y1 + y2 - y3
    dx1, dx2, dy1, dy2 = x1 - x2, x3 - x2, y1 - y2, y3 - y2
    den = dx1 * dy2 - dx2 * dy1
    den = np.where(np.abs(den) < 1e-12, 1e-12, den)         # a degenerate outline: any picture will do
    g, h = (sx * dy2 - dx2 * sy) / den, (dx1 * sy - sx * dy1) / den

    def across(along_u: np.ndarray, along_v: np.ndarray) -> np.ndarray:
        return np.add(along_u.astype(np.float32), along_v.astype(np.float32))    # N x size x size

    w = across(g * u + 1, h * v)
    w[np.abs(w) < 1e-12] = 1e-12                              # a crossed outline's vanishing line: far off
    x = across((x1 - x0 + g * x1) * u + x0, (x3 - x0 + h * x3) * v)
    y = across((y1 - y0 + g * y1) * u + y0, (y3 - y0 + h * y3) * v)
    return np.divide(x, w, out=x), np.divide(y, w, out=y)
