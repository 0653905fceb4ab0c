"""Throws rendered in 3-D, to measure the cube reader on photos that break the flat
generator's assumptions: a pinhole camera 25-45 cm above the table and tilted up to 40
degrees (held in the hand, 20-45), so side faces show their own letters beside the top
face; 16 mm cubes with bevelled edges that catch the light; soft shadows; pale tables on
which the cubes are darker than the table; shade, glare, dim and tinted light; print
worn pale; defocus, noise and JPEG.

A throw is first laid out as a scene (camera, lights, cubes in millimetres on the table),
then painted: the table through the camera's homography, shadows, the cubes back to front
(each face a quad, its glyph warped onto it at twice the resolution), then the light and
the sensor.  Everything is drawn from the seed, so a throw is the same on every run."""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from firmware.games import perquackey as pq
from vision import tables
from vision.render import BARRED, glyph_tile
from vision.synth import Throw
from vision.truth import CubeTruth

CUBE_MM = 16.0
FIELD_OF_VIEW_DEG = 62.0          # across the long side, as the Pi Camera v2
HELD_TILT_DEG = (20, 45)          # a phone held over the table, as players photograph their dice
# Fonts the reader has no references for: sans and serif, bold and regular.
HELD_OUT_FONTS = [Path("/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf"),
                  Path("/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf"),
                  Path("/usr/share/fonts/truetype/liberation/LiberationSerif-Bold.ttf"),
                  Path("/usr/share/fonts/truetype/liberation/LiberationSerif-Regular.ttf"),
                  Path("/usr/share/fonts/truetype/liberation/LiberationSansNarrow-Bold.ttf"),
                  Path("/usr/share/fonts/truetype/liberation/LiberationSansNarrow-Regular.ttf"),
                  Path("/usr/share/fonts/truetype/freefont/FreeSansBold.ttf"),
                  Path("/usr/share/fonts/truetype/freefont/FreeSerifBold.ttf")]
BODIES = {"white": ([226, 230, 232], [240, 243, 245]), "cream": ([178, 212, 230], [200, 228, 242]),
          "ivory": ([200, 226, 236], [218, 238, 246])}
WORN_PRINT = 0.1                  # of the throws: dice whose print has worn pale (or was printed grey), the ink
WORN_MIX = (0.35, 0.7)            # ... mixed this far towards the plastic's colour
TILE = 128                        # glyph tile side, in texels
SUPERSAMPLE = 2
BOUNCE = 0.2                      # the share of the table's light that a side face gets back from it

# A face: its outward normal and the axes along which its glyph tile's x and -y run,
# in the cube's own axes (x and y along its sides on the table, z up).
FACES = (("top", (0, 0, 1), (1, 0, 0), (0, 1, 0)), ("bottom", (0, 0, -1), (1, 0, 0), (0, -1, 0)),
         ("east", (1, 0, 0), (0, 1, 0), (0, 0, 1)), ("west", (-1, 0, 0), (0, -1, 0), (0, 0, 1)),
         ("north", (0, 1, 0), (-1, 0, 0), (0, 0, 1)), ("south", (0, -1, 0), (1, 0, 0), (0, 0, 1)))
CORNER_SIGNS = np.array([(-1, 1), (1, 1), (1, -1), (-1, -1)], float)   # tile TL, TR, BR, BL


def held_out_fonts() -> list[Path]:
    return [f for f in HELD_OUT_FONTS if f.exists()]


def fonts_to_render(fonts=None) -> list[Path]:
    """The fonts given, else the held-out ones installed; a plain message if there are none."""
    fonts = list(fonts) if fonts else held_out_fonts()
    if not fonts:
        raise RuntimeError("No held-out fonts installed for the 3-D throws: "
                           "install them with `sudo apt install fonts-liberation fonts-freefont-ttf`.")
    return fonts


