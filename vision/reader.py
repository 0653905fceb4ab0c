"""A photo of a throw -> the letter and ink colour of every cube's top face.

Faces are found and straightened (faces.py), the ink separated and its colour judged
(glyphs.py), each glyph's letter read in all four quarter turns, again in other outlines
where its own may have cut it (letter_reading.py); the readings are matched to the known cubes (assign.py), which settles
most look-alikes; Tesseract gives a second opinion on the glyphs still in doubt (ocr.py).
A reading the reader is not sure of is marked uncertain."""
from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Callable

import cv2
import numpy as np

from firmware.games import perquackey as pq
from vision import board_grid, face_net, ocr, upright
from vision.assign import assign
from vision.classifier import LETTERS, PLAIN
from vision.candidates import Found
from vision.faces import WORK_WIDTH, find_candidates, search_faces
from vision.glyphs import RED_THRESHOLD, Ink, extract_ink
from vision.letter_reading import LOOK_PAST, NET_FLOOR, TEMPERATURE, letter_distances, scaled
from vision.networks import ModelMissing
from vision.top_faces import FAR_PART, RESERVE_TOP, Face, Rejected, warp

CUBE_SETS = ("classic", "later", "any")
SMALLEST_PHOTO = 64        # pixels each way: the table's light is measured in blocks of 8, and a cube needs a dozen
CONFIDENT = 0.85           # below this a reading is marked uncertain
MAX_OCR_CALLS = 4          # Tesseract programs per photo, run side by side (a process each: about 0.1 s on a PC)
MAX_OCR_IN_PROCESS = 26    # asks per photo where Tesseract runs in-process (a millisecond or two each)
OCR_TRUST = 0.6            # Tesseract is asked only about glyphs this surely on a top face
DISPUTED = 0.8             # the most confidence a letter Tesseract changed can have
# how much closer Tesseract's letter is brought, at its full confidence: its odds made ten
# times better, in the units of TEMPERATURE (more let Tesseract, which reads a doubtful
# glyph right less often than the letter network, overrule it)
OCR_WEIGHT = TEMPERATURE * float(np.log(10))
LEAST_WEIGHT = 0.1         # a glyph's letter counts at least this much in assigning the cubes (see `_costs`)
COLOUR_SURE = 0.25         # a cube of the other colour costing this much more says the colour of ink in doubt
                           # (a pale F and N read in each other's colour: 0.10; worn renders' right ones 0.05 and up)
COLOUR_DOUBTED = 0.8       # ... and the reading no surer than this
BARRED = 1e9               # the cost that keeps a glyph off a cube when assigning again
COLOUR_COST = 5.0          # a red reading on a black cube (or the reverse): only if nothing else fits
COLOUR_MARGIN = 0.06       # ... unless the ink's redness is this near the threshold
PALE_RED = 0.07            # ... or, where the ink is pale, this red or more
PALE_LEAN = 0.05           # ... the pale ink's charge on a red cube this much higher at PALE_RED than at the threshold
FAIR_MATCH = 0.45          # a glyph this near its nearest reference looks like a letter (odd fonts are further)
TRUSTED = 0.85             # a candidate this plausible is surely a top face (the face network says 0.9-1 of most)
RIVAL_SHARE = 0.5          # a side face half as face-like as the top face leaves doubt which is which
SIDE_DOUBT = 0.8           # confidence kept where a side face was nearly as face-like (below CONFIDENT)
ASIDE_DOUBT = 0.9          # ... and where the face lies where a kept face's side face would: 1 in 65 such faces
                           # the face network was sure of was a side face (renders), too many for 0.95 and above
CLIPPED_DOUBT = 0.8        # ... where the glyph runs into its outline's edge, even looked at past it
CLIPPED_PLAUSIBLE = 0.5    # a glyph running into its outline's edge is less likely a cube (a table line, a paper edge)
PLAUSIBLE = 0.05           # below this, with no cube count to go by, a candidate is not a cube
SURE_ASIDE = 0.9           # ... nor one where another's side face would be, unless the face network is this sure
                           # of it (a side face looks like a face, with a letter on it: 2 of 3 such were side faces)
UNJUDGED_CELL = 0.5        # how face-like a board's empty-looking cell is taken to be without the face network
HELD_IN_RESERVE = 0.2      # a face the finder refused by a little (top_faces._reserves) is this much less likely a cube
SURE_RESERVE = 0.9         # ... and with no cube count, a cube only if the face network is this sure of it (a worn
                           # throw on wood held in the hand, its top faces refused by a little, read 1 die of 10,
                           # turned none; of the faces held in reserve on 500 throws held in the hand, one it was
                           # 0.86 sure of was a side face, the four it was 0.9 sure of or more top faces)
