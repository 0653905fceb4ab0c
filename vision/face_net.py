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

import cv2
import numpy as np

from vision import networks
from vision.bright import order_corners
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
    low, high = (WINDOW - FACE) / 2, (WINDOW + FACE) / 2
    seen = straightened(small, np.array([_turned(corners, foot) for corners, foot in zip(outlines, feet)]),
                        WINDOW, low, high).astype(np.float32)
    white = np.percentile(seen.max(axis=3).reshape(len(seen), -1), 95, axis=1).astype(np.float64) + 1
    return np.clip(seen * (WHITE / white).astype(np.float32)[:, None, None, None], 0, 255).astype(np.uint8)


def _turned(corners: np.ndarray, foot: np.ndarray | None) -> np.ndarray:
    """The outline's corners in turn from the one to be the window's top left."""
    outline = order_corners(corners)
    if foot is not None:
        middle = outline.mean(axis=0)
        # the turn that puts the edge facing the foot at the window's bottom (corners 2, 3)
        turn = int(np.argmax([(np.roll(outline, -k, axis=0)[2:].mean(axis=0) - middle) @ foot for k in range(4)]))
        outline = np.roll(outline, -turn, axis=0)
    return outline


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
