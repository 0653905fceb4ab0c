"""The small learned networks the reader ships as ONNX files, run by OpenCV's dnn module
(so the box needs nothing beyond OpenCV): loaded once, one forward pass at a time."""
from __future__ import annotations

import threading
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

_RUNNING = threading.Lock()       # one OpenCV network must not run two inputs at once


class ModelMissing(RuntimeError):
    """A network's file is missing or unreadable."""


@lru_cache(maxsize=8)
def _load(path: Path, name: str, trainer: str) -> cv2.dnn.Net:
    if not path.exists():
        raise ModelMissing(f"{name} {path} is missing (reinstall TableMate, or train it again "
                           f"with `python -m {trainer}`)")
    try:
        return cv2.dnn.readNetFromONNX(str(path))
    except cv2.error as exc:
        raise ModelMissing(f"{name} {path} could not be read ({str(exc).strip().splitlines()[-1]}); "
                           f"reinstall TableMate, or train it again with `python -m {trainer}`") from None


def forward(path: Path, name: str, trainer: str, batch: np.ndarray) -> np.ndarray:
    """The network's raw outputs for a float32 batch (N, channels, height, width)."""
    net = _load(path, name, trainer)
    with _RUNNING:
        net.setInput(np.ascontiguousarray(batch, np.float32))
        return net.forward().reshape(len(batch), -1)