FAR_SAME_FACE = 0.6        # a glyph of the far part looked at again this near (in its face's sides) is the same face
FAR_NEIGHBOURS = 1.25      # ... and one this near a plausible face found first is that face's, or its side face
# why a far glyph is held in reserve or rejected beside a face of the first look (see `_with_far`)
BESIDE_FIRST_LOOK = "in the far part looked at again, beside a face the first look found"
PLACED_ASIDE = 0.2         # a candidate where another's side face would be is this much less likely a cube
LETTER_DOUBT = 0.5         # below this chance (the network's) that it is a letter at all, a glyph is less plausible


class CubeCountError(ValueError):
    """The photo does not show the number of cubes the throw has."""


class PhotoTooSmall(ValueError):
    """The photo has too few pixels to find cubes in."""


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
        # plain floats and bools: numpy's float32 and bool_ are not JSON
        return {"letter": self.letter, "red": bool(self.red), "x": round(float(self.x), 1),
                "y": round(float(self.y), 1), "confidence": round(float(self.confidence), 3),
                "uncertain": bool(self.uncertain)}


@dataclass
class Reading:
    cubes: list[CubeReading] = field(default_factory=list)
    cube_faces: tuple[str, ...] = ()
    ms: float = 0.0
    ocr_ms: float = 0.0                     # of `ms`, the time Tesseract took
    notes: list[str] = field(default_factory=list)

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


@dataclass
class _Glyph:
    square: np.ndarray        # the straightened face
    corners: np.ndarray
    centre: tuple[float, float]
    redness: float            # the ink's red over its green and blue (glyphs.RED_THRESHOLD parts red from black)
    mask: np.ndarray
    distances: np.ndarray     # to each of the 26 letters
    turns: np.ndarray         # the quarter turn that fits each letter best
    likeness: float = 1.0     # how much the candidate looked like a top face, 0..1
    rival: float = 0.0        # likeness of a joined face taken for this one's side face
    clipped: bool = False     # the glyph runs into the outline's edge (which may cut it)
    letterness: float = 1.0   # the network's chance that the glyph is a letter at all (1 without it)
    cut_off: bool = False     # a stroke of the letter may have been left out (at the face's edge, or faded)
    aside: bool = False       # it lies where a kept face's side face would
    pale: bool = False        # its ink is pale (see glyphs.Ink.pale)
    reserve: str = ""         # why the finder refused it, for a face held in reserve (see top_faces._reserves)

    @property
    def red(self) -> bool:
        return self.redness > RED_THRESHOLD

    @property
    def colour_in_doubt(self) -> bool:
        """Red ink in dim or tinted light can look nearly black: near the threshold, the
        ink's colour is left to the letters and the cube set."""
        return abs(self.redness - RED_THRESHOLD) < COLOUR_MARGIN or self.pale_red

    @property
    def pale_red(self) -> bool:
        """Pale ink a little red: red print worn pale is as much less red as it is less
        dark, down to a black ink's redness in tinted light."""
        return self.pale and PALE_RED < self.redness <= RED_THRESHOLD

    def colour_cost(self, red_cube: bool, soft: bool) -> float:
        """What putting the glyph on a cube of this colour costs: nothing where its ink is
        that colour, COLOUR_COST where the other; `soft`, in between across COLOUR_MARGIN
        either side of the threshold."""
        if not soft:
            return COLOUR_COST * (self.red != red_cube)
        if self.pale_red:
            # no colour to go by, but of two pale inks the redder is likelier the red one
            # (two H's, red and black, worn alike: their colours are no coin toss)
            redder = 0.5 + PALE_LEAN * (2 * self.redness - RED_THRESHOLD - PALE_RED) / (RED_THRESHOLD - PALE_RED)
        else:
            redder = float(np.clip((self.redness - RED_THRESHOLD) / (2 * COLOUR_MARGIN) + 0.5, 0.0, 1.0))
        return COLOUR_COST * ((1 - redder) if red_cube else redder)

    @property
    def plausibility(self) -> float:
        """A top face with a letter on it: face-like, its glyph near some letter, taken
        for a letter by the network and inside the face (a shadow or a paper edge is
        none of these)."""
        return (self.likeness * float(np.exp(-max(0.0, float(self.distances.min()) - FAIR_MATCH) / 0.25))
                * min(1.0, self.letterness / LETTER_DOUBT) * (CLIPPED_PLAUSIBLE if self.clipped else 1.0))

    @property
    def trust(self) -> float:
        """How far the reading can be trusted to be a cube's top face at all, 0..1: a
        shadow, a paper edge or a side face must not carry a confident letter."""
        # (a face held in reserve failed a test: it may be a side face or a shadow)
        unsure_which_face = self.rival > RIVAL_SHARE * self.likeness or bool(self.reserve)
        return (min(1.0, self.plausibility / TRUSTED) * (SIDE_DOUBT if unsure_which_face else 1.0)
                * (ASIDE_DOUBT if self.aside else 1.0)
                * (CLIPPED_DOUBT if self.clipped and self.plausibility < TRUSTED or self.cut_off else 1.0))


