"""Table tops for the 3-D throws, painted in table coordinates (millimetres) so that the
camera's perspective foreshortens their checks, grain and sheet edges as it does the
cubes.  Each painter returns the surface's colour (BGR, 0-255, before any light)."""
from __future__ import annotations

import cv2
import numpy as np

# pale tables, where cream and white cubes are darker than what they stand on, come first
ORDINARY_TABLES = ("white_paper", "offwhite_paper", "laminate", "cream_cloth", "light_wood", "dark_wood",
                   "grey_stone", "green_felt", "gingham")
HARD_TABLES = ("gingham", "white_paper", "cream_cloth", "offwhite_paper", "laminate")

# fine grain added in image space after the perspective (too fine for the table's texture)
GRAIN = {"white_paper": 1.5, "offwhite_paper": 2.0, "laminate": 1.5, "cream_cloth": 5.0, "light_wood": 3.0,
         "dark_wood": 2.5, "grey_stone": 7.0, "green_felt": 6.0, "gingham": 3.0}


class Surface:
    """A patch of table `width` x `height` texels, `mm` millimetres each, whose corner
    (0, 0) lies at table coordinates `origin`."""

    def __init__(self, rng: np.random.Generator, origin, mm: float, width: int, height: int):
        self.rng, self.origin, self.mm, self.width, self.height = rng, np.asarray(origin, float), mm, width, height
        ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
        self.x = xs * mm + np.float32(origin[0])
        self.y = ys * mm + np.float32(origin[1])

    def smooth_noise(self, cells_mm: float) -> np.ndarray:
        """Noise varying over about `cells_mm`, with mean 0 and deviation about 1."""
        cols = max(2, int(self.width * self.mm / cells_mm) + 2)
        rows = max(2, int(self.height * self.mm / cells_mm) + 2)
        low = self.rng.standard_normal((rows, cols)).astype(np.float32)
        return cv2.resize(low, (self.width, self.height), interpolation=cv2.INTER_CUBIC)

    def uniform(self, low, high) -> np.ndarray:
        colour = self.rng.uniform(low, high).astype(np.float32)
        return np.broadcast_to(colour, (self.height, self.width, 3)).copy()

    def to_texels(self, points_mm: np.ndarray) -> np.ndarray:
        return (np.asarray(points_mm, float) - self.origin) / self.mm

    def along(self, angle: float) -> np.ndarray:
        return self.x * np.float32(np.cos(angle)) + self.y * np.float32(np.sin(angle))


def _wood(s: Surface, light: bool) -> np.ndarray:
    low, high = ([110, 155, 195], [150, 195, 230]) if light else ([30, 50, 80], [55, 85, 125])
    img = s.uniform(low, high)
    angle = float(s.rng.uniform(0, np.pi))
    straight = s.along(angle + np.pi / 2)
    across = straight + 6 * s.smooth_noise(60)
    period = float(s.rng.uniform(2.5, 6))
    grain = np.sin(across * (2 * np.pi / period)) + 0.5 * np.sin(across * (2 * np.pi / (period * 2.7)) + 1.3)
    img *= (1 + 0.09 * grain + 0.04 * s.smooth_noise(40))[..., None]
    plank = float(s.rng.uniform(90, 200))          # seams between planks
    seam = np.abs((straight % plank) - plank / 2) > plank / 2 - 0.6
    img[seam] *= 0.55
    return img


def _paper_sheets(s: Surface, tint_low, tint_high) -> np.ndarray:
    """Sheets of A4 laid over a table with gaps and overlaps between them: the gaps show the
    table, an upper sheet's edge casts a thin line on the one below."""
    under = _wood(s, light=bool(s.rng.random() < 0.5)) if s.rng.random() < 0.6 else s.uniform([150] * 3, [190] * 3)
    img = under
    angle = float(s.rng.uniform(0, np.pi))
    c, si = np.cos(angle), np.sin(angle)
    centre = s.origin + np.array([s.width, s.height]) * s.mm / 2
    across, down = np.array([c, si]), np.array([-si, c])
    for i in range(-2, 3):
        for j in range(-2, 3):
            if s.rng.random() < 0.15:
                continue                          # a sheet missing: the table shows through
            gap = s.rng.uniform(-8, 12, 2)        # negative: the sheets overlap
            mid = centre + across * i * (210 + gap[0]) + down * j * (297 + gap[1]) + s.rng.normal(0, 4, 2)
            turn = s.rng.normal(0, 0.03)
            rot = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
            corners = np.array([[-105, -148.5], [105, -148.5], [105, 148.5], [-105, 148.5]]) @ rot.T
            corners = corners @ np.array([across, down]) + mid
            texels = np.round(s.to_texels(corners) * 16).astype(np.int32)
            colour = s.rng.uniform(tint_low, tint_high).tolist()
            cv2.polylines(img, [texels], True, [v * 0.8 for v in colour], max(1, int(0.8 / s.mm)),
                          cv2.LINE_AA, shift=4)
            cv2.fillConvexPoly(img, texels, colour, cv2.LINE_AA, shift=4)
    return img


def _gingham(s: Surface) -> np.ndarray:
    period = float(s.rng.uniform(6, 16))
    angle = float(s.rng.uniform(0, np.pi / 2))
    white = s.rng.uniform([215, 220, 225], [245, 248, 250])
    colour = np.array([[60, 60, 190], [170, 90, 40], [40, 40, 40], [60, 130, 50]][int(s.rng.integers(0, 4))],
                      np.float32) + s.rng.normal(0, 10, 3)

    def stripes(t):
        return np.clip(0.5 + 3 * np.sin(t * (np.pi / period)), 0, 1)

    a, b = stripes(s.along(angle)), stripes(s.along(angle + np.pi / 2))
    share = (a + b) / 2               # where one band crosses the other the cloth is darkest
    return (white * (1 - share[..., None]) + colour * share[..., None]).astype(np.float32)


def paint(style: str, s: Surface) -> np.ndarray:
    """The table's colour over the surface patch."""
    if style == "white_paper":
        img = _paper_sheets(s, [236, 240, 241], [250, 252, 253])
    elif style == "offwhite_paper":
        img = _paper_sheets(s, [205, 222, 228], [225, 236, 242])
    elif style == "laminate":
        img = s.uniform([195, 205, 210], [228, 232, 235])
        img *= (1 + 0.02 * s.smooth_noise(30))[..., None]
    elif style == "cream_cloth":
        img = s.uniform([175, 205, 222], [205, 228, 240])
        img *= (1 + 0.025 * s.smooth_noise(80) + 0.015 * s.smooth_noise(6))[..., None]   # folds
    elif style in ("light_wood", "dark_wood"):
        img = _wood(s, light=style == "light_wood")
    elif style == "grey_stone":
        img = s.uniform([90, 90, 88], [150, 148, 145])
        img *= (1 + 0.08 * s.smooth_noise(25) + 0.08 * s.smooth_noise(2))[..., None]
    elif style == "green_felt":
        img = s.uniform([30, 95, 20], [70, 140, 55])
        img *= (1 + 0.05 * s.smooth_noise(50))[..., None]
    elif style == "gingham":
        img = _gingham(s)
    else:
        raise ValueError(f"Unknown table {style!r}: choose one of {', '.join(ORDINARY_TABLES)}.")
    return img
