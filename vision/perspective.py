"""Where the camera stands, from the top faces found: how their size changes across the
photo says which way it leans, where the point under it lies, and so where a top face's
side faces show (towards that point, as far as the view is steep)."""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Protocol

import cv2
import numpy as np

MIN_FOR_PERSPECTIVE = 5   # probable faces needed to work out where the camera is
FOCAL_SHARE = 0.8         # a camera's focal length as a share of the photo's width (Pi camera 0.83, phones 0.7-0.9)
LEAST_TILT_DEG = 10       # a camera tilted less than this shows little of the side faces
STEEP_SIGHT_DEG = 20      # ... though seen straight down, they show this far out from the vertical
CLEAR_DIRECTION = 0.7     # a joined face this much (cosine) towards the camera's foot ...
AREA_POWER = 2 / 3        # of the sizes' gradient, what the depth's is (a face's side goes as depth^-3/2)
SQUARE_SIGHT = 0.8        # a top face seen this (cosine) near the vertical is guessed square
FLATTEST_TOP = 0.3        # ... and no flatter than this, however far out
OFFSET_SLACK = 0.3        # ... and as far from the other as a side face would be, give or take this share, is its side face
MIN_FOR_SQUEEZE = 3       # sure top faces needed to read the camera's place from how they are squeezed ...
SQUEEZED_TILT_DEG = 25    # ... which is trusted where it says the camera leans this far at least ...
SQUEEZE_MISFIT = 0.1      # ... and explains the squeezes this well (mean square, of 1 - cosine^2) ...
SIZES_SAY = 0.15          # ... where the lean says the faces' sizes change this much (a share) along the line to
                          # the foot, and they do, within a factor of two
FIT_WITHIN = 1.33         # the fit's side is only sure near the faces it was made from: this factor of the
                          # side learned at most, either way


class Placed(Protocol):
    """A face found in the photo: its middle and its area, working-image pixels."""
    middle: np.ndarray
    area: float


class Outlined(Placed, Protocol):
    corners: np.ndarray           # 4 x 2, working-image pixels