def cube_list(cube_set: str, count: int) -> tuple[str, ...]:
    """The cubes a photo with `count` faces shows: the 10 black ones, plus the 3 red ones
    of the set when there are more than 10 faces."""
    if cube_set == "any":
        return ()
    return pq.cubes(count > len(pq.BLACK_CUBES), cube_set)


def _confidence(distances: np.ndarray, chosen: int) -> float:
    weights = np.exp(-(distances - distances.min()) / TEMPERATURE)
    return float(weights[chosen] / weights.sum())


def _letter_costs(glyphs: list[_Glyph], cubes: tuple[str, ...]) -> np.ndarray:
    """Each glyph's distance to the nearest of each cube's letters."""
    return np.array([[min(g.distances[LETTERS.index(ch)] for ch in set(faces)) for faces in cubes]
                     for g in glyphs])


def _colour_costs(glyphs: list[_Glyph], cubes: tuple[str, ...], soft_colour: bool = True) -> np.ndarray:
    """Each glyph's charge on each cube where its ink's colour is not the cube's (less
    where the ink's colour is in doubt, if `soft_colour`)."""
    return np.array([[g.colour_cost(_red_cube(c), soft_colour) for c in range(len(cubes))] for g in glyphs])


def _costs(glyphs: list[_Glyph], cubes: tuple[str, ...], soft_colour: bool = True) -> np.ndarray:
    """What putting each glyph on each cube costs: how much further that cube's nearest
    letter is than the nearest on any of the cubes, weighed by how far the reading can
    be trusted (down to LEAST_WEIGHT), and a heavy charge where the ink's colour is not
    the cube's.  A glyph that may be a phantom, a side face or a worn letter read from half
    its strokes says little about its cube, and must not push a glyph read surely off
    its letter (a worn E the network took for an F, trusted 0.25, took the cube with
    the F, and pushed an L trusted 0.55 onto a cube of E's)."""
    letters = _letter_costs(glyphs, cubes)
    weight = np.array([[max(g.trust, LEAST_WEIGHT)] for g in glyphs])
    return (letters - letters.min(axis=1, keepdims=True)) * weight + _colour_costs(glyphs, cubes, soft_colour)


def _red_cube(index: int) -> bool:
    """Whether the cube at this place of `cube_list` is a red one (they come last)."""
    return index >= len(pq.BLACK_CUBES)


def _decide(glyphs: list[_Glyph], cubes: tuple[str, ...]):
    """Assign the glyphs to the cubes; then each one's letter (the nearest of its cube's
    faces), its confidence, and whether it is uncertain."""
    owners = assign(_costs(glyphs, cubes)) if cubes and glyphs else [None] * len(glyphs)
    choices = []
    for g, cube in zip(glyphs, owners):
        faces = cubes[cube] if cube is not None else LETTERS[:len(g.distances)]
        chosen = min((LETTERS.index(ch) for ch in set(faces)), key=lambda i: g.distances[i])
        confidence = _confidence(g.distances, chosen) * g.trust
        choices.append((chosen, confidence, confidence < CONFIDENT or int(np.argmin(g.distances)) != chosen))
    return owners, choices


def _doubt_the_chain(glyphs: list[_Glyph], cubes, cost, owners, choices) -> list[bool]:
    """A glyph pushed off the letter it looks most like was pushed along a chain of
    others.  Assign again with that glyph given its letter: every glyph that then moves
    to another cube was part of the chain, and is in doubt too."""
    uncertain = [c[2] for c in choices]
    for p, (g, cube) in enumerate(zip(glyphs, owners)):
        if cube is None:
            continue
        wanted = LETTERS[int(np.argmin(g.distances))]
        if wanted in cubes[cube]:
            continue
        moved = _assigned_without(cost, p, [c for c, faces in enumerate(cubes) if wanted not in faces])
        if moved is not None:
            for k, (before, after) in enumerate(zip(owners, moved)):
                if before != after:
                    uncertain[k] = True
    return uncertain


