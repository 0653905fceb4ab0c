"""The top faces among a photo's candidates, each straightened into a square.

The candidates go the most face-like first.  Overlapping ones are one face.  A face
lying against a kept one closer than a whole face, and lit or sized differently, is
that cube's side face, unless the face network takes both for top faces (two touching
cubes); which of the two is the top face is voted on (`_top_of`), and where the signs
disagree the reading is left in doubt.  A kept face the face network is unsure of is
moved where it fits a top face better (`refit`).  Faces refused by a little are held in
reserve, for the reader to take where the throw's count lacks a cube."""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.candidates import (OVERLAP, PALEST_PRINT, SIZES, Candidate, Found, near, overlap, print_contrast,
                               refusal, size_fit)
from vision.perspective import Perspective
from vision.refit import refitted

FACE_PIXELS = 96          # the straightened face
BRIGHTER = 1.08           # of two joined faces, one this much brighter is the top one
ALIKE = 0.7               # of two joined faces, one less than this share as face-like (to the network) is the side face
NO_FACE = 0.05            # ... and one less than this share is no face at all: no other sign leaves the other in doubt
JOINED_STEEP = 1.15       # of a face's own side: a face closer than this beside it, lit or sized
FORESHORTENED = 0.7       # differently, is its side face (a side face seen steeply is nearly as tall)
GUESS_FIT = 0.9           # and its size as this good a fit: it has the expected size by making, not by finding
MOST_FACES = 48           # faces kept, the most face-like first: twice the largest board of cubes.  Wood grain or
                          # print can pass for hundreds of faces the network all but rules out; each costs a reading
CROWDED = f"past the {MOST_FACES} most face-like faces"    # the reason such an outline was rejected
FAR_PART = "the far part of a steep view, looked at again on its own"   # a box, not a candidate (see faces.far_part)
TOO_CLOSE = 0.9           # of the side: two top faces' middles are a side apart or more (slack for the outlines)
BOTH_TOPS = 0.5           # two joined faces the face network both takes for top faces this surely are two cubes
RESERVE_SQUARE = 0.45     # a refused candidate this square (a face a little foreshortened) ...
RESERVE_TOP = 0.25        # ... that the face network takes this surely for a top face is held in reserve,
RESERVE_APART = TOO_CLOSE  # ... where it lies as far from every kept face as two top faces' middles are
NEAR_FOOT = 1.5           # a face near the camera's foot may be as large as the camera's place says a face is
                          # there, up to this many times the side learned (its usual third at most is for
                          # the faces guessed: the near cubes of steep portrait photos were twice the side)
ANY_FACE = 0.01           # the face network takes an outline this surely for a face at all (a shadow's, the
                          # table's: 0.00)


@dataclass
class Face:
    corners: np.ndarray    # 4x2 float32, in the input image's pixels, clockwise
    centre: tuple[float, float]
    square: np.ndarray     # FACE_PIXELS x FACE_PIXELS BGR, straightened
    likeness: float = 1.0      # how much the candidate looked like a top face, 0..1
    rival: float = 0.0         # likeness of a face joined to this one that was taken for its side face
    aside: bool = False        # it lies where a kept face's side face would (the camera's place says),
                               # or too close to a more face-like one for both to be top faces
    reserve: str = ""          # why it was refused, for a face held in reserve (see `_reserves`)


@dataclass
class Rejected:
    corners: np.ndarray
    reason: str


@dataclass
class Search:
    """What the finder saw: the faces kept, the candidates rejected and why, and the side
    of a top face it learned (in the input image's pixels)."""
    faces: list[Face] = field(default_factory=list)
    rejected: list[Rejected] = field(default_factory=list)
    side: float = 0.0
    reserve: list[Face] = field(default_factory=list)     # refused, but cubes where the count lacks them
    notes: list[str] = field(default_factory=list)
    far: tuple[int, int, int, int] | None = None           # where the faces are far smaller (see faces.far_part)