@dataclass
class Perspective:
    """Where the table's vertical lines meet in the photo (the point under the camera),
    worked out from how the top faces' size changes across it: on a plane seen through a
    pinhole, a small square's apparent side is an affine function of its place in the
    photo, s = a + b x + c y, and the point below the camera lies at f^2 (b, c) / a from
    the photo's centre (f the focal length in pixels).  A side face lies between its top
    face and the cube's foot, i.e. on the side of the top face towards that point, and as
    far from it as the view is steep: this tells a side face from a top face whatever the
    light, and even where the top face is the more foreshortened of the two."""
    size: np.ndarray             # a, b, c
    centre: np.ndarray
    focal: float
    below: np.ndarray            # the point under the camera, working-image pixels

    @classmethod
    def fit(cls, candidates: list[Placed], shape: tuple[int, ...]) -> "Perspective | None":
        if len(candidates) < MIN_FOR_PERSPECTIVE:
            return None
        centre = np.array([shape[1] / 2, shape[0] / 2])
        points = np.array([c.middle for c in candidates]) - centre
        sides = np.sqrt([c.area for c in candidates])
        design = np.column_stack([np.ones(len(points)), points])
        keep = np.ones(len(points), bool)
        for _ in range(2):              # once more without the faces the first fit explains worst
            (a, b, c), *_ = np.linalg.lstsq(design[keep], sides[keep], rcond=None)
            # a face fitted within a few hundredths of a side is kept; one further off is an
            # outlier where a fit without it would miss it by far more than the others
            misfit = np.abs(design @ (a, b, c) - sides)
            unexplained = misfit / (1 - _leverage(design, keep))
            keep = (misfit <= 0.04 * np.median(sides)) | (unexplained <= 2.5 * np.median(unexplained[keep]))
            if keep.sum() < MIN_FOR_PERSPECTIVE:
                return None
        focal = FOCAL_SHARE * shape[1]
        if a <= 0:
            return None
        if focal * np.hypot(b, c) / a < np.tan(np.radians(LEAST_TILT_DEG)):
            # seen (nearly) straight down: the sizes' own scatter would decide which way
            # the camera leans, so its foot is taken at the photo's middle (a sixth of the
            # width away at most); the far edges' side faces still show, outwards from it
            return cls(np.array([a, b, c]), centre, focal, centre).straight_down()
        return cls(np.array([a, b, c]), centre, focal, centre + focal * focal * np.array([b, c]) / a)

    @classmethod
    def from_squeeze(cls, faces: list["Outlined"], shape: tuple[int, ...]) -> "Perspective | None":
        """Where the camera stands, from how its top faces are squeezed: a top face whose
        line of sight is theta from the vertical looks squeezed by cos(theta) along the
        line to the point under the camera.  Where too few faces are sure for the sizes'
        fit (or side faces, as large as top faces at the far edge of a steep view, flatten
        the sizes' gradient), each sure face still says which way the camera's foot lies
        and how steep the view is there.  The squeeze gives the line to the foot, not
        which end of it: the faces' sizes (the nearer the foot, the larger) choose.  None
        where the faces disagree, or say the camera looks nearly straight down, or their
        sizes do not say clearly which end (side faces taken for top faces, at the far edge
        of a steep view, are squeezed another way, and as large as the top faces near)."""
        lean = squeezed_lean(faces, shape)
        if lean is None:
            return None
        tilt, turn, misfit = lean
        if tilt < np.radians(SQUEEZED_TILT_DEG) or misfit > SQUEEZE_MISFIT:
            return None
        centre = np.array([shape[1] / 2, shape[0] / 2])
        focal = FOCAL_SHARE * shape[1]
        points = np.array([f.middle for f in faces]) - centre
        sides = np.sqrt([f.area for f in faces])
        end = _foot_end(points @ np.array([np.cos(turn), np.sin(turn)]), sides, np.tan(tilt) / (AREA_POWER * focal))
        if end is None:
            return None
        # stored as the sizes' fit would have it (see `top_face`): the foot's offset over AREA_POWER
        gradient = end * np.tan(tilt) * np.array([np.cos(turn), np.sin(turn)]) / (AREA_POWER * focal)
        scale = 1 + points @ gradient
        a = float(sides @ scale / (scale @ scale))
        if a <= 0:
            return None
        return cls(np.array([a, *(a * gradient)]), centre, focal, centre + focal * focal * gradient)

    def straight_down(self) -> "Perspective":
        """The camera taken as looking straight down from above the photo's middle: faces
        the same size everywhere (the size at the middle), the far edges' side faces
        outwards from there."""
        return replace(self, size=np.array([self.size[0], 0.0, 0.0]), below=self.centre)

    def sized_as(self, faces: list[Placed]) -> "Perspective":
        """The fit scaled to the sizes of `faces` (the median of their sides over the
        fit's there): the point under the camera stays where it was."""
        shares = [np.sqrt(f.area) / self.fitted_side(f.middle) for f in faces]
        share = float(np.median(shares)) if shares else 0.0
        return replace(self, size=self.size * share) if share > 0 else self

    @property
    def tilted(self) -> bool:
        """Whether the faces' sizes show which way the camera leans."""
        return bool(self.size[1] or self.size[2])

    def foot_from(self, c: Placed) -> np.ndarray:
        """The direction from a candidate to the point under the camera: its side faces,
        if it is a top face, lie that way; its top face, if it is a side face, the other."""
        return self.below - c.middle

    def fitted_side(self, points: np.ndarray) -> np.ndarray:
        """The side of a top face at each of `points` (..., 2; working pixels) as the fit
        of the faces' sizes says, however far from the faces it was made from."""
        offset = np.asarray(points, np.float64) - self.centre
        return self.size[0] + offset @ self.size[1:]

    def side_at(self, point: np.ndarray, learned: float, within: float = FIT_WITHIN) -> float:
        """The side of a top face at `point`, working pixels; within `within` times the
        learned side either way, a third by default (the fit is only sure near the faces
        it was made from)."""
        return float(np.clip(self.fitted_side(point), learned / within, within * learned))

    def side_face_offset(self, point: np.ndarray) -> float:
        """How far a side face's middle lies from its top face's middle at `point`: half a
        cube's edge towards the camera, foreshortened by the cosine of the angle between
        the line of sight and the vertical, and half an edge down, which shows as its sine.
        The fit is of the faces' areas, whose sides are an edge times the root of that
        cosine: at the far edge of a steep view (45 degrees) the edge is a fifth longer
        than the side, and the offset is 0.84 of a side, not a whole one."""
        side = float(self.fitted_side(point))
        cosine = max(self._sight_cosine(point), 0.2)
        return side * (cosine + np.sqrt(1 - cosine * cosine)) / (2 * np.sqrt(cosine))

    def top_face(self, square: np.ndarray, point: np.ndarray) -> np.ndarray | None:
        """A square outline (4 x 2) round `point` reshaped as a top face of its area looks
        there, or None where it looks much the same: squeezed towards the point under the
        camera by the cosine of the line of sight, stretched across to keep the area.
        (The fit is of the faces' areas, whose root goes as the inverse depth to the power
        3/2: the point under the camera and the tilt are 2/3 of what the sizes' gradient
        alone says.  The face network was taught with `below` as it is, so only this
        shape uses them corrected.)"""
        foot = self.centre + AREA_POWER * (self.below - self.centre)
        towards = foot - point
        length = float(np.linalg.norm(towards))
        cosine = max(self._sight_cosine(point, AREA_POWER), FLATTEST_TOP)
        if length < 1e-6 or cosine > SQUARE_SIGHT:
            return None
        u = towards / length
        squeeze, unsqueeze = (np.eye(2) + (k - 1) * np.outer(u, u) for k in (cosine, 1 / cosine))
        # the square's axes are the image's measure of the cube's, squeezed: undone first
        edge = (square[1] - square[0]) @ unsqueeze.T
        edge *= np.linalg.norm(square[1] - square[0]) / np.linalg.norm(edge)
        normal = np.array([-edge[1], edge[0]])
        corners = np.array([edge + normal, -edge + normal, -edge - normal, edge - normal]) / 2
        return (square.mean(axis=0) + corners @ squeeze.T / np.sqrt(cosine)).astype(np.float32)

    def _sight_cosine(self, point: np.ndarray, power: float = 1.0) -> float:
        """The cosine of the angle between the line of sight to `point` and the vertical,
        the camera's tilt taken as `power` of what the sizes' gradient says (see `top_face`)."""
        x, y = point - self.centre
        up = np.array([power * self.size[1] * self.focal, power * self.size[2] * self.focal, self.size[0]])
        sight = np.array([x, y, self.focal])
        return float(abs(sight @ up) / (np.linalg.norm(sight) * np.linalg.norm(up)))

    def side_of(self, c: Placed, k: Placed) -> "Placed | None":
        """Which of two joined candidates is the other's side face, if their places say
        so: one lies from the other towards the camera's foot, as far as a side face
        would; None where they do not (a neighbour's side face beside a top face, a pair
        lying across the direction, or the foot between them)."""
        a, b = k.middle, c.middle
        offset, down = b - a, self.below - (a + b) / 2
        apart = float(np.linalg.norm(offset))
        if np.linalg.norm(down) < apart:
            return None
        if not self.tilted and self._sight_cosine((a + b) / 2) > np.cos(np.radians(STEEP_SIGHT_DEG)):
            return None       # the foot only guessed, and the side faces too narrow to tell
        cosine = float(offset @ down / (apart * np.linalg.norm(down) + 1e-9))
        if abs(cosine) < CLEAR_DIRECTION or abs(apart / self.side_face_offset((a + b) / 2) - 1) > OFFSET_SLACK:
            return None
        return c if cosine > 0 else k


