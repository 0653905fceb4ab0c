"""Synthetic throws with their ground truth: rendered cube faces at random rotations on
varied tables, with light, shadows, keystone, noise, blur and JPEG.  The tests and the
benchmark draw from it with a seed, so nothing large lives in the repository."""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np
from PIL import Image

from firmware.games import perquackey as pq
from vision.render import BARRED, SHIPPED_FONTS, glyph_tile
from vision.truth import CubeTruth

# Fonts the reader never learns from: the benchmark's held-out set (where installed).
HELD_OUT_FONTS = [Path("/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf"),
                  Path("/usr/share/fonts/truetype/liberation/LiberationSansNarrow-Bold.ttf"),
                  Path("/usr/share/fonts/truetype/freefont/FreeSansBold.ttf"),
                  Path("/usr/share/fonts/truetype/liberation/LiberationMono-Bold.ttf")]
TABLES = ("wood", "felt", "plain", "cloth", "stone", "dark")
TEST_TABLES = ("wood", "felt", "plain")           # what the tests use
HELD_OUT_TABLES = ("cloth", "stone", "dark")      # what only the benchmark uses


@dataclass
class Throw:
    image: np.ndarray                  # BGR
    cubes: list[CubeTruth] = field(default_factory=list)
    size: float = 0.0                  # mean side of the top faces in pixels, where known
    worn: bool = False                 # the dice's print is worn pale (3-D renders only)


def held_out_fonts() -> list[Path]:
    return [f for f in HELD_OUT_FONTS if f.exists()]