def select(image: np.ndarray, found: Found) -> Search:
    """The top faces among the candidates: each face once, never a side face."""
    scale, side, candidates = found.scale, found.side, found.candidates
    search = Search(side=side / scale, notes=list(found.notes))
    sight = found.sight               # (straight down, a guess: see Perspective.side_of)
    kept: list[Candidate] = []
    refused: list[tuple[Candidate, str]] = []
    rival: dict[int, float] = {}
    throw_print = print_contrast(candidates)
    # the most face-like first, and of those the nearest the learned size (an outline
    # that jumped the gap to a touching cube's far edge is too large)
    # (a guessed face's size proves nothing: a traced outline near the learned size goes
    # before the guess round the same glyph, whose place is only the glyph's)
    for c in sorted(candidates, key=lambda c: -c.score * (GUESS_FIT if c.guessed else
                                                          size_fit(c.area, found.side_at(c.middle)))):
        if len(kept) >= MOST_FACES:
            search.rejected.append(Rejected(c.ordered / scale, CROWDED))
            continue
        reason = refusal(c, side, throw_print, found.side_at(c.middle, NEAR_FOOT))
        if reason:
            refused.append((c, reason))
            continue
        nearby = [k for k in kept if near(c, k)]
        if any(overlap(c, k) > OVERLAP and not _joined(c, k) for k in nearby):
            search.rejected.append(Rejected(c.ordered / scale, "overlaps a squarer face (a second seed on it)"))
            continue
        # (two overlapping faces are never two cubes, whatever the network says of them)
        joined = next((k for k in nearby if _joined(c, k)
                       and (not _both_top_faces(c, k) or overlap(c, k) > OVERLAP)), None)
        if joined is not None:
            top, side_face, disputed = _top_of(c, joined, side, sight)
            if top is c:
                kept = [c if k is joined else k for k in kept]
            # where the signs disagreed, the reading must not come out sure either way
            rival[id(top)] = max(rival.get(id(top), 0.0), top.score if disputed else side_face.score)
            search.rejected.append(Rejected(side_face.ordered / scale,
                                            "a side face of the face it joins (less face-like, nearer the camera's foot or darker)"))
            continue
        kept.append(c)
    refit = refitted(found, kept)
    rival = {id(new): rival[id(old)] for old, new in zip(kept, refit) if id(old) in rival}
    kept = refit
    # two faces closer than two cubes' top faces can be (in one plane, the table's, a
    # side apart or more): one is a side face the signs did not tell, and either may be
    pairs = [(c, k) for i, c in enumerate(kept) for k in kept[i + 1:] if near(c, k)]
    crowded: list[tuple[Candidate, Candidate]] = []
    for c, k in pairs:
        middles = c.middle, k.middle
        # (the side there as the camera's place says, or as the larger face's own
        # traced outline says where that is larger: the place is only a fit)
        traced = [np.sqrt(f.area) for f in (c, k) if not f.guessed]
        face_side = max([found.side_at((middles[0] + middles[1]) / 2)] + traced)
        if np.linalg.norm(middles[0] - middles[1]) < TOO_CLOSE * face_side:
            rival[id(c)] = max(rival.get(id(c), 0.0), k.score)
            rival[id(k)] = max(rival.get(id(k), 0.0), c.score)
            crowded.append((c, k))
    aside = _aside(kept, pairs, crowded, candidates, sight)
    for c in kept:
        search.faces.append(_face(image, c, scale, rival.get(id(c), 0.0), id(c) in aside))
    held = _reserves(found, kept, refused)
    for c, reason in refused:
        if id(c) in held:
            search.reserve.append(_face(image, c, scale, reserve=reason))
        else:
            search.rejected.append(Rejected(c.ordered / scale, reason))
    return search


def _aside(kept: list[Candidate], pairs: list[tuple[Candidate, Candidate]],
           crowded: list[tuple[Candidate, Candidate]], candidates: list[Candidate],
           sight: Perspective | None) -> set[int]:
    """The kept faces (their ids) that may be another's side face.  A kept face lying from
    another towards the camera's foot, as far as that one's side face would, may be its
    side face however alike the two look (lit alike, the network sure of both, as at the
    photo's far edges): where the count says a face is one too many, it is the likelier
    to go, and with no count it is a die only if the network is sure of it (see the
    reader).  Unless it has a face of its own where its side face would be: a side face
    has the table beyond it, a touching cube's top face its own side face."""
    aside: set[int] = set()
    if sight is not None:
        for c, k in pairs:
            side_face = sight.side_of(c, k)
            if side_face is not None:
                aside.add(id(side_face))
    # and of two faces too close to be two top faces where the camera's place tells
    # neither for the other's side face (its place only a fit), the less face-like (two
    # touching cubes' side faces side by side at the far edge, both taken for faces)
    for c, k in crowded:
        if id(c) not in aside and id(k) not in aside:
            aside.add(id(min(c, k, key=lambda f: f.score)))
    if sight is None:
        return aside
    return {id(c) for c in kept if id(c) in aside and not any(
        x is not c and near(c, x) and (x.topness or 0.0) >= ANY_FACE and sight.side_of(c, x) is x
        and overlap(c, x) <= OVERLAP for x in candidates)}


def _face(image: np.ndarray, c: Candidate, scale: float, rival: float = 0.0, aside: bool = False,
          reserve: str = "") -> Face:
    corners = c.ordered / scale
    return Face(corners, tuple(corners.mean(axis=0).tolist()), warp(image, corners), c.score, rival, aside, reserve)


