"""A Boggle board lies in its tray as a square grid of dice, 4 x 4, 5 x 5 or 6 x 6, with
no cell empty.  Where the faces found fill most of such a grid, a cell left empty holds
a die the finder missed (its face in a wall's shadow and refused as uneven, taken for a
neighbour's side face, or merged into a neighbour's outline): its outline follows from
the grid.

The grid is fitted by a perspective map (a homography) from cell numbers to the faces'
middles, so a board photographed at an angle, its near cells larger, fits as well; the
cell numbers are found by stepping from face to neighbouring face, which holds however
much the cells shrink across the photo."""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.bright import order_all_corners

BOARD_SIDES = (4, 5, 6)   # cells along a Boggle board's side
LEAST_FOUND = 0.6         # of a board's cells found before the rest are looked for
NEIGHBOUR = (0.8, 1.6)    # of a face's side: how far the middle of the next cell's face lies
ALONG_EDGES = 25.0        # degrees: a step to the next cell runs this near a face's edges
STEP_SLACK = 0.3          # of a step: a neighbour's offset is a whole step give or take this
ON_GRID = 0.2             # of a cell: a face's middle lies this near its cell's middle
LEAST_ON_GRID = 0.9       # of the faces found: this many lie on the grid, or it is no board


@dataclass
class Board:
    """What the grid says of the faces found: the outlines (4 x 2 float32, clockwise from
    the top left, in the faces' pixels) of the cells no face fills, and the faces that
    lie in a cell another face fills better (an outline across two dice)."""
    empty: list[np.ndarray] = field(default_factory=list)
    astray: list[int] = field(default_factory=list)


def board_of(outlines: list[np.ndarray]) -> Board | None:
    """The board the outlines of the faces found lie on, or None where they do not lie on
    a board's grid."""
    if len(outlines) < LEAST_FOUND * BOARD_SIDES[0] ** 2:
        return None
    quads = order_all_corners(np.asarray(outlines, np.float32)).astype(np.float64)
    middles = quads.mean(axis=1)
    side = float(np.median(np.linalg.norm(quads - np.roll(quads, 1, axis=1), axis=2)))
    steps = _steps(quads, middles, side)
    if steps is None:
        return None
    numbered = _cell_numbers(middles, steps)
    if len(numbered) < LEAST_ON_GRID * len(quads):
        return None
    faces = np.array(sorted(numbered))
    cells = np.array([numbered[f] for f in faces], np.float64)
    to_photo, cells = _fitted(middles[faces], cells)
    if to_photo is None:
        return None
    low, high = cells.min(axis=0), cells.max(axis=0)
    across = high - low + 1
    # (a row or column wholly missed leaves the board's side in doubt: which side of the
    # found ones it lies on is not known, and a guess would read the tray's rim)
    if across[0] != across[1] or int(across[0]) not in BOARD_SIDES or len(cells) < LEAST_FOUND * across[0] ** 2:
        return None
    # every face in the cell its middle is nearest, the nearest of several the cell's own
    # (a face the steps did not reach, off its cell's middle, still fills its cell)
    to_cells = np.linalg.inv(to_photo)
    in_cells = _mapped(to_cells, middles)
    nearest_cell = np.round(in_cells)
    off = np.linalg.norm(in_cells - nearest_cell, axis=1)
    owner: dict[tuple[int, int], int] = {}
    for face in np.argsort(off):
        owner.setdefault(tuple(nearest_cell[face].astype(int)), int(face))
    board = Board(astray=sorted(set(range(len(quads))) - set(owner.values())))
    missing = [(i, j) for i in range(int(low[0]), int(high[0]) + 1) for j in range(int(low[1]), int(high[1]) + 1)
               if (i, j) not in owner]
    if missing:
        # a face's shape in cell units (where in its cell it lies, turned as the cells
        # are), the typical one of all found: each empty cell's outline is that shape there
        shapes = [order_all_corners(_mapped(to_cells, quads[f])[None])[0] - cell for f, cell in zip(faces, cells)]
        shape = np.median(np.array(shapes), axis=0)
        board.empty = list(order_all_corners(np.array([_mapped(to_photo, shape + np.array(cell, np.float64))
                                                       for cell in missing], np.float32)))
    return board


def _steps(quads: np.ndarray, middles: np.ndarray, side: float) -> np.ndarray | None:
    """The steps (2 x 2, a row each) from a face's middle to the next cell's, along the
    board's two directions, or None where the neighbours make no grid.  The direction
    comes from the faces' edges (a die lies square in its cell), the length from the
    neighbours' offsets."""
    edges = np.roll(quads, -1, axis=1) - quads
    quarter = 4 * np.arctan2(edges[..., 1], edges[..., 0]).reshape(-1)   # edges a quarter turn apart agree
    along = float(np.arctan2(np.sin(quarter).sum(), np.cos(quarter).sum())) / 4
    offsets = (middles[None] - middles[:, None]).reshape(-1, 2)
    length = np.linalg.norm(offsets, axis=1)
    offsets = offsets[(length > NEIGHBOUR[0] * side) & (length < NEIGHBOUR[1] * side)]
    steps = []
    cosine = np.cos(np.radians(ALONG_EDGES))
    for direction in (along, along + np.pi / 2):
        ahead = offsets[offsets @ np.array([np.cos(direction), np.sin(direction)])
                        > cosine * np.linalg.norm(offsets, axis=1)]
        if len(ahead) < 2:
            return None
        steps.append(np.median(ahead, axis=0))
    return np.array(steps)


def _cell_numbers(middles: np.ndarray, steps: np.ndarray) -> dict[int, tuple[int, int]]:
    """Each face's cell (column, row along the two steps), found by stepping from the face
    nearest the board's middle to neighbouring faces one step away: the faces that no
    chain of steps reaches are left out."""
    start = int(np.argmin(np.linalg.norm(middles - np.median(middles, axis=0), axis=1)))
    to_steps = np.linalg.inv(steps.T)
    numbered = {start: (0, 0)}
    taken = {(0, 0)}
    queue = deque([start])
    while queue:
        face = queue.popleft()
        offsets = (middles - middles[face]) @ to_steps.T        # in steps
        whole = np.round(offsets)
        one_step = (np.abs(offsets - whole).max(axis=1) < STEP_SLACK) & (np.abs(whole).sum(axis=1) == 1)
        for other in np.flatnonzero(one_step):
            cell = (numbered[face][0] + int(whole[other, 0]), numbered[face][1] + int(whole[other, 1]))
            if other in numbered or cell in taken:
                continue
            numbered[int(other)] = cell
            taken.add(cell)
            queue.append(int(other))
    return numbered


def _fitted(middles: np.ndarray, cells: np.ndarray) -> tuple[np.ndarray | None, np.ndarray]:
    """The perspective map from cell numbers to the photo, fitted to the faces' middles,
    and the cells as it numbers them: None where a face lies off its cell's middle (the
    faces make no grid) or two faces fall in one cell."""
    for _ in range(3):
        to_photo, _ = cv2.findHomography(cells, middles, 0)
        if to_photo is None:
            return None, cells
        back = _mapped(np.linalg.inv(to_photo), middles)
        renumbered = np.round(back)
        if np.abs(back - renumbered).max() > ON_GRID or len({tuple(c) for c in renumbered}) < len(cells):
            return None, cells
        if (renumbered == cells).all():
            return to_photo, cells
        cells = renumbered
    return None, cells


def _mapped(homography: np.ndarray, points: np.ndarray) -> np.ndarray:
    return cv2.perspectiveTransform(np.asarray(points, np.float64)[None], homography)[0]