def _doubt_the_colour(glyphs: list[_Glyph], cost, owners) -> list[bool]:
    """Which glyphs' colours are in doubt: where the ink's colour is (see
    `_Glyph.colour_in_doubt`), the cube given it says the colour, and that says little
    where a cube of the other colour fits nearly as well (two pale inks, F and N, each on
    a red cube and a black one, were read in each other's colour, both unmarked)."""
    total = sum(cost[p, cube] for p, cube in enumerate(owners))
    doubted = []
    for p, (g, cube) in enumerate(zip(glyphs, owners)):
        moved = None if cube is None or not g.colour_in_doubt else \
            _assigned_without(cost, p, [c for c in range(cost.shape[1]) if _red_cube(c) == _red_cube(cube)])
        doubted.append(moved is not None and sum(cost[q, c] for q, c in enumerate(moved)) - total < COLOUR_SURE)
    return doubted


def _assigned_without(cost: np.ndarray, p: int, barred: list[int]) -> list[int] | None:
    """The cheapest assignment with glyph `p` kept off the cubes `barred`, or None where
    that leaves it none."""
    if len(barred) == cost.shape[1]:
        return None
    forced = cost.copy()
    forced[p, barred] = BARRED
    return assign(forced)


def _second_opinions(doubtful: list[tuple[_Glyph, int]], possible: str) -> None:
    """Ask Tesseract about the most doubtful glyphs, each held the way up its likeliest
    letter says and, if its runner-up says another, that way too (a glyph on its side
    reads as nothing).  In-process, every doubtful glyph is asked; with the tesseract
    program, at most MAX_OCR_CALLS asks, all at once (each is a process of its own, so
    two cores read several glyphs in little more than the time of one).  The letter read
    is brought closer in proportion to Tesseract's confidence; the first way up that
    reads anything counts."""
    asked: list[tuple[_Glyph, int]] = []
    for g, chosen in doubtful:
        runner_up = int(np.argsort(g.distances)[1]) if int(np.argmin(g.distances)) == chosen \
            else int(np.argmin(g.distances))
        for turns in dict.fromkeys((int(g.turns[chosen]), int(g.turns[runner_up]))):
            asked.append((g, turns))
    if ocr.in_process():
        asked = asked[:MAX_OCR_IN_PROCESS]
        answers = [ocr.read_letter(g.mask, turns, possible) for g, turns in asked]
    else:
        asked = asked[:MAX_OCR_CALLS]
        with ThreadPoolExecutor(max_workers=len(asked) or 1) as pool:
            answers = list(pool.map(lambda a: ocr.read_letter(a[0].mask, a[1], possible), asked))
    settled: set[int] = set()
    for (g, _), answer in zip(asked, answers):
        if answer is not None and id(g) not in settled:
            settled.add(id(g))
            g.distances[LETTERS.index(answer[0])] -= OCR_WEIGHT * answer[1] / 100


def _worth_asking(glyphs: list[_Glyph], choices) -> list[tuple[_Glyph, int]]:
    """The uncertain glyphs Tesseract could help with, most helpful first: those surely
    on a top face (Tesseract cannot tell a side face or a shadow) whose letter is most in
    doubt."""
    asked = [(g, chosen, confidence / g.trust) for g, (chosen, confidence, uncertain) in zip(glyphs, choices)
             if uncertain and g.trust >= OCR_TRUST]
    return [(g, chosen) for g, chosen, _ in sorted(asked, key=lambda a: a[2])]


def _past_the_outline(image: np.ndarray, face: Face, ink: Ink, qu: bool) -> tuple[Face, Ink]:
    """A glyph that runs into its outline's edge, looked at again in a larger outline:
    where the outline was only a little tight (inside a bevel, or round a large letter),
    the whole glyph shows there, and is read so and not left in doubt.  Only on a face
    surely a top face: elsewhere the clipping is a sign of a side face, a table line or
    a paper edge, and such a phantom read whole would push a true cube out of the count."""
    if not ink.clipped or face.likeness < TRUSTED:
        return face, ink
    square = warp(image, scaled(face.corners, LOOK_PAST))
    whole = extract_ink(square, qu=qu)
    if whole is None or whole.clipped:
        return face, ink
    # (with the orientation bar as the outline saw it: the cube's own edge, inside the
    # larger outline, can pass for one, and said a W was upside down: it was read V)
    return replace(face, square=square), replace(whole, bar_below=ink.bar_below)


