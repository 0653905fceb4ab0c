"""How much a candidate outline looks like a cube's top face, judged with its surroundings
by a small learned network (trained by `vision.train_faces`, shipped as ONNX, run by
OpenCV's dnn module).

The hand-made signs (square, even, a sharp border, a dark glyph) hold for a side face
too, and for an outline that runs over two touching cubes.  What tells them apart is
round the outline: a top face has its cube's side faces beyond one or two of its edges
and the table beyond the others; a side face has a top face beyond one edge.  So the
network sees the photo round the candidate, straightened by the candidate's own outline
into the middle of a small window, turned to have the camera's foot down (where a top
face's side faces show, and away from which a side face's top face lies), and answers
how well the outline fits a top face."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from vision import networks
from vision.bright import order_all_corners, percentile
from vision.warping import straightened

MODEL_PATH = Path(__file__).parent / "models" / "faces.onnx"
WINDOW = 48                       # pixels of the window the network sees
FACE = 20                         # ... of which the candidate's outline takes the middle
WHITE = 235                       # the window's brightest plastic is scaled to this


def window(small: np.ndarray, corners: np.ndarray, foot: np.ndarray | None = None) -> np.ndarray:
    """The photo round a candidate, its outline straightened to the window's middle
    FACE x FACE square, the brightest (cube plastic) scaled to WHITE: BGR uint8.  With
    the direction of the camera's foot from the candidate, the window is turned (by
    quarter turns) to have that direction down, where a top face's side faces show."""
    return windows(small, [corners], [foot])[0]


def windows(small: np.ndarray, outlines: list[np.ndarray], feet: list) -> np.ndarray:
    """`window` for each outline and foot (None: not known), N x WINDOW x WINDOW x 3."""
    if not len(outlines):
        return np.zeros((0, WINDOW, WINDOW, 3), np.uint8)
    low, high = (WINDOW - FACE) / 2, (WINDOW + FACE) / 2
    seen = straightened(small, _turned(np.asarray(outlines, np.float32), feet), WINDOW, low, high)
    brightest = np.maximum(np.maximum(seen[..., 0], seen[..., 1]), seen[..., 2]).reshape(len(seen), -1)
    white = percentile(brightest.astype(np.float32), 95, axis=1).astype(np.float64) + 1
    scaled = seen.astype(np.float32) * (WHITE / white).astype(np.float32)[:, None, None, None]
    return np.clip(scaled, 0, 255).astype(np.uint8)


def _turned(outlines: np.ndarray, feet: list) -> np.ndarray:
    """Each outline's corners (N x 4 x 2) in turn from the one to be its window's top left:
    clockwise from the top left, or, with the direction of the camera's foot, from the
    corner that puts the edge facing the foot at the window's bottom (corners 2 and 3)."""
    ordered = order_all_corners(outlines)
    facing = np.array([(0.0, 0.0) if foot is None else foot for foot in feet], np.float64)   # none: no turn
    middle = ordered.mean(axis=1)
    bottoms = [(ordered[:, (k + 2) % 4] + ordered[:, (k + 3) % 4]) / 2 - middle for k in range(4)]
    turn = np.argmax(np.stack([(b * facing).sum(axis=1) for b in bottoms], axis=1), axis=1)
    return ordered[np.arange(len(ordered))[:, None], (turn[:, None] + np.arange(4)) % 4]


def topness(small: np.ndarray, outlines: list[np.ndarray], feet: list | None = None,
            path: Path | None = None) -> np.ndarray:
    """For each outline (4 corners in `small`'s pixels), 0..1: how surely it is a top
    face, traced well enough to read its glyph.  `feet`: for each, the direction of the
    camera's foot from it, or None where the camera's place is not known."""
    if not outlines:
        return np.zeros(0)
    feet = feet or [None] * len(outlines)
    seen = windows(small, outlines, feet).transpose(0, 3, 1, 2)
    logits = networks.forward(path or MODEL_PATH, "the face network", "vision.train_faces",
                              seen.astype(np.float32) / 255).reshape(-1)
    return 1.0 / (1.0 + np.exp(-logits.astype(np.float64)))