def squeezed_lean(faces: list[Outlined], shape: tuple[int, ...]) -> tuple[float, float, float] | None:
    """The camera's tilt and the direction of the line to its foot (radians; which end of
    the line the squeezes cannot say) that best explain how the top faces `faces` are
    squeezed, and the mean square misfit; None for fewer than MIN_FOR_SQUEEZE faces."""
    if len(faces) < MIN_FOR_SQUEEZE:
        return None
    centre = np.array([shape[1] / 2, shape[0] / 2])
    points = np.array([f.middle for f in faces]) - centre
    return _best_lean(points, np.array([_squeeze(f.corners) for f in faces]), FOCAL_SHARE * shape[1])


def _leverage(design: np.ndarray, keep: np.ndarray) -> np.ndarray:
    """How much each fitted face pulls the fit towards itself (the hat matrix's diagonal;
    0 for the faces left out): a face alone at an edge of the photo is fitted closely by a
    fit it bends, and its misfit over (1 - leverage) is what a fit without it would leave."""
    fitted = design[keep]
    inverse = np.linalg.pinv(fitted.T @ fitted)
    leverage = np.einsum("ij,jk,ik->i", design, inverse, design)
    return np.where(keep, np.minimum(leverage, 0.95), 0.0)


def _squeeze(corners: np.ndarray) -> np.ndarray:
    """How an outline is squeezed, as (1 - k^2) (cos 2 phi, sin 2 phi): k its short axis
    over its long one, phi the short axis's direction (a line, so its angle doubled)."""
    m = cv2.moments(np.asarray(corners, np.float32))
    spread = np.array([[m["mu20"], m["mu11"]], [m["mu11"], m["mu02"]]])
    values, vectors = np.linalg.eigh(spread)
    (x, y), k2 = vectors[:, 0], max(values[0], 0.0) / max(values[1], 1e-9)
    return (1 - k2) * np.array([x * x - y * y, 2 * x * y])