def _glyphs(image: np.ndarray, background: np.ndarray | None, rejected: list[Rejected], qu: bool,
            notes: list[str], far: bool = True, found: Found | None = None) -> list[_Glyph]:
    """The glyph on every face found (among the candidates `found`, if given); with `far`,
    also on the faces found where the far part of a steep view is looked at again on its
    own (see `_with_far`)."""
    search = search_faces(image, background, found=found)
    rejected.extend(search.rejected)
    notes.extend(search.notes)
    glyphs = _read_faces(image, search.faces + search.reserve, rejected, qu, notes)
    if not far or search.far is None:
        return glyphs
    x0, y0, x1, y1 = search.far
    rejected.append(Rejected(np.float32([[x0, y0], [x1, y0], [x1, y1], [x0, y1]]), FAR_PART))
    part = _glyphs(image[y0:y1, x0:x1], None if background is None else background[y0:y1, x0:x1], [], qu, [],
                   far=False)
    offset = np.float32([x0, y0])
    return _with_far(glyphs, [replace(g, corners=g.corners + offset, centre=(g.centre[0] + x0, g.centre[1] + y0))
                              for g in part], rejected)


def _with_far(glyphs: list[_Glyph], far: list[_Glyph], rejected: list[Rejected]) -> list[_Glyph]:
    """The glyphs of the whole photo with those of its far part looked at on its own (see
    `faces.far_part`): there the side learned from the whole photo is far too large, and
    faces guessed at it take in their side faces and the table, where the far part's own
    side fits.  A far glyph takes the place of the whole photo's where those near it are
    none of them plausible; where one is, the whole photo's stays: seen that steeply, a
    cube's side face is larger than its top face, and the far part, too small to show
    the camera's place, may take it for the top face.  Such a far glyph, unless it lies
    on a face the first look found, is held in reserve for the throw's count: it may as
    well be a touching neighbour's top face where the first look kept a side face (a K
    behind an A), and the count says which to take (see `_keep_fitting`)."""
    merged = list(glyphs)
    for g in far:
        side = float(np.sqrt(cv2.contourArea(g.corners)))
        if any(_apart(k, g) < FAR_NEIGHBOURS * side and k.plausibility >= PLAUSIBLE for k in glyphs):
            if all(_apart(k, g) >= FAR_SAME_FACE * side for k in glyphs):
                merged.append(replace(g, reserve=BESIDE_FIRST_LOOK))
            else:
                rejected.append(Rejected(g.corners, BESIDE_FIRST_LOOK))
            continue
        replaced = [k for k in merged if _apart(k, g) < FAR_SAME_FACE * side]
        rejected.extend(Rejected(k.corners, "in the far part, replaced by the face its own look found there")
                        for k in replaced)
        merged = [k for k in merged if not any(k is r for r in replaced)] + [g]
    return merged


def _apart(a: _Glyph, b: _Glyph) -> float:
    """How far apart two glyphs' middles lie, in the photo's pixels."""
    return float(np.hypot(a.centre[0] - b.centre[0], a.centre[1] - b.centre[1]))


def _read_faces(image: np.ndarray, faces: list[Face], rejected: list[Rejected], qu: bool, notes: list[str],
                no_glyph: str = "no glyph in the middle") -> list[_Glyph]:
    """The glyph on each face and its letter distances; a face without a glyph is no top
    face, and is rejected for `no_glyph`."""
    inked = []
    for face in faces:
        ink = extract_ink(face.square, qu=qu)
        if ink is None and face.likeness >= RESERVE_TOP:
            # print worn faint and blurred: at the face's level only specks of it are ink,
            # too small for a glyph; the fainter ink joined to them, as a serif letter's
            # hairlines are, makes its strokes (hard tuning throw 33's red S, 0.56 a face)
            ink = extract_ink(face.square, hairlines=True, qu=qu)
        if ink is None:
            rejected.append(Rejected(face.corners, no_glyph))
            continue
        inked.append(_past_the_outline(image, face, ink, qu))
    return [_Glyph(face.square, face.corners, face.centre, ink.redness, ink.mask, distances, turns,
                   face.likeness, face.rival, ink.clipped, letterness, ink.cut_off, face.aside, ink.pale,
                   face.reserve)
            for face, ink, distances, turns, letterness in letter_distances(image, inked, qu, notes)]


