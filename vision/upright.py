"""Which way up a photo is read: with the camera's foot (the table nearest it) at the
bottom, as a photo held in the hand is taken.  A camera fixed on the box may be mounted
any way round, and a photo may come turned (a phone's picture with its turn lost), but
a steep view turned round reads worse than the same view upright (40 held renders turned
a quarter: 14 phantom dice against 2, 19 dice missed against 10), as every throw the
finder and its face network were shaped on was upright.  So a steep photo whose faces
say the foot lies another way is turned a quarter, a half or three quarters before it
is read, and what is found in it is placed back in the photo as it came."""
from __future__ import annotations

import math

import numpy as np

from vision.candidates import Found
from vision.faces import sure_once
from vision.perspective import AREA_POWER, squeezed_lean

STEEP_DEG = 15            # a view this far from the vertical shows side faces that tell which way is up
TURN_PAST_DEG = 60        # a photo is turned only where its foot lies this far round from straight down
                          # (a photo taken a little askew is read as it is: a turn costs a second search)
AGREE_DEG = 30            # ... and where the top faces' squeeze puts the line to the foot this near where
                          # their sizes do (a photo the right way up whose sizes alone said otherwise, turned,
                          # was read worse)


def turns_upright(found: Found) -> int:
    """The quarter turns (numpy's `rot90`, anticlockwise) that put the camera's foot at
    the bottom of the photo the candidates were `found` in: 0 where the view is not
    steep enough to say, the faces' sizes and squeeze disagree, or it is upright."""
    sight = found.perspective
    if sight is None or not sight.tilted:
        return 0
    toward = sight.below - sight.centre
    length = float(np.linalg.norm(toward))
    # (the foot's offset is what the faces' sizes say; the camera leans AREA_POWER of that)
    if math.degrees(math.atan(AREA_POWER * length / sight.focal)) < STEEP_DEG:
        return 0
    if toward[1] / length >= math.cos(math.radians(TURN_PAST_DEG)):
        return 0
    lean = squeezed_lean(sure_once(found.candidates), found.view.small.shape)
    if lean is None or abs(math.cos(math.atan2(toward[1], toward[0]) - lean[1])) < math.cos(math.radians(AGREE_DEG)):
        return 0
    # a quarter turn anticlockwise takes the direction (x, y) to (y, -x)
    turned = [toward]
    for _ in range(3):
        turned.append(np.array([turned[-1][1], -turned[-1][0]]))
    return int(np.argmax([t[1] for t in turned]))


def turn(image: np.ndarray | None, turns: int) -> np.ndarray | None:
    """The image turned `turns` quarters anticlockwise (None stays None)."""
    return image if image is None or not turns else np.ascontiguousarray(np.rot90(image, turns))


def turned_points(points: np.ndarray, turns: int, shape: tuple[int, ...]) -> np.ndarray:
    """Points (..., 2: x, y) of a photo of `shape`, where they lie in it turned `turns`
    quarters anticlockwise."""
    points = np.asarray(points, np.float64)
    height, width = shape[:2]
    for _ in range(turns):
        # one quarter anticlockwise takes (x, y) to (y, width - 1 - x)
        points = np.stack([points[..., 1], width - 1 - points[..., 0]], axis=-1)
        height, width = width, height
    return points


def placed_back(points: np.ndarray, turns: int, shape: tuple[int, ...]) -> np.ndarray:
    """Points (..., 2: x, y) found in a photo of `shape` turned `turns` quarters, placed
    in the photo as it came (turned on round the rest of the way)."""
    turned_shape = shape[:2] if turns % 2 == 0 else shape[1::-1][:2]
    return turned_points(points, (4 - turns) % 4, turned_shape)