@dataclass
class Camera:
    position: np.ndarray          # mm, table coordinates (the table is z = 0)
    basis: np.ndarray             # columns: image right, image down, viewing direction
    focal: float                  # pixels
    centre: tuple[float, float]
    tilt_deg: float = 0.0

    def project(self, points: np.ndarray) -> np.ndarray:
        """Table coordinates (N, 3) -> image pixels (N, 2)."""
        pc = (np.asarray(points, float) - self.position) @ self.basis
        return self.focal * pc[:, :2] / pc[:, 2:3] + np.asarray(self.centre)

    def plane(self, height: float = 0.0) -> np.ndarray:
        """The homography from (x, y) on the plane z = height to image pixels."""
        k = np.array([[self.focal, 0, self.centre[0]], [0, self.focal, self.centre[1]], [0, 0, 1]])
        bt = self.basis.T
        return k @ np.column_stack([bt[:, 0], bt[:, 1], bt @ (np.array([0, 0, height]) - self.position)])

    def on_plane(self, pixels: np.ndarray, height: float = 0.0) -> np.ndarray:
        """Image pixels (N, 2) -> the (x, y) they see on the plane z = height."""
        back = cv2.perspectiveTransform(np.float64(pixels).reshape(-1, 1, 2), np.linalg.inv(self.plane(height)))
        return back.reshape(-1, 2)


@dataclass
class Cube:
    x: float                      # centre on the table, mm
    y: float
    yaw: float                    # radians about the vertical
    letters: dict[str, str]       # face name -> the letter printed on it
    turns: dict[str, int]         # face name -> quarter turns of its glyph
    red: bool

    @property
    def axes(self) -> np.ndarray:
        c, s = np.cos(self.yaw), np.sin(self.yaw)
        return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])   # columns: the cube's x, y, z in table axes

    def footprint(self, grow: float = 1.0) -> np.ndarray:
        """The four corners of the cube's base on the table (4, 2)."""
        return np.array([self.x, self.y]) + CORNER_SIGNS * CUBE_MM / 2 * grow @ self.axes[:2, :2].T

    def corners(self) -> np.ndarray:
        base = self.footprint()
        return np.vstack([np.column_stack([base, np.zeros(4)]), np.column_stack([base, np.full(4, CUBE_MM)])])

    def faces_seen_from(self, point: np.ndarray) -> list[str]:
        """The faces turned towards `point` (the top always, for a camera above the table)."""
        return [f[0] for f in FACES if (lambda n, c: n @ (point - c) > 0)(*self.face(f[0])[:2])]

    def face(self, name: str, scale: float = 1.0):
        """A face's outward normal, centre and corners (in tile order TL, TR, BR, BL), the
        corners drawn in by `scale` about its centre."""
        _, normal, u, v = next(f for f in FACES if f[0] == name)
        n, u, v = (self.axes @ np.array(a, float) for a in (normal, u, v))
        centre = np.array([self.x, self.y, CUBE_MM / 2]) + n * CUBE_MM / 2
        corners = centre + (CORNER_SIGNS[:, :1] * u + CORNER_SIGNS[:, 1:] * v) * CUBE_MM / 2 * scale
        return n, centre, corners


@dataclass
class Light:
    direction: np.ndarray         # unit vector towards the light
    strength: float
    softness_mm: float            # how far the shadow's edge spreads


@dataclass
class Box:
    """A solid box standing on the table (a tray's floor, rim or the walls between its
    cells), painted with the table before the cubes."""
    base: np.ndarray              # its four corners on the table (4, 2), mm, in order round it
    height: float                 # mm
    colour: np.ndarray            # BGR under the table's full light

    def faces(self) -> list[tuple[np.ndarray, np.ndarray]]:
        """Each face's outward normal and corners (3-D): the top, then the four sides."""
        low = np.column_stack([self.base, np.zeros(4)])
        high = np.column_stack([self.base, np.full(4, self.height)])
        middle = self.base.mean(axis=0)
        faces = [(np.array([0.0, 0.0, 1.0]), high)]
        for k in range(4):
            edge = self.base[(k + 1) % 4] - self.base[k]
            out = np.array([edge[1], -edge[0]]) / np.hypot(*edge)
            if out @ (self.base[k] - middle) < 0:
                out = -out
            faces.append((np.append(out, 0.0), np.array([low[k], low[(k + 1) % 4], high[(k + 1) % 4], high[k]])))
        return faces


@dataclass
class Scene:
    camera: Camera
    cubes: list[Cube]
    lights: list[Light]
    ambient: float
    table: str
    font: Path
    body: str
    letter_size: float            # a capital's height as a share of the face's side
    barred: bool                  # whether M W N Z carry a bar
    hard: bool
    size: tuple[int, int]
    notes: dict = field(default_factory=dict)
    boxes: list[Box] = field(default_factory=list)    # in the order they are painted, lowest first


