"""A kept face's outline moved to where the face network finds a top face best.

An outline traced or guessed round a glyph can lie off its face: the glyph's mark took
in the cube's dark edge (its middle is then off the letter's), or the border found was
the side face's far edge, not the top face's own.  The glyph is then cut at the edge of
the face, or shares it with a band of side face, and is read wrong (a D read O in a hard
tuning throw, the outline a sixth of a side too low).  The face network, asked about the
same outline moved a little, says where it fits a top face best: each face it is unsure
of is moved, a step at a time, while a move makes it surer."""
from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from vision import face_net
from vision.candidates import OVERLAP, Candidate, Found, overlap

REFIT_BELOW = 0.9         # a kept face the network is less sure of than this is looked for nearby,
FACE_AT_ALL = 0.01        # ... where it takes it for a face at all this surely (a table's mark: 0.00)
STEP = 0.08               # of the side: each move (along either axis, or the outline this much larger or smaller)
MOST_STEPS = 3            # moves, at most (so no more than a quarter of a side off where it was traced)
SURER = 0.15              # the moved outline is taken where the network is this much surer of it


def refitted(found: Found, kept: list[Candidate]) -> list[Candidate]:
    """The kept faces, each the network is unsure of moved to where it fits a top face
    best (in the same order; the others as they were).  A moved face must not come to
    lie on another kept face."""
    unsure = [i for i, c in enumerate(kept) if c.topness is not None and FACE_AT_ALL <= c.topness < REFIT_BELOW]
    if not unsure:
        return kept
    best = {i: (kept[i].ordered.astype(np.float32), kept[i].topness) for i in unsure}
    moving = list(unsure)             # (asked already, so the network is there to ask again)
    for _ in range(MOST_STEPS):
        if not moving:
            break
        tried = [(i, outline) for i in moving for outline in _moves(best[i][0])]
        said = face_net.topness(found.view.small, [outline for _, outline in tried],
                                [_foot(found, outline) for _, outline in tried])
        moved = set()
        for (i, outline), topness in zip(tried, said):
            if topness > best[i][1]:
                best[i] = outline, float(topness)
                moved.add(i)
        moving = [i for i in moving if i in moved]
    result = list(kept)
    for i in unsure:
        outline, topness = best[i]
        if topness < kept[i].topness + SURER:
            continue
        traced = cv2.contourArea(kept[i].ordered.astype(np.float32))
        grown = float(np.sqrt(cv2.contourArea(outline) / max(traced, 1e-6)))
        # (its topness stays the network's first word: the best of a score of outlines
        # asked about is surer than the face is, and a side face moved so came out as a
        # top face at 0.97 where it had been in doubt)
        moved = replace(kept[i], corners=outline, width=kept[i].width * grown, height=kept[i].height * grown)
        if not any(overlap(moved, k) > OVERLAP for j, k in enumerate(result) if j != i):
            result[i] = moved
    return result


def _moves(corners: np.ndarray) -> list[np.ndarray]:
    """The outline moved a step each way along its own axes, and made a step larger and smaller."""
    middle = corners.mean(axis=0)
    across, down = (corners[1] - corners[0]) * STEP, (corners[3] - corners[0]) * STEP
    shifted = [corners + d for d in (across, -across, down, -down)]
    resized = [middle + (1 + s) * (corners - middle) for s in (STEP, -STEP)]
    return [o.astype(np.float32) for o in shifted + resized]


def _foot(found: Found, outline: np.ndarray) -> np.ndarray | None:
    """The direction of the camera's foot from a moved outline, if the camera's place is known."""
    return found.perspective.below - outline.mean(axis=0) if found.perspective else None