def _on_the_board(image: np.ndarray, glyphs: list[_Glyph], board: board_grid.Board, rejected: list[Rejected],
                  qu: bool, notes: list[str]) -> list[_Glyph]:
    """The glyphs of a Boggle board whose grid they lie on (see board_grid): those the grid
    has in a cell of their own, and the glyph in each cell they left empty, as face-like
    as the face network finds the cell's outline."""
    for index in board.astray:
        rejected.append(Rejected(glyphs[index].corners, "lies across two cells of the board"))
    glyphs = [g for index, g in enumerate(glyphs) if index not in board.astray]
    if not board.empty:
        return glyphs
    scale = min(1.0, WORK_WIDTH / image.shape[1])        # the network judges outlines on the finder's copy
    small = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) if scale < 1 else image
    try:
        likeness = face_net.topness(small, [cell * scale for cell in board.empty])
    except ModelMissing:
        likeness = np.full(len(board.empty), UNJUDGED_CELL)
    faces = [Face(cell, tuple(cell.mean(axis=0).tolist()), warp(image, cell), float(like))
             for cell, like in zip(board.empty, likeness)]
    # (every cell holds a die, however little like one it looks: its reading says how sure)
    return glyphs + _read_faces(image, faces, rejected, qu, notes, "a cell of the board with no glyph in it")


def _keep_plausible(glyphs: list[_Glyph], most: int | None, known: bool, rejected: list[Rejected]) -> list[_Glyph]:
    """The candidates that are cubes: never more than `most`, the most plausible first;
    when the number of cubes is not `known`, only those plausible enough."""
    ranked = sorted(glyphs, key=lambda g: -g.plausibility)
    keep = [g for g in ranked[:most] if known or g.plausibility >= PLAUSIBLE]
    for g in ranked[len(keep):]:
        rejected.append(Rejected(g.corners, f"less like a cube face than the {len(keep)} kept "
                                            f"({g.plausibility:.2f})"))
    return [g for g in glyphs if any(g is k for k in keep)]


def _without_side_faces(glyphs: list[_Glyph], rejected: list[Rejected]) -> list[_Glyph]:
    """Without the throw's count (which decides otherwise, see `_keep_fitting`), the glyphs
    but those lying where a kept face's side face would that the face network is not sure
    of: such a face is more often a side face than a touching cube."""
    return _dropping(glyphs, lambda g: g.aside and g.likeness < SURE_ASIDE,
                     lambda g: f"where a kept face's side face would be, and not surely a top face "
                               f"({g.likeness:.2f})", rejected)


def _dropping(glyphs: list[_Glyph], doubted: Callable[[_Glyph], bool], reason: Callable[[_Glyph], str],
              rejected: list[Rejected]) -> list[_Glyph]:
    """The glyphs but those `doubted`, each of which is rejected for its `reason`."""
    kept = []
    for g in glyphs:
        if doubted(g):
            rejected.append(Rejected(g.corners, reason(g)))
        else:
            kept.append(g)
    return kept


def _keep_fitting(glyphs: list[_Glyph], cubes: tuple[str, ...], rejected: list[Rejected]) -> list[_Glyph]:
    """The candidates that are the throw's cubes, where there are more candidates than
    cubes: those that together are most plausible and fit the cubes best.  A phantom (a
    side face, a shadow) that is fairly plausible on its own still makes a poor set if
    its letter is on no cube left, and it would push a real cube off its own letter.
    Both are counted as odds: the plausibility's (less for a face lying where another's
    side face would), and the network's odds of each glyph's letter on the cube it is
    given over its likeliest letter (TEMPERATURE per factor e)."""
    extra = len(glyphs) - len(cubes)
    if extra <= 0:
        return glyphs
    # (with the ink's colour taken as it looks: a doubtful colour must not let a phantom
    # of about the right letter take a cube of the other colour.  But the colour of a
    # glyph surely on a top face is left to its letters where it is in doubt: else a
    # phantom that looks redder, a side face beside a red cloth, takes the red cube of a
    # true face whose red ink looks nearly black, and pushes a true cube out of the count)
    colour_free = np.array([[g.likeness >= TRUSTED and g.colour_in_doubt] for g in glyphs])
    costs = (_letter_costs(glyphs, cubes)
             + np.where(colour_free, 0.0, _colour_costs(glyphs, cubes, soft_colour=False)))
    pushed = (costs - np.array([[g.distances.min()] for g in glyphs])) / TEMPERATURE
    doubt = np.array([[-np.log(max(g.plausibility * (PLACED_ASIDE if g.aside else 1.0)
                                   * (HELD_IN_RESERVE if g.reserve else 1.0), NET_FLOOR))] for g in glyphs])
    keep_cost = np.hstack([pushed + doubt, np.zeros((len(glyphs), extra))])   # the last columns: not a cube
    kept = [column < len(cubes) for column in assign(keep_cost)]
    for g, keep in zip(glyphs, kept):
        if not keep:
            rejected.append(Rejected(g.corners, f"{g.reserve}, held in reserve: the count did not need it"
                                     if g.reserve else f"less like one of the throw's cubes than the {len(cubes)} "
                                                       f"kept (plausibility {g.plausibility:.2f})"))
    return [g for g, keep in zip(glyphs, kept) if keep]