def _camera(rng: np.random.Generator, size, hard: bool, held: bool = False) -> Camera:
    w, h = size
    height = rng.uniform(250, 450)
    if held:
        tilt = np.radians(rng.uniform(*HELD_TILT_DEG))
    else:     # the box's camera looks down; a hard throw's is knocked askew
        tilt = np.radians(rng.uniform(20, 40) if hard else min(rng.uniform(0, 30), rng.uniform(0, 40)))
    yaw = rng.uniform(0, 2 * np.pi)
    tilt_turn = np.array([[1, 0, 0], [0, np.cos(tilt), -np.sin(tilt)], [0, np.sin(tilt), np.cos(tilt)]])
    yaw_turn = np.array([[np.cos(yaw), -np.sin(yaw), 0], [np.sin(yaw), np.cos(yaw), 0], [0, 0, 1]])
    straight_down = np.array([[1, 0, 0], [0, -1, 0], [0, 0, -1]], float).T
    # (the field of view is across the long side, as a camera's is however it is held)
    focal = (max(w, h) / 2) / np.tan(np.radians(FIELD_OF_VIEW_DEG / 2))
    return Camera(np.array([0, 0, height]), yaw_turn @ tilt_turn @ straight_down, focal,
                  ((w - 1) / 2, (h - 1) / 2), float(np.degrees(tilt)))


