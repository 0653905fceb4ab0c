"""Which letter a glyph is, and which quarter turn makes it upright, by two small learned
networks averaged (trained by `vision.train_letters`, shipped as ONNX, run by OpenCV's
dnn module, so the box needs nothing beyond OpenCV).

Each network answers for 27 letters x 4 quarter turns at once, plus "not a letter": one
forward pass each for all the glyphs of a photo."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from vision import networks
from vision.classifier import BARRED_LETTERS, LETTERS, PLAIN
from vision.glyphs import GLYPH, normalise
from vision.networks import ModelMissing  # noqa: F401  (raised here, caught by the reader)

MODEL_PATH = Path(__file__).parent / "models" / "letters.onnx"         # the plain network ...
SHEARED_PATH = MODEL_PATH.with_name("letters-sheared.onnx")            # ... and the sheared one
INPUT = GLYPH                     # the network sees the glyph as `normalise` makes it
LETTER_CLASSES = len(LETTERS)     # A-Z and "Qu", in the classifier's order
CLASSES = LETTER_CLASSES * 4 + 1  # each letter in each quarter turn, then "not a letter"
NOT_A_LETTER = CLASSES - 1


@dataclass
class NetReading:
    probabilities: np.ndarray     # per letter (26, or 27 with "Qu"), summing to 1
    turns: np.ndarray             # per letter, the quarter turn that fits it best
    letterness: float             # how sure the network is that this is a letter at all, 0..1

    @property
    def sureness(self) -> float:
        """How sure the network is of its likeliest letter, and that it is a letter at all."""
        return float(self.probabilities.max()) * self.letterness


def scores(glyphs: np.ndarray, path: Path | None = None) -> np.ndarray:
    """The probabilities (N, CLASSES) for normalised glyphs (N, INPUT, INPUT): the plain
    and the sheared network's averaged (see `vision.train_letters`), or `path`'s alone.
    Averaged, they lost a few letters fewer on the tuning throws than either alone
    (`vision/HISTORY.md`, 2026-12-06)."""
    paths = [path] if path else [MODEL_PATH, SHEARED_PATH]
    return np.mean([_probabilities(p, glyphs) for p in paths], axis=0)


def _probabilities(path: Path, glyphs: np.ndarray) -> np.ndarray:
    logits = networks.forward(path, "the letter network", "vision.train_letters",
                              glyphs.astype(np.float32)[:, None] / 255).astype(np.float64)
    weights = np.exp(logits - logits.max(axis=1, keepdims=True))
    return weights / weights.sum(axis=1, keepdims=True)


def read_glyphs(glyphs: list[tuple[np.ndarray, int | None]], qu: bool = False,
                path: Path | None = None) -> list[NetReading]:
    """For each (mask, turns) -- `turns` the quarter turn an orientation bar says, if one
    was seen, which settles it for the letters dice bar -- the probability of each letter
    (and "Qu" if `qu`) and the quarter turn that fits it best."""
    if not glyphs:
        return []
    p = scores(np.array([normalise(mask) for mask, _ in glyphs]), path)
    letters = LETTER_CLASSES if qu else PLAIN
    readings = []
    for row, (_, fixed) in zip(p, glyphs):
        by_turn = row[:-1].reshape(LETTER_CLASSES, 4)[:letters]
        chances, turns = by_turn.sum(axis=1), by_turn.argmax(axis=1)
        if fixed is not None:
            chances[BARRED_LETTERS], turns[BARRED_LETTERS] = by_turn[BARRED_LETTERS, fixed], fixed
        readings.append(NetReading(chances / max(chances.sum(), 1e-12), turns, 1.0 - float(row[-1])))
    return readings