def _table(rng: np.random.Generator, w: int, h: int, style: str) -> np.ndarray:
    base = {
        "wood": rng.uniform([30, 60, 110], [70, 110, 170]),
        "felt": rng.uniform([40, 90, 20], [90, 150, 60]),
        "plain": rng.uniform([120, 125, 130], [185, 190, 190]),
        "cloth": rng.uniform([90, 30, 30], [190, 90, 80]),
        "stone": rng.uniform([110, 110, 110], [170, 170, 165]),
        "dark": rng.uniform([20, 20, 20], [60, 55, 50]),
    }[style]
    low = cv2.resize(rng.normal(0, 1, (8, 10)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
    img = np.ones((h, w, 3), np.float32) * base + low[..., None] * 12
    if style == "wood":
        angle = rng.uniform(0, np.pi)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        t = xx * np.cos(angle) + yy * np.sin(angle)
        grain = np.sin(t / rng.uniform(6, 18) + 3 * low) * 14
        img += grain[..., None] * np.array([0.6, 0.8, 1.0])
    if style in ("cloth", "stone", "felt"):
        fine = rng.normal(0, {"cloth": 10, "stone": 16, "felt": 7}[style], (h, w)).astype(np.float32)
        img += cv2.GaussianBlur(fine, (0, 0), 1.2)[..., None]
    return img


def _overlap(a, b, side) -> bool:
    """Whether two cubes (centre x, y and angle) of this side would overlap."""
    if np.hypot(a[0] - b[0], a[1] - b[1]) > side * 1.5:
        return False
    kind, _ = cv2.rotatedRectangleIntersection(((a[0], a[1]), (side, side), a[2]),
                                               ((b[0], b[1]), (side, side), b[2]))
    return kind != cv2.INTERSECT_NONE


def _rect(cx, cy, side, angle):
    return cv2.boxPoints(((cx, cy), (side, side), angle))


def make_throw(seed: int, vulnerable: bool | None = None, red_set: str = "classic", fonts=None,
               tables=TEST_TABLES, size=(1640, 1232), hard: bool = True) -> Throw:
    """One photo of a throw.  `hard` turns on keystone, blur, noise, tinted light and JPEG."""
    rng = np.random.default_rng(seed)
    prng = random.Random(seed)
    vulnerable = bool(rng.integers(0, 2)) if vulnerable is None else vulnerable
    fonts = list(fonts or SHIPPED_FONTS)
    font = fonts[int(rng.integers(0, len(fonts)))]
    w, h = size
    img = _table(rng, w, h, tables[int(rng.integers(0, len(tables)))])
    cube_faces = pq.cubes(vulnerable, red_set)
    n_red = len(cube_faces) - len(pq.BLACK_CUBES)
    side = float(rng.uniform(95, 125))
    placed: list[tuple[float, float, float]] = []
    truths = []
    face_colour = rng.uniform([205, 215, 220], [235, 245, 250])
    light_dir = rng.uniform(-1, 1, 2)
    for i, faces in enumerate(cube_faces):
        red = i >= len(cube_faces) - n_red
        for _ in range(2000):
            angle = float(rng.uniform(0, 360))
            cx, cy = rng.uniform(side, w - side), rng.uniform(side, h - side)
            if placed and rng.random() < 0.2:   # against an earlier cube, as cubes often land
                px, py, _ = placed[int(rng.integers(0, len(placed)))]
                a = rng.uniform(0, 2 * np.pi)
                reach = side * rng.uniform(1.05, 1.3)
                cx, cy = px + np.cos(a) * reach, py + np.sin(a) * reach
            if side < cx < w - side and side < cy < h - side and not any(
                    _overlap((cx, cy, angle), other, side * 1.05) for other in placed):
                break
        placed.append((cx, cy, angle))
        letter = prng.choice(faces)
        corners = _rect(cx, cy, side, angle)
        # shadow, then the cube's darker edge, then the face
        # the shadow, worked out on a window round the cube only (a whole-image blur per
        # cube would make generating a throw several times slower)
        pad = int(side)
        x0, y0 = max(0, int(cx) - pad), max(0, int(cy) - pad)
        x1, y1 = min(w, int(cx) + pad), min(h, int(cy) + pad)
        shadow = np.zeros((y1 - y0, x1 - x0), np.float32)
        cv2.fillConvexPoly(shadow, (corners + light_dir * side * 0.12 - (x0, y0)).astype(np.int32), 1.0)
        shadow = cv2.GaussianBlur(shadow, (0, 0), side * 0.08)
        img[y0:y1, x0:x1] *= (1 - 0.45 * shadow)[..., None]
        cv2.fillConvexPoly(img, _rect(cx, cy, side * 1.04, angle).astype(np.int32),
                           (face_colour * 0.72).tolist(), lineType=cv2.LINE_AA)
        cv2.fillConvexPoly(img, _rect(cx, cy, side * 0.94, angle).astype(np.int32),
                           (face_colour * rng.uniform(0.96, 1.02)).tolist(), lineType=cv2.LINE_AA)
        tile = glyph_tile(letter, font, int(side), bar=letter in BARRED)
        turn = angle + 90 * int(rng.integers(0, 4)) + float(rng.normal(0, 3))
        rotated = np.array(tile.rotate(-turn, resample=Image.BICUBIC, expand=True), np.float32) / 255
        th, tw = rotated.shape
        x0, y0 = int(round(cx - tw / 2)), int(round(cy - th / 2))
        ink = np.array([30, 30, 170] if red else [30, 30, 30], np.float32) + rng.normal(0, 8, 3)
        region = img[y0:y0 + th, x0:x0 + tw]
        alpha = rotated[:region.shape[0], :region.shape[1], None]
        region[:] = region * (1 - alpha) + ink * alpha
        truths.append(CubeTruth(letter, red, cx, cy))
    if hard:
        tint = rng.uniform(-1, 1)   # warm (+) or cool (-) light
        img *= np.array([1 - 0.15 * tint, 1.0, 1 + 0.12 * tint], np.float32)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        g = rng.uniform(-0.25, 0.25, 2)
        img *= (1 + g[0] * (xx / w - 0.5) + g[1] * (yy / h - 0.5))[..., None]
        img *= rng.uniform(0.75, 1.1)
    img = np.clip(img, 0, 255).astype(np.uint8)
    if hard:
        d = w * rng.uniform(0, 0.04, (4, 2)) * np.array([[1, 1], [-1, 1], [-1, -1], [1, -1]])
        src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
        matrix = cv2.getPerspectiveTransform(src, np.float32(src + d))
        img = cv2.warpPerspective(img, matrix, (w, h), borderMode=cv2.BORDER_REPLICATE)
        points = cv2.perspectiveTransform(np.float32([[[t.x, t.y]] for t in truths]), matrix)
        for t, p in zip(truths, points):
            t.x, t.y = float(p[0][0]), float(p[0][1])
        sigma = rng.uniform(0, 1.6)
        if sigma > 0.3:
            img = cv2.GaussianBlur(img, (0, 0), sigma)
        img = np.clip(img + rng.normal(0, rng.uniform(0, 6), img.shape), 0, 255).astype(np.uint8)
        ok, jpeg = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(60, 95))])
        img = cv2.imdecode(jpeg, cv2.IMREAD_COLOR)
    return Throw(img, truths)