def _foot_end(along: np.ndarray, sides: np.ndarray, gradient: float) -> int | None:
    """Which end of the line to the foot it lies at (+1: where `along` grows, -1: the
    other), as the faces' sides say: a side goes as 1 + gradient x towards the foot, so
    across the faces' spread their sides should change by a share that the lean foretells.
    None where that share is too small to tell, or the sides change by far more or less
    than it at either end (a cluster of faces, or side faces taken for top faces)."""
    change = np.polyfit(along, sides, 1)[0] * np.ptp(along) / sides.mean()
    for end in (1, -1):
        foretold = gradient * np.ptp(along) / (1 + end * gradient * along.mean())
        if foretold >= SIZES_SAY and 0.5 <= end * change / foretold <= 2:
            return end
    return None


def _best_lean(points: np.ndarray, squeezes: np.ndarray, focal: float) -> tuple[float, float, float]:
    """The camera's tilt and the direction of its foot (radians) that best explain the
    faces' squeezes at `points` (from the photo's centre), and the mean square misfit:
    tried on a grid of 3 degrees of tilt and 9 of direction, then of 1 and 3 round the
    best (the misfit changes smoothly; a fine grid throughout costs ten times as much)."""
    tilt, turn = np.radians(np.arange(0, 61, 3)), np.radians(np.arange(0, 360, 9))
    tilt, turn, _ = _least_misfit(points, squeezes, focal, tilt, turn)
    return _least_misfit(points, squeezes, focal, np.clip(tilt + np.radians(np.arange(-3, 4)), 0, np.radians(60)),
                         turn + np.radians(np.arange(-9, 10, 3)))


def _least_misfit(points: np.ndarray, squeezes: np.ndarray, focal: float, tilts: np.ndarray,
                  turns: np.ndarray) -> tuple[float, float, float]:
    """Of every tilt and direction given, the one whose foreshortening explains the faces'
    squeezes best, with its mean square misfit."""
    tilt, turn = np.meshgrid(tilts, turns, indexing="ij")
    lean = np.tan(tilt)[..., None] * np.stack([np.cos(turn), np.sin(turn)], axis=-1)
    misfit = np.zeros(tilt.shape)
    for point, squeeze in zip(points, squeezes):
        sight = np.array([*point, focal])
        cosine = (lean @ point + focal) / (np.sqrt(1 + (lean ** 2).sum(-1)) * np.linalg.norm(sight))
        to_foot = focal * lean - point
        angle = 2 * np.arctan2(to_foot[..., 1], to_foot[..., 0])
        said = (1 - cosine ** 2)[..., None] * np.stack([np.cos(angle), np.sin(angle)], axis=-1)
        misfit += ((said - squeeze) ** 2).sum(-1)
    best = np.unravel_index(np.argmin(misfit), misfit.shape)
    return float(tilt[best]), float(turn[best]), float(misfit[best] / len(points))