def _without_reserves(glyphs: list[_Glyph], rejected: list[Rejected]) -> list[_Glyph]:
    """The glyphs of the faces kept, and of those the finder held in reserve that the face
    network is sure of (SURE_RESERVE): without the throw's count, nothing else says a
    face held in reserve is missing.  A far glyph held beside a face of the first look
    (see `_with_far`) is never kept so: the far look takes a side face beside its top
    face for a top face as surely (0.9-0.98) as it does a touching cube."""
    return _dropping(glyphs, lambda g: bool(g.reserve) and (g.likeness < SURE_RESERVE
                                                            or g.reserve == BESIDE_FIRST_LOOK),
                     lambda g: f"{g.reserve}, held in reserve: no cube count to need it", rejected)


def _combine(frames: list[list[_Glyph]]) -> list[_Glyph]:
    """Several frames of the same throw: each glyph of the first frame with the glyphs at
    the same place in the others, their letter distances averaged and their ink colour
    decided by the majority."""
    if len(frames) == 1:
        return frames[0]
    combined = []
    for g in frames[0]:
        side = float(np.linalg.norm(g.corners[0] - g.corners[1]))
        same = [g] + [min(other, key=lambda o: _apart(o, g)) for other in frames[1:] if other]
        same = [o for o in same if _apart(o, g) < side / 2]
        distances = np.mean([o.distances for o in same], axis=0)
        combined.append(_Glyph(g.square, g.corners, g.centre, float(np.median([o.redness for o in same])),
                               g.mask, distances, g.turns,
                               float(np.mean([o.likeness for o in same])), max(o.rival for o in same),
                               all(o.clipped for o in same), float(np.mean([o.letterness for o in same])),
                               all(o.cut_off for o in same), any(o.aside for o in same), any(o.pale for o in same),
                               g.reserve))
    return combined


def read_image(image: np.ndarray, cube_set: str = "classic", expected: int | None = None,
               use_ocr: bool = True, debug: list | None = None, background: np.ndarray | None = None) -> Reading:
    """Read every cube in a BGR photo.  `expected` is the number of cubes the throw has,
    if known; `background` a frame of the empty table from the same fixed camera, if
    there is one; `debug`, if given, receives (glyph working, reading) for each cube and
    (rejected candidate, None) for each candidate that was not taken for a cube."""
    return read_frames([image], cube_set, expected, use_ocr, debug, background)


