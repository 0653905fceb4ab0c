"""Which letter a glyph is: nearest neighbours among reference glyphs rendered from the
fonts TableMate ships, in many stroke weights, widths and small tilts, compared in all
four quarter turns (a cube lands any way up)."""
from __future__ import annotations

import itertools
import string
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np
from PIL import ImageDraw

from vision.glyphs import features, many_features, normalise, rotations
from vision.render import BARRED, SHIPPED_FONTS, glyph_tile

LETTERS = tuple(string.ascii_uppercase) + ("Qu",)    # Boggle's "Qu" face is one class of its own
PLAIN = 26                  # the first 26 classes are the single letters
TILE = 96
TILTS = (-7.0, 0.0, 7.0)
STRETCHES = (0.8, 1.0, 1.2)
WEIGHTS = (-1, 0, 1)        # erode, as is, dilate: thinner and bolder strokes
NEIGHBOURS = 3
# the letters a bar settles the way up of: those that look alike turned (dice bar them);
# any other letter shows its own way up, and a line under it is the cube's edge or a gap
BARRED_LETTERS = np.array(sorted(LETTERS.index(ch) for ch in BARRED))


@dataclass(frozen=True)
class References:
    vectors: np.ndarray      # one HOG row per reference glyph, grouped by letter
    letters: np.ndarray      # the letter index of each row
    starts: np.ndarray       # where each letter's rows start (and, last, where they end)
    norms: np.ndarray        # each row's squared length


def _variants(letter: str, font, stretch: float):
    """The letter as the font draws it, and the common shapes other fonts give it: many
    sans fonts draw the tail of Q across the bowl, not below it."""
    tile = glyph_tile(letter, font, TILE, stretch=stretch)
    yield tile
    if letter == "Q":
        o = glyph_tile("O", font, TILE, stretch=stretch)
        box = o.getbbox()
        if box:
            left, top, right, bottom = box
            w, h = right - left, bottom - top
            draw = ImageDraw.Draw(o)
            draw.line((left + 0.55 * w, top + 0.62 * h, left + 1.0 * w, top + 1.02 * h), fill=255,
                      width=max(2, int(0.12 * w)))
            yield o


def _masks(base) -> Iterator[np.ndarray]:
    """One reference shape in every tilt and stroke weight."""
    kernel = np.ones((3, 3), np.uint8)
    for tilt in TILTS:
        mask = (np.array(base.rotate(tilt, resample=3), np.uint8) > 127).astype(np.uint8) * 255
        for weight in WEIGHTS:
            if weight > 0:
                yield cv2.dilate(mask, kernel, iterations=2)
            elif weight < 0:
                yield cv2.erode(mask, kernel, iterations=2)
            else:
                yield mask


@lru_cache(maxsize=1)
def references() -> References:
    """Built once per process (about a second on a PC)."""
    vectors, letters = [], []
    for font, (index, letter), stretch in itertools.product(SHIPPED_FONTS, enumerate(LETTERS), STRETCHES):
        for base in _variants(letter, font, stretch):
            for mask in _masks(base):
                vectors.append(features(normalise(mask)))
                letters.append(index)
    order = np.argsort(letters, kind="stable")
    letters = np.array(letters)[order]
    starts = np.searchsorted(letters, np.arange(len(LETTERS) + 1))
    vectors = np.array(vectors, np.float32)[order]
    return References(vectors, letters, starts, (vectors * vectors).sum(axis=1))


def letter_distances(mask: np.ndarray, turns: int | None = None, qu: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """For each of the 26 letters (and "Qu" if `qu`), the distance of this glyph to it
    (the mean of its nearest references, in the quarter turn that fits best) and that
    quarter turn.  `turns`, the quarter turn an orientation bar says, if one was seen,
    fixes the turn of the letters dice bar (BARRED_LETTERS)."""
    return many_letter_distances([(mask, turns)], qu)[0]


def many_letter_distances(glyphs: list[tuple[np.ndarray, int | None]],
                          qu: bool = False) -> list[tuple[np.ndarray, np.ndarray]]:
    """letter_distances for (mask, turns) of every glyph of a photo at once: one product
    with the references for them all (a product per glyph costs as much as one for ten)."""
    if not glyphs:
        return []
    refs = references()
    v = many_features(np.array([turned for mask, _ in glyphs for turned in rotations(mask)]))
    # squared distances to every reference in every quarter turn at once
    # (references x glyph, not glyph x references transposed: ten times faster in numpy)
    d = np.sqrt(np.maximum((v * v).sum(1)[:, None] - 2 * (refs.vectors @ v.T).T + refs.norms[None, :], 0))
    classes = len(LETTERS) if qu else PLAIN
    near = np.empty((len(v), classes), np.float32)
    for index in range(classes):
        group = d[:, refs.starts[index]:refs.starts[index + 1]]
        near[:, index] = np.partition(group, NEIGHBOURS, axis=1)[:, :NEIGHBOURS].mean(axis=1)
    results = []
    for (_, fixed), rows in zip(glyphs, near.reshape(len(glyphs), 4, classes)):
        distances, turns = rows.min(axis=0), rows.argmin(axis=0)
        if fixed is not None:
            distances[BARRED_LETTERS], turns[BARRED_LETTERS] = rows[fixed, BARRED_LETTERS], fixed
        results.append((distances, turns))
    return results