def _reserves(found: Found, kept: list[Candidate], refused: list[tuple[Candidate, str]]) -> set[int]:
    """The refused candidates held in reserve (their ids): a top face can fail a test
    by a little (a red letter pale in grey, a face a little foreshortened, or shaded
    unevenly), and where the throw's count then lacks a cube, a shadow or a side face
    takes its place.  Held are those that pass the tests loosened (RESERVE_SQUARE, the
    palest print's contrast) and that the face network takes for a top face fairly
    surely (RESERVE_TOP), a top face's side from every kept face and from each other:
    never a kept cube's side face.  The reader takes one only where it fits the count
    better than a kept face (see the reader's `_keep_fitting`)."""
    side = found.side
    loose = [c for c, _ in refused if c.squareness >= RESERVE_SQUARE and c.contrast >= PALEST_PRINT
             and SIZES[0] * side * side < c.area < SIZES[1] * side * side]
    unjudged = [c for c in loose if c.topness is None]
    if unjudged:
        found.judge(asked=unjudged)
    held: list[Candidate] = []
    for c in sorted(loose, key=lambda c: -(c.topness or 0.0)):
        apart = RESERVE_APART * found.side_at(c.middle)
        if (c.topness or 0.0) >= RESERVE_TOP and all(math.dist(c.middle, k.middle) >= apart for k in kept + held):
            held.append(c)
    return {id(c) for c in held}


def _top_of(c: Candidate, k: Candidate, side: float,
            perspective: Perspective | None) -> tuple[Candidate, Candidate, bool]:
    """Of two joined faces, (the top face, the other, whether the signs disagreed).  Each
    sign that is clear votes, the surest first: a face clearly more face-like than the
    other is the top one (the other is often a neighbour's side face, whose place would
    mislead); a side face lies towards the camera's foot; of two traced faces, one clearly
    foreshortened that the network also likes less is the side face; the light comes
    from above, so the top face is the brighter.  The first clear sign decides; with no
    sign, the one nearer the learned size (an outline across the gap between two
    touching cubes is smaller than either top face).  Signs that disagree leave the top
    face in doubt, unless the other is next to no face at all to the network (a stray
    outline on the table beyond the top face, which its place makes a top face)."""
    votes = []
    if min(c.score, k.score) < ALIKE * max(c.score, k.score):
        votes.append(c if c.score > k.score else k)
    side_face = perspective.side_of(c, k) if perspective else None
    if side_face is not None:
        votes.append(k if side_face is c else c)
    larger, smaller = (c, k) if c.area > k.area else (k, c)
    if not (c.guessed or k.guessed) and smaller.area < FORESHORTENED * larger.area and larger.score > smaller.score:
        votes.append(larger)
    if max(c.level, k.level) > BRIGHTER * min(c.level, k.level):
        votes.append(c if c.level > k.level else k)
    top = votes[0] if votes else (c if size_fit(c.area, side) > size_fit(k.area, side) else k)
    no_face = min(c.score, k.score) < NO_FACE * max(c.score, k.score)
    return top, (k if top is c else c), not no_face and any(v is not top for v in votes)


def _joined(c: Candidate, k: Candidate) -> bool:
    """Whether `c` lies against `k` closer than a whole face: a face sharing an edge with
    it, i.e. one of the same cube's side faces (two cubes' top faces are at least a face
    apart, whatever the perspective, measured along the face's own axes)."""
    c0, c1, c2, c3 = k.ordered
    across = ((c1 - c0) + (c2 - c3)) / 2
    down = ((c3 - c0) + (c2 - c1)) / 2
    offset = c.middle - k.middle
    u, v = np.linalg.solve(np.column_stack([across, down]).astype(np.float64), offset.astype(np.float64))
    apart = max(abs(u), abs(v))
    if min(abs(u), abs(v)) > 0.45 or apart < 0.45:
        return False                  # diagonal: two cubes; or on it: a second seed on the same face
    # a side face is lit differently from the top face, or foreshortened; two top faces
    # side by side (touching cubes, a tray of them) are lit alike and the same size (which
    # a guessed face's is by making: beside a traced face, only the light tells)
    unlike = (max(c.level, k.level) > BRIGHTER * min(c.level, k.level)
              or not (c.guessed or k.guessed) and min(c.area, k.area) < FORESHORTENED * max(c.area, k.area))
    return unlike and apart < JOINED_STEEP


def _both_top_faces(c: Candidate, k: Candidate) -> bool:
    """Two touching cubes side by side, not a top face and its side face: the face
    network, seeing what lies round each, takes both for top faces."""
    return c.topness is not None and k.topness is not None and min(c.topness, k.topness) > BOTH_TOPS


def warp(image: np.ndarray, corners: np.ndarray, size: int = FACE_PIXELS) -> np.ndarray:
    target = np.float32([[0, 0], [size - 1, 0], [size - 1, size - 1], [0, size - 1]])
    return cv2.warpPerspective(image, cv2.getPerspectiveTransform(corners, target), (size, size),
                               flags=cv2.INTER_LINEAR)
