"""A photo of a throw -> the letter and ink colour of every cube's top face.

Faces are found and straightened (faces.py), the ink separated and its colour judged
(glyphs.py), each glyph compared with reference letters in all four quarter turns
(classifier.py); then the readings are matched to the known cubes (assign.py), which
settles most look-alikes.  A reading the reader is not sure of is marked uncertain."""
from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field

import numpy as np

from firmware.games import perquackey as pq
from vision.assign import assign
from vision.classifier import LETTERS, letter_distances
from vision.faces import find_faces
from vision.glyphs import extract_ink

CUBE_SETS = ("classic", "later", "any")
TEMPERATURE = 0.02         # how fast confidence falls as another letter comes near
CONFIDENT = 0.85           # below this a reading is marked uncertain
COLOUR_COST = 1.0          # a red reading on a black cube (or the reverse) costs this much


class CubeCountError(ValueError):
    """The photo does not show the number of cubes the throw has."""


@dataclass
class CubeReading:
    letter: str
    red: bool
    x: float
    y: float
    confidence: float
    uncertain: bool
    cube: int | None = None                 # index in the cube list, when a cube set is known
    faces: str = ""                         # the letters that cube carries
    turns: int = 0                          # quarter turns that make the glyph upright

    def as_json(self) -> dict:
        return {"letter": self.letter, "red": self.red, "x": round(self.x, 1), "y": round(self.y, 1),
                "confidence": round(self.confidence, 3), "uncertain": self.uncertain}


@dataclass
class Reading:
    cubes: list[CubeReading] = field(default_factory=list)
    cube_faces: tuple[str, ...] = ()
    ms: float = 0.0

    @property
    def letters_by_cube(self) -> list[str]:
        letters = ["?"] * len(self.cube_faces)
        for c in self.cubes:
            if c.cube is not None:
                letters[c.cube] = c.letter
        return letters

    @property
    def unsure_by_cube(self) -> list[bool]:
        unsure = [True] * len(self.cube_faces)
        for c in self.cubes:
            if c.cube is not None:
                unsure[c.cube] = c.uncertain
        return unsure


def _confidence(distances: np.ndarray, chosen: int) -> float:
    weights = np.exp(-(distances - distances.min()) / TEMPERATURE)
    return float(weights[chosen] / weights.sum())


def cube_list(cube_set: str, count: int) -> tuple[str, ...]:
    """The cubes a photo with `count` faces shows: the 10 black ones, plus the 3 red ones
    of the set when there are more than 10 faces."""
    if cube_set == "any":
        return ()
    return pq.cubes(count > len(pq.BLACK_CUBES), cube_set)


def read_image(image: np.ndarray, cube_set: str = "classic", expected: int | None = None) -> Reading:
    if cube_set not in CUBE_SETS:
        raise ValueError(f"Unknown cube set {cube_set!r}: choose classic, later or any.")
    start = time.perf_counter()
    found = []
    for face in find_faces(image):
        ink = extract_ink(face.square)
        if ink is not None:
            distances, turns = letter_distances(ink.mask, ink.bar_below)
            found.append((face, ink, distances, turns))
    count = len(found)
    cubes = cube_list(cube_set, expected or count)
    if cubes and count > len(cubes):
        raise CubeCountError(f"Found {count} cubes but the set has only {len(cubes)}: is something else on the table?")
    reading = Reading(cube_faces=cubes)
    if cubes and found:
        red_cube = np.array([i >= len(pq.BLACK_CUBES) for i in range(len(cubes))])
        cost = np.zeros((count, len(cubes)))
        for r, (_, ink, distances, _) in enumerate(found):
            for c, faces in enumerate(cubes):
                cost[r, c] = min(distances[LETTERS.index(ch)] for ch in set(faces))
                cost[r, c] += COLOUR_COST * (ink.red != red_cube[c])
        owners = assign(cost)
    else:
        owners = [None] * count
    for (face, ink, distances, turns), cube in zip(found, owners):
        faces = cubes[cube] if cube is not None else LETTERS
        chosen = min((LETTERS.index(ch) for ch in set(faces)), key=lambda i: distances[i])
        confidence = _confidence(distances, chosen)
        uncertain = confidence < CONFIDENT or int(np.argmin(distances)) != chosen
        reading.cubes.append(CubeReading(LETTERS[chosen], ink.red, face.centre[0], face.centre[1], confidence,
                                         uncertain, cube, faces if cube is not None else "", int(turns[chosen])))
    reading.cubes.sort(key=lambda c: (c.y, c.x))
    reading.ms = (time.perf_counter() - start) * 1000
    return reading


def read_throw(frame: np.ndarray, vulnerable: bool, red_set: str = "classic") -> Reading:
    """Read a Perquackey throw at the table: the number of cubes is known (10, or 13 when
    vulnerable), and a photo that shows another number gets a plain message."""
    expected = len(pq.cubes(vulnerable, red_set))
    reading = read_image(frame, red_set, expected)
    if len(reading.cubes) != expected:
        seen = len(reading.cubes)
        if seen == 0:
            raise CubeCountError("No cubes found: check that the camera sees the table and the light is on.")
        raise CubeCountError(f"Found {seen} cubes, but this throw has {expected}: spread them so none hides "
                             f"another, or key the letters in.")
    return reading


__all__ = ["read_image", "read_throw", "Reading", "CubeReading", "CubeCountError", "CUBE_SETS", "asdict"]
