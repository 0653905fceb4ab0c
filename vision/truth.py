"""Scoring readings against a truth file, so anyone can measure the reader on a folder
of photos whose letters they wrote down.

A truth file is a JSON list, one record per photo:
`{"image": "throw-000.jpg", "cubes": [{"letter": "E", "red": false, "x": 1096.7, "y": 707.1}, ...],
"size": 72.3, "vulnerable": true, "red_set": "classic"}` with x, y the centre of each cube's top
face in pixels and size the side of a top face in pixels (optional: guessed from the
spacing of the cubes if missing).  A reading within 0.6 x size of a centre belongs to
that cube; a reading that belongs to no cube is a phantom."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

REACH = 0.6                 # of the face's side: how far a reading may be from the true centre


@dataclass
class CubeTruth:
    """A cube as it truly lies: its top face's letter, ink and middle (photo pixels)."""
    letter: str
    red: bool | None        # None where a truth file does not say (its colour is then not checked)
    x: float
    y: float


def true_cubes(record: dict) -> list[CubeTruth]:
    """The cubes a truth file's record gives."""
    return [CubeTruth(c["letter"], c.get("red"), c["x"], c["y"]) for c in record["cubes"]]


def match(readings, truths, radius: float) -> tuple[dict[int, int], list[int]]:
    """Pair readings with true cubes one to one, nearest pairs first, never farther apart
    than `radius` (both have `x` and `y`): {truth index: reading index}, and the readings
    left over (phantoms)."""
    pairs = sorted((float(np.hypot(r.x - t.x, r.y - t.y)), ti, ri)
                   for ti, t in enumerate(truths) for ri, r in enumerate(readings))
    owner: dict[int, int] = {}
    used: set[int] = set()
    for distance, ti, ri in pairs:
        if distance < radius and ti not in owner and ri not in used:
            owner[ti] = ri
            used.add(ri)
    return owner, [ri for ri in range(len(readings)) if ri not in used]


class TruthFileError(ValueError):
    """The truth file cannot be used."""


@dataclass
class PhotoScore:
    image: str
    cubes: int = 0
    found: int = 0
    right: int = 0
    phantoms: int = 0
    silent_wrong: int = 0          # a wrong letter not marked uncertain
    colour_wrong: int = 0          # a cube found read red where its ink is black, or black where red
    pairs: list[tuple[float, bool]] = field(default_factory=list)   # (confidence, right) per reading

    @property
    def all_right(self) -> bool:
        return self.right == self.cubes and self.phantoms == 0


def load_truth(path: str | Path) -> dict[str, dict]:
    """The truth records by image file name."""
    try:
        records = json.loads(Path(path).read_text())
    except OSError as exc:
        raise TruthFileError(f"{path}: cannot read the truth file ({exc.strerror}).") from exc
    except json.JSONDecodeError as exc:
        raise TruthFileError(f"{path}: not JSON ({exc.msg} at line {exc.lineno}).") from exc
    if not isinstance(records, list) or not all(isinstance(r, dict) and "image" in r and "cubes" in r
                                                for r in records):
        raise TruthFileError(f"{path}: expected a list of {{\"image\", \"cubes\": [...]}} records.")
    return {Path(r["image"]).name: r for r in records}


def set_and_count(record: dict | None, cube_set: str) -> tuple[str, int | None]:
    """The cube set and number of cubes a truth record gives, as the game knows them, else
    the command's set and no count (a record that does not say whether the throw is a
    Perquackey one: any letter dice)."""
    if record is None or "vulnerable" not in record:
        return cube_set, None
    red_set = record.get("red_set", cube_set)
    return red_set, len(record["cubes"]) if red_set != "any" else None


def face_side(record: dict) -> float:
    """The side of a top face in the record's photo, pixels: its `size`, or guessed from
    the spacing of its cubes."""
    if record.get("size"):
        return float(record["size"])
    centres = np.array([(c["x"], c["y"]) for c in record["cubes"]], float)
    if len(centres) < 2:
        return 60.0
    gaps = np.linalg.norm(centres[:, None] - centres[None], axis=2) + np.eye(len(centres)) * 1e9
    return float(np.median(gaps.min(axis=1)) * 0.8)


def score_photo(image: str, cubes, record: dict) -> PhotoScore:
    """Each reading is paired with a true cube within reach, nearest pairs first (one
    reading per cube: a second reading on the same cube counts as a phantom).  A cube's
    ink colour is checked where its record gives `red`."""
    truth = true_cubes(record)
    owner, phantoms = match(cubes, truth, REACH * face_side(record))
    score = PhotoScore(image, cubes=len(truth), found=len(owner), phantoms=len(phantoms))
    score.pairs = [(cubes[ri].confidence, False) for ri in phantoms]    # a phantom is a wrong reading
    for ti, ri in owner.items():
        got, true = cubes[ri], truth[ti]
        right = got.letter.upper() == true.letter.upper()
        score.right += right
        score.silent_wrong += (not right) and not got.uncertain
        score.colour_wrong += true.red is not None and bool(got.red) != true.red
        score.pairs.append((got.confidence, right))
    return score


def summary_lines(scores: list[PhotoScore]) -> list[str]:
    """The totals and a reliability table: how often a reading at each confidence is right."""
    cubes = sum(s.cubes for s in scores) or 1
    lines = [f"photos {len(scores)}: cubes {cubes}, found {sum(s.found for s in scores)} "
             f"({100 * sum(s.found for s in scores) / cubes:.1f} %), right {sum(s.right for s in scores)} "
             f"({100 * sum(s.right for s in scores) / cubes:.1f} %), phantoms {sum(s.phantoms for s in scores)}, "
             f"silent wrong {sum(s.silent_wrong for s in scores)}, red/black wrong "
             f"{sum(s.colour_wrong for s in scores)}, photos all right "
             f"{sum(s.all_right for s in scores)}/{len(scores)}"]
    pairs = [p for s in scores for p in s.pairs]
    for low, high in ((0.95, 1.01), (0.85, 0.95), (0.5, 0.85), (0.0, 0.5)):
        band = [right for confidence, right in pairs if low <= confidence < high]
        if band:
            lines.append(f"  confidence {low:.2f}-{min(high, 1):.2f}: {len(band)} readings, "
                         f"{100 * sum(band) / len(band):.1f} % right")
    return lines