def squares_overlap(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether two convex quads (4, 2) share any area (touching edges do not count):
    they overlap unless some edge direction separates them."""
    for quad in (a, b):
        for k in range(4):
            edge = quad[(k + 1) % 4] - quad[k]
            axis = np.array([-edge[1], edge[0]]) / np.hypot(*edge)
            pa, pb = a @ axis, b @ axis
            if pa.max() <= pb.min() + 1e-9 or pb.max() <= pa.min() + 1e-9:
                return False
    return True


def _touching(rng: np.random.Generator, anchor: Cube, cube: Cube) -> None:
    """Move `cube` next to `anchor`, from a random side, until they just touch."""
    angle = rng.uniform(0, 2 * np.pi)
    step = np.array([np.cos(angle), np.sin(angle)])
    near, far = 0.0, CUBE_MM * 1.5            # overlapping at `near`, apart at `far`
    for _ in range(24):
        mid = (near + far) / 2
        cube.x, cube.y = np.array([anchor.x, anchor.y]) + step * mid
        if squares_overlap(anchor.footprint(), cube.footprint()):
            near = mid
        else:
            far = mid
    cube.x, cube.y = np.array([anchor.x, anchor.y]) + step * (far + rng.uniform(0.02, 0.3))


def _in_view(camera: Camera, cube: Cube, size, margin: float) -> bool:
    pts = camera.project(cube.corners())
    return bool((pts >= margin).all() and (pts[:, 0] <= size[0] - 1 - margin).all()
                and (pts[:, 1] <= size[1] - 1 - margin).all())


def _place(rng: np.random.Generator, camera: Camera, cubes: list[Cube], size, hard: bool) -> None:
    """Put the cubes on the table where the camera sees them, none inside another; some
    land against the one thrown before (a pair, or in a hard throw often a cluster)."""
    touch = 0.45 if hard else 0.18
    margin = 0.02 * size[0]
    placed: list[Cube] = []
    for cube in cubes:
        for attempt in range(500):
            cube.yaw = rng.uniform(0, 2 * np.pi)
            if placed and attempt < 60 and rng.random() < touch:
                anchor = placed[-1] if rng.random() < 0.6 else placed[int(rng.integers(0, len(placed)))]
                if rng.random() < 0.5:            # cubes pushed together often line up
                    cube.yaw = anchor.yaw + rng.normal(0, 0.08)
                _touching(rng, anchor, cube)
            else:
                pixel = rng.uniform([margin, margin], [size[0] - margin, size[1] - margin])
                cube.x, cube.y = camera.on_plane(pixel[None], CUBE_MM / 2)[0]
            if _in_view(camera, cube, size, margin) and not any(
                    squares_overlap(cube.footprint(), other.footprint()) for other in placed):
                break
        else:
            raise RuntimeError("could not place every cube in view")
        placed.append(cube)


def _dress(prng: random.Random, faces: str, red: bool) -> Cube:
    """A cube with its six letters on its faces, one of them (the throw's) on top."""
    letters = list(faces)
    prng.shuffle(letters)
    names = [f[0] for f in FACES]
    return Cube(0.0, 0.0, 0.0, dict(zip(names, letters)), {n: prng.randrange(4) for n in names}, red)


def _lights(rng: np.random.Generator, hard: bool) -> tuple[list[Light], float]:
    lights = []
    for _ in range(1 + int(rng.random() < 0.4)):
        lights.append(_light(rng, rng.uniform(35, 75), rng.uniform(0.6, 1.0), rng.uniform(0.4, 2.5)))
    if rng.random() < 0.35:                       # a window: low, weaker, very soft
        lights.append(_light(rng, rng.uniform(20, 45), rng.uniform(0.25, 0.5), rng.uniform(5, 10)))
    return lights, float(rng.uniform(0.12, 0.3) if hard else rng.uniform(0.25, 0.45))


def _light(rng, elevation_deg, strength, softness) -> Light:
    el, az = np.radians(elevation_deg), rng.uniform(0, 2 * np.pi)
    return Light(np.array([np.cos(el) * np.cos(az), np.cos(el) * np.sin(az), np.sin(el)]), strength, softness)


def make_scene(seed: int, *, hard: bool | None = None, vulnerable: bool | None = None, red_set: str = "classic",
               fonts=None, size=(1640, 1232), held: bool = False) -> Scene:
    """Lay out a throw: camera, lights and the cubes on the table, all from `seed`."""
    rng = np.random.default_rng(seed)
    prng = random.Random(seed)
    hard = bool(rng.random() < 0.25) if hard is None else hard
    vulnerable = bool(rng.integers(0, 2)) if vulnerable is None else vulnerable
    fonts = fonts_to_render(fonts)
    camera = _camera(rng, size, hard, held)
    faces = pq.cubes(vulnerable, red_set)
    cubes = [_dress(prng, f, i >= len(pq.BLACK_CUBES)) for i, f in enumerate(faces)]
    _place(rng, camera, cubes, size, hard)
    lights, ambient = _lights(rng, hard)
    table = tables.HARD_TABLES if hard else tables.ORDINARY_TABLES
    return Scene(camera, cubes, lights, ambient, table[int(rng.integers(0, len(table)))],
                 fonts[int(rng.integers(0, len(fonts)))], list(BODIES)[int(rng.integers(0, len(BODIES)))],
                 float(rng.uniform(0.5, 0.7)), bool(rng.random() < 0.5), hard, tuple(size))


# ---------------------------------------------------------------- painting

@lru_cache(maxsize=2)
def _noise_bank(width: int, height: int) -> np.ndarray:
    """A fixed field of unit noise a little larger than the image; each throw takes its
    noise from it at offsets drawn from its seed (drawing fresh noise is slow)."""
    return np.random.default_rng(0).standard_normal((height + 64, width + 64, 3), dtype=np.float32)


def _noise(rng: np.random.Generator, width: int, height: int) -> np.ndarray:
    dx, dy = rng.integers(0, 64, 2)
    return _noise_bank(width, height)[dy:dy + height, dx:dx + width]


@lru_cache(maxsize=512)
def _tile(letter: str, font: str, bar: bool) -> tuple[np.ndarray, tuple[float, float], float, float]:
    """A glyph mask, the centre of its ink and the ink's width and height, in texels."""
    mask = np.asarray(glyph_tile(letter, Path(font), TILE, bar=bar), np.float32) / 255
    ys, xs = np.nonzero(mask > 0.5)
    return mask, ((xs.min() + xs.max()) / 2, (ys.min() + ys.max()) / 2), float(np.ptp(xs) + 1), float(np.ptp(ys) + 1)


def _glyph_window(letter: str, font: str, bar: bool, letter_size: float):
    """The glyph's mask and the square of it that is to cover the whole face: the letter
    stands `letter_size` of the face high, narrowed where it would come too near the edge."""
    mask, (cx, cy), width, height = _tile(letter, font, bar)
    side = max(height / letter_size, width / 0.82)
    square = np.float32([[cx - side / 2, cy - side / 2], [cx + side / 2, cy - side / 2],
                         [cx + side / 2, cy + side / 2], [cx - side / 2, cy + side / 2]])
    return mask, square


def _table_image(scene: Scene, rng: np.random.Generator) -> np.ndarray:
    """The table as the camera sees it: painted on a patch of table covering the view, at a
    texel size that keeps the patch small, then put through the camera's homography."""
    w, h = scene.size
    corners = scene.camera.on_plane(np.array([[0, 0], [w, 0], [w, h], [0, h]], float))
    low = np.clip(corners.min(axis=0) - 20, -2500, 2500)
    high = np.clip(corners.max(axis=0) + 20, -2500, 2500)
    mm = max(0.3, float((high - low).max()) / 1100)
    tw, th = (int(v) + 1 for v in (high - low) / mm)
    surface = tables.Surface(rng, low, mm, tw, th)
    texels_to_table = np.array([[mm, 0, low[0]], [0, mm, low[1]], [0, 0, 1]])
    texture = tables.paint(scene.table, surface).astype(np.float32)
    image = cv2.warpPerspective(texture, scene.camera.plane() @ texels_to_table, (w, h), flags=cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_REFLECT)
    return cv2.scaleAdd(_noise(rng, w, h), tables.GRAIN[scene.table], image)


def _shade(scene: Scene, normal: np.ndarray) -> float:
    """How lit a surface with this normal is, against the unshadowed table (1.0): the
    lamps, the ambient light, and for a face turned sideways the light the table throws back."""
    table = scene.ambient + sum(li.strength * li.direction[2] for li in scene.lights)
    lit = scene.ambient + sum(li.strength * max(0.0, float(normal @ li.direction)) for li in scene.lights)
    return (lit + BOUNCE * table * (1 - normal[2])) / table


def _glint(scene: Scene, normal: np.ndarray, point: np.ndarray, shine: float) -> float:
    """The light a glossy surface reflects towards the camera (Blinn-Phong)."""
    view = scene.camera.position - point
    view = view / np.linalg.norm(view)
    total = 0.0
    for li in scene.lights:
        half = li.direction + view
        total += li.strength * max(0.0, float(normal @ half / np.linalg.norm(half))) ** shine
    return total


def _table_light(scene: Scene, size_px: float) -> np.ndarray:
    """The light falling on the table at quarter resolution: each lamp's soft shadows of
    the cubes, and the dark contact line where each cube stands."""
    w, h = scene.size
    qw, qh = (w + 3) // 4, (h + 3) // 4
    px_per_mm = size_px / CUBE_MM / 4
    total = scene.ambient + sum(li.strength * li.direction[2] for li in scene.lights)
    light = np.full((qh, qw), scene.ambient, np.float32)
    for li in scene.lights:
        mask = np.zeros((qh, qw), np.float32)
        for cube in scene.cubes:
            corners = cube.corners()
            on_table = corners - corners[:, 2:3] / li.direction[2] * li.direction
            pts = scene.camera.project(on_table) / 4
            hull = cv2.convexHull(np.round(pts * 16).astype(np.int32))
            cv2.fillConvexPoly(mask, hull, 1.0, cv2.LINE_AA, shift=4)
        mask = cv2.GaussianBlur(mask, (0, 0), max(0.5, li.softness_mm * px_per_mm))
        light += li.strength * li.direction[2] * (1 - mask)
    contact = np.zeros((qh, qw), np.float32)
    for cube in scene.cubes:
        base = scene.camera.project(np.column_stack([cube.footprint(1.12), np.zeros(4)])) / 4
        cv2.fillConvexPoly(contact, np.round(base * 16).astype(np.int32), 1.0, cv2.LINE_AA, shift=4)
    contact = cv2.GaussianBlur(contact, (0, 0), max(0.5, 1.2 * px_per_mm))
    light = (light / np.float32(total) * (1 - 0.3 * contact)).astype(np.float32)
    return cv2.resize(light, (w, h), interpolation=cv2.INTER_LINEAR)


def _paint_boxes(image: np.ndarray, scene: Scene) -> None:
    """Paint the boxes standing on the table, each face flat and lit by its slope."""
    camera = scene.camera
    for box in scene.boxes:
        for normal, corners in box.faces():
            if normal @ (camera.position - corners.mean(axis=0)) <= 0:
                continue
            pts = np.round(camera.project(corners) * 16).astype(np.int32)
            cv2.fillConvexPoly(image, pts, (box.colour * _shade(scene, normal)).tolist(), cv2.LINE_AA, shift=4)


def _paint_cube(image: np.ndarray, scene: Scene, cube: Cube, body: np.ndarray, ink: np.ndarray,
                bevel: float, shine: float) -> None:
    """Paint one cube's visible faces on a window round it at twice the resolution, then
    shrink the window (which smooths every edge) and lay it over the image."""
    camera, (w, h) = scene.camera, scene.size
    outline = camera.project(cube.corners())
    x0, y0 = np.maximum(np.floor(outline.min(axis=0)).astype(int) - 2, 0)
    x1, y1 = np.minimum(np.ceil(outline.max(axis=0)).astype(int) + 3, (w, h))
    if x1 <= x0 or y1 <= y0:
        return                          # (a cube still flying in, out of the view)
    ss = SUPERSAMPLE
    colour = np.zeros(((y1 - y0) * ss, (x1 - x0) * ss, 3), np.float32)
    cover = np.zeros(colour.shape[:2], np.float32)

    def to_window(points):
        return (camera.project(points) - (x0, y0)) * ss + (ss - 1) / 2

    def fill(points, value):
        pts = np.round(to_window(points) * 16).astype(np.int32)
        cv2.fillConvexPoly(colour, pts, value.tolist(), cv2.LINE_8, shift=4)
        cv2.fillConvexPoly(cover, pts, 1.0, cv2.LINE_8, shift=4)

    inner_scale = 1 - 2 * bevel / CUBE_MM
    for name in sorted(cube.faces_seen_from(camera.position), key=lambda n: n == "top"):
        normal, centre, outer = cube.face(name)
        _, _, inner = cube.face(name, inner_scale)
        for k in range(4):              # the bevel: four strips whose normals lean towards the next face
            out = (outer[k] + outer[(k + 1) % 4]) / 2 - centre
            lean = normal + out / np.linalg.norm(out)
            lean /= np.linalg.norm(lean)
            strip = np.array([outer[k], outer[(k + 1) % 4], inner[(k + 1) % 4], inner[k]])
            fill(strip, body * _shade(scene, lean) + 255 * shine * _glint(scene, lean, strip.mean(0), 30))
        lit = _shade(scene, normal)
        gloss = 255 * 0.25 * shine * _glint(scene, normal, centre, 60)
        fill(inner, body * lit + gloss)
        letter = cube.letters[name]
        tile, src = _glyph_window(letter, str(scene.font), scene.barred and letter in BARRED, scene.letter_size)
        dst = np.float32(np.roll(to_window(outer), cube.turns[name], axis=0))
        alpha = cv2.warpPerspective(tile, cv2.getPerspectiveTransform(src, dst), cover.shape[::-1],
                                    flags=cv2.INTER_LINEAR)[..., None]
        colour[:] = colour * (1 - alpha) + (ink * lit + gloss) * alpha
    small = cv2.resize(colour, (x1 - x0, y1 - y0), interpolation=cv2.INTER_AREA)
    share = cv2.resize(cover, (x1 - x0, y1 - y0), interpolation=cv2.INTER_AREA)[..., None]
    window = image[y0:y1, x0:x1]
    window[:] = window * (1 - share) + small


def _soft_shape(rng: np.random.Generator, w: int, h: int, hand: bool, at=None) -> np.ndarray:
    """A soft dark shape over part of the throw, at quarter resolution: a band of shade
    (a lampshade's edge, a book) or a hand's shadow (a palm and fingers), `at` a place
    given as shares of the image's width and height, or anywhere."""
    qw, qh = (w + 3) // 4, (h + 3) // 4
    mask = np.zeros((qh, qw), np.float32)
    centre = rng.uniform([0.2 * qw, 0.2 * qh], [0.8 * qw, 0.8 * qh])
    if at is not None:
        centre = np.array([at[0] * qw, at[1] * qh])
    angle = rng.uniform(0, 360)
    if hand:
        palm = (int(qw * rng.uniform(0.09, 0.14)), int(qw * rng.uniform(0.12, 0.18)))
        cv2.ellipse(mask, tuple(int(v) for v in centre), palm, angle, 0, 360, 1.0, -1)
        for k in range(4):
            finger = np.radians(angle - 90 + (k - 1.5) * 12)
            tip = centre + np.array([np.cos(finger), np.sin(finger)]) * palm[1] * rng.uniform(1.8, 2.3)
            cv2.line(mask, tuple(int(v) for v in centre), tuple(int(v) for v in tip), 1.0,
                     max(2, int(palm[0] * 0.35)))
        soft = qw * rng.uniform(0.01, 0.03)
    else:
        normal = np.array([np.cos(np.radians(angle)), np.sin(np.radians(angle))])
        ys, xs = np.mgrid[0:qh, 0:qw].astype(np.float32)
        across = (xs - centre[0]) * normal[0] + (ys - centre[1]) * normal[1]
        width = qw * rng.uniform(0.1, 0.35)
        mask = ((across > 0) & (across < width if rng.random() < 0.6 else True)).astype(np.float32)
        soft = qw * rng.uniform(0.005, 0.03)
    return cv2.GaussianBlur(mask, (0, 0), soft)


def _light_and_sensor(image: np.ndarray, scene: Scene, rng: np.random.Generator,
                      sensor: np.random.Generator, hand=None, hand_seed: int | None = None):
    """Shade, glare, the light's colour and fall-off, exposure, then the camera: defocus,
    noise (drawn from `sensor`) and JPEG.  A frame of a sequence gives `hand_seed`: its
    hand keeps one shape from frame to frame and is drawn over the table where `hand` says."""
    w, h = scene.size
    hard = scene.hard
    shadows = np.ones(((h + 3) // 4, (w + 3) // 4), np.float32)
    if rng.random() < (0.6 if hard else 0.15):
        shadows *= 1 - rng.uniform(0.3, 0.55) * _soft_shape(rng, w, h, hand=False)
        scene.notes["shade"] = True
    if rng.random() < (0.4 if hard else 0.1) and hand_seed is None:   # a sequence places its hand itself
        shadows *= 1 - rng.uniform(0.3, 0.6) * _soft_shape(rng, w, h, hand=True)
        scene.notes["hand"] = True
    ys, xs = np.mgrid[0:shadows.shape[0], 0:shadows.shape[1]].astype(np.float32)
    xs, ys = xs / shadows.shape[1] - 0.5, ys / shadows.shape[0] - 0.5
    slope = rng.uniform(-0.3, 0.3, 2)
    shadows *= 1 + slope[0] * xs + slope[1] * ys                                   # the lamp's fall-off
    shadows *= 1 - rng.uniform(0.1, 0.3) * (xs ** 2 + ys ** 2) * 2                 # the lens's vignetting
    light = str(rng.choice(["neutral", "warm", "cool", "tinted"], p=[0.25, 0.35, 0.25, 0.15]))
    tint = {"neutral": np.ones(3), "warm": np.array([rng.uniform(0.75, 0.9), 1.0, rng.uniform(1.05, 1.12)]),
            "cool": np.array([rng.uniform(1.05, 1.12), 1.0, rng.uniform(0.85, 0.95)]),
            "tinted": rng.uniform(0.85, 1.1, 3)}[light]
    dim = rng.random() < (0.5 if hard else 0.15)
    exposure = rng.uniform(0.35, 0.6) if dim else rng.uniform(0.8, 1.08)
    scene.notes.update(light=light, dim=dim)
    colour = (tint * exposure).astype(np.float32)
    palm = None
    if hand is not None:           # the hand's shadow falls a little aside of it on the table
        palm = _soft_shape(np.random.default_rng(hand_seed), w, h, True, hand)
        shadow = _soft_shape(np.random.default_rng(hand_seed), w, h, True, (hand[0] + 0.05, hand[1] + 0.04))
        shadows *= 1 - 0.5 * cv2.GaussianBlur(shadow, (0, 0), 6)
    image = cv2.multiply(image, _full(shadows[..., None] * colour, w, h))
    if rng.random() < (0.5 if hard else 0.1):      # glare: a lamp's reflection off a glossy table
        glare = np.zeros_like(shadows)
        spot = rng.uniform([0.15, 0.15], [0.85, 0.85]) * shadows.shape[::-1]
        axes = (int(shadows.shape[1] * rng.uniform(0.04, 0.12)), int(shadows.shape[0] * rng.uniform(0.03, 0.1)))
        cv2.ellipse(glare, tuple(int(v) for v in spot), axes, rng.uniform(0, 180), 0, 360, 1.0, -1)
        glare = cv2.GaussianBlur(glare, (0, 0), max(axes) * 0.6)
        glare *= rng.uniform(60, 160) / max(float(glare.max()), 1e-6)
        image = cv2.add(image, _full(glare[..., None] * colour, w, h))
        scene.notes["glare"] = True
    if palm is not None:           # the hand itself, over everything on the table
        cover = _full(np.clip(palm * 1.5, 0, 1)[..., None], w, h)
        skin = np.array([120, 150, 205], np.float32) * colour
        image = image * (1 - cover) + cover * skin
    sigma = rng.uniform(0.5, 2.2) if hard else rng.uniform(0.0, 1.2)
    if sigma > 0.3:
        image = cv2.GaussianBlur(image, (0, 0), sigma)
    image = cv2.scaleAdd(_noise(sensor, w, h), float(sensor.uniform(1.5, 3.5) / np.sqrt(exposure)), image)
    image = np.clip(image, 0, 255, out=image).astype(np.uint8)
    ok, jpeg = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(sensor.integers(65, 95))])
    return cv2.imdecode(jpeg, cv2.IMREAD_COLOR)


def _full(quarter: np.ndarray, w: int, h: int) -> np.ndarray:
    """A quarter-resolution map brought up to the image's size, as float32."""
    full = cv2.resize(quarter.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
    return full if full.ndim == 3 else full[..., None]


def top_face_side(scene: Scene) -> float:
    """The mean side of the cubes' top faces in the image, in pixels (on an empty table,
    that of a cube in the middle of the view)."""
    sides = []
    if not scene.cubes:
        x, y = scene.camera.on_plane(np.array([[scene.size[0] / 2, scene.size[1] / 2]]), CUBE_MM)[0]
        return top_face_side(Scene(**{**scene.__dict__, "cubes": [Cube(x, y, 0.0, {}, {}, False)]}))
    for cube in scene.cubes:
        pts = scene.camera.project(cube.face("top")[2])
        sides.extend(np.hypot(*(pts - np.roll(pts, 1, axis=0)).T))
    return float(np.mean(sides))


def worn_print(seed: int) -> float:
    """How far the throw's print is mixed towards the plastic's colour (0: whole), from a
    stream of its own, so the throws with their print whole paint as they always did."""
    wear = np.random.default_rng([seed, 5])
    return float(wear.uniform(*WORN_MIX)) if wear.random() < WORN_PRINT else 0.0


def render(scene: Scene, seed: int, *, frame: int | None = None, hand=None) -> Throw:
    """Paint the scene.  A `frame` of a sequence from a fixed camera keeps the table, the
    light and the cubes' colours of `seed` and takes its own sensor noise; `hand` puts a
    hand over the table there (shares of the image's width and height)."""
    rng = np.random.default_rng([seed, 3])         # the painting's own stream, apart from the layout's
    sensor = rng if frame is None else np.random.default_rng([seed, 4, frame])
    size_px = top_face_side(scene)
    lit = cv2.cvtColor(_table_light(scene, size_px), cv2.COLOR_GRAY2BGR)
    table = _table_image(scene, rng)
    _paint_boxes(table, scene)
    image = cv2.multiply(table, lit)
    body = rng.uniform(*BODIES[scene.body]).astype(np.float32)
    black = rng.uniform(22, 45, 3).astype(np.float32)
    red = np.array([rng.uniform(35, 60), rng.uniform(30, 55), rng.uniform(160, 205)], np.float32)
    bevel, shine = float(rng.uniform(0.8, 1.6)), float(rng.uniform(0.2, 0.7))
    mix = worn_print(seed)
    if mix:
        black, red = (1 - mix) * black + mix * body, (1 - mix) * red + mix * body
    camera = scene.camera.position
    for cube in sorted(scene.cubes, key=lambda c: -np.hypot(c.x - camera[0], c.y - camera[1])):
        _paint_cube(image, scene, cube, body, red if cube.red else black, bevel, shine)
    image = _light_and_sensor(image, scene, rng, sensor, hand, None if frame is None else seed)
    truths = []
    for cube in scene.cubes:
        x, y = scene.camera.project(cube.face("top")[1][None])[0]
        truths.append(CubeTruth(cube.letters["top"], cube.red, float(x), float(y)))
    return Throw(image, truths, size_px, worn=bool(mix))


def make_throw_3d(seed: int, *, hard: bool | None = None, vulnerable: bool | None = None, red_set: str = "classic",
                  fonts=None, size=(1640, 1232), held: bool = False) -> Throw:
    """One photo of a throw rendered in 3-D, with every cube's top letter, ink colour and
    the centre of its top face in the image, and the mean side of the top faces.  `hard`
    picks the harsh end of everything (left as None, a quarter of the seeds are hard);
    `vulnerable` throws all 13 cubes, the red ones from `red_set`; `held` takes the photo
    with a camera held in the hand, HELD_TILT_DEG from the vertical."""
    scene = make_scene(seed, hard=hard, vulnerable=vulnerable, red_set=red_set, fonts=fonts, size=size, held=held)
    return render(scene, seed)