def read_frames(images: list[np.ndarray], cube_set: str = "classic", expected: int | None = None,
                use_ocr: bool = True, debug: list | None = None, background: np.ndarray | None = None) -> Reading:
    """Read a throw from one or more frames taken from the same place."""
    if cube_set not in CUBE_SETS:
        raise ValueError(f"Unknown cube set {cube_set!r}: choose classic, later or any.")
    for image in images:
        if min(image.shape[:2]) < SMALLEST_PHOTO:
            raise PhotoTooSmall(f"The photo is only {image.shape[1]} x {image.shape[0]} pixels, too small to find "
                                f"cubes in: take it at the camera's full size (at least {SMALLEST_PHOTO} pixels "
                                f"each way, and cubes some 40 pixels across read best).")
    start = time.perf_counter()
    rejected: list[Rejected] = []
    notes: list[str] = []
    shape = images[0].shape
    found = find_candidates(images[0], background)
    turns = upright.turns_upright(found)
    if turns:                 # (the candidates found are of the photo as it came: searched again)
        images, background, found = [upright.turn(image, turns) for image in images], \
            upright.turn(background, turns), None
    glyphs = _combine([_glyphs(image, background, rejected if i == 0 else [], cube_set == "any",
                               notes if i == 0 else [], found=found if i == 0 else None)
                       for i, image in enumerate(images)])
    if expected and cube_set != "any":
        cubes = cube_list(cube_set, expected)
        glyphs = _keep_fitting(glyphs, cubes, rejected)
    else:
        glyphs = _without_reserves(glyphs, rejected)
        most = expected or (len(pq.cubes(True, cube_set)) if cube_set != "any" else None)   # no more than the largest throw
        glyphs = _keep_plausible(glyphs, most, bool(expected), rejected)
        # Boggle dice may lie in their tray, a grid with no cell empty (where every die
        # lies beside others, as a side face would)
        board = board_grid.board_of([g.corners for g in glyphs]) if cube_set == "any" else None
        if board is not None:
            glyphs = _on_the_board(images[0], glyphs, board, rejected, True, notes)[:most]
        elif not expected:
            glyphs = _without_side_faces(glyphs, rejected)
        cubes = cube_list(cube_set, len(glyphs))
    reading = Reading(cube_faces=cubes, notes=notes)
    owners, choices = _decide(glyphs, cubes)
    doubtful = _worth_asking(glyphs, choices)
    if use_ocr and doubtful:
        possible = "".join(sorted(set("".join(cubes)))) if cubes else "".join(LETTERS[:PLAIN])
        ocr_start = time.perf_counter()
        try:
            _second_opinions(doubtful, possible)
            before = [chosen for chosen, _, _ in choices]
            owners, choices = _decide(glyphs, cubes)
            # where Tesseract changed the letter, the two opinions differ: still in doubt
            choices = [(chosen, min(confidence, DISPUTED), True) if chosen != earlier else (chosen, confidence, u)
                       for (chosen, confidence, u), earlier in zip(choices, before)]
        except ocr.TesseractMissing as exc:
            reading.notes.append(f"No second opinion on uncertain cubes: {exc}.")
        reading.ocr_ms = (time.perf_counter() - ocr_start) * 1000
    cost = _costs(glyphs, cubes) if cubes and glyphs else None
    doubts = _doubt_the_chain(glyphs, cubes, cost, owners, choices) if cost is not None else [c[2] for c in choices]
    colour_doubts = _doubt_the_colour(glyphs, cost, owners) if cost is not None else [False] * len(glyphs)
    for g, cube, (chosen, confidence, _), uncertain, colour_doubt in zip(glyphs, owners, choices, doubts,
                                                                        colour_doubts):
        if colour_doubt:
            confidence, uncertain = min(confidence, COLOUR_DOUBTED), True
        # where the ink's colour was in doubt, the letters and the cube set chose the cube,
        # and the cube's colour is the reading's (elsewhere the ink's: a cube may be given
        # a glyph of the other colour only because nothing else fits)
        red = _red_cube(cube) if cube is not None and g.colour_in_doubt else g.red
        reading.cubes.append(CubeReading(LETTERS[chosen], red, g.centre[0], g.centre[1], confidence, uncertain,
                                         cube, cubes[cube] if cube is not None else "", int(g.turns[chosen])))
    if turns:
        glyphs, rejected = _placed_back(glyphs, rejected, reading, turns, shape)
    reading.ms = (time.perf_counter() - start) * 1000
    if debug is not None:
        debug.extend(zip(glyphs, reading.cubes))
        debug.extend((r, None) for r in rejected)
    reading.cubes.sort(key=lambda c: (c.y, c.x))
    return reading


def _placed_back(glyphs: list[_Glyph], rejected: list[Rejected], reading: Reading, turns: int,
                 shape: tuple[int, ...]) -> tuple[list[_Glyph], list[Rejected]]:
    """What was found in a photo read turned upright (see vision.upright), placed in the
    photo as it came: the cubes' middles, and the outlines the debug pictures draw."""
    for cube in reading.cubes:
        cube.x, cube.y = upright.placed_back(np.array([cube.x, cube.y]), turns, shape).tolist()
    glyphs = [replace(g, corners=upright.placed_back(g.corners, turns, shape).astype(np.float32),
                      centre=tuple(upright.placed_back(np.array(g.centre), turns, shape).tolist())) for g in glyphs]
    return glyphs, [replace(r, corners=upright.placed_back(r.corners, turns, shape).astype(np.float32))
                    for r in rejected]


def read_throw(frames, vulnerable: bool, red_set: str = "classic", background: np.ndarray | None = None) -> Reading:
    """Read a Perquackey throw at the table from a frame or a list of frames (and a frame
    of the empty table, if the camera is fixed and took one): the number of cubes is
    known (10, or 13 when vulnerable), and a photo that shows another number gets a
    plain message."""
    expected = len(pq.cubes(vulnerable, red_set))
    reading = read_frames(frames if isinstance(frames, list) else [frames], red_set, expected,
                          background=background)
    seen = len(reading.cubes)
    if seen == 0:
        raise CubeCountError("No cubes found: check that the camera sees the table and the light is on "
                             "(pale cubes on a white table are hard to see: a darker cloth helps).")
    if seen != expected:
        raise CubeCountError(f"Found {seen} cubes, but this throw has {expected}: spread them so none hides "
                             f"another, or key the letters in.")
    return reading
