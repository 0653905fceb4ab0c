"""A candidate top face (an outline traced or guessed round a glyph, or a bright outline)
with the signs measured on it, the candidates of a photo with the face network's
judgement of each (`Found`), and the tests each must pass alone to be a top face."""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cached_property

import cv2
import numpy as np

from vision import face_net
from vision.bright import order_corners
from vision.networks import ModelMissing
from vision.perspective import FIT_WITHIN, Perspective
from vision.working_copy import View

OVERLAP = 0.25            # of the smaller candidate: two candidates this much overlapped are one cube
SIZES = (0.3, 2.2)        # a top face's area, in squares of the learned side (near cubes look bigger)
SHARP = 0.03              # a face's border changes brightness by this share of the face per pixel, or more
TINTED = 0.25             # saturation above which a "face" is more likely the table (wood, felt, cloth)
NEAR_PAIR = 3.0           # of two faces' diagonals: faces further apart are not one cube's, nor overlap
GUESSED = 0.8             # a face guessed round a glyph counts as this square (less than one traced)
SQUARE_ENOUGH = 0.6       # a top face is at least this square (short side over long); less is refused
SURE_TOP = 0.6            # the face network this sure of a candidate overrules its unevenness, and
GLYPH_CONTRAST = 0.35     # ... the glyph's contrast a face needs, which down to this
FAINT_CONTRAST = 0.25     # ... is then enough (dim light, glare; less sure, a little more is needed)
UNEVEN = 0.25             # ... and below this unevenness (shade, blur, glare across a face),
FAIR_TOP = 0.15           # ... this sure: the cube count then decides which candidates are cubes
WORN_SHARE = 0.5          # where the print is pale, a face the network is sure of (SURE_TOP) needs a glyph
PALEST_PRINT = 0.1        # ... this share as dark as the throw's print's, no paler than this; and fainter
                          # letters are looked for, this share as dark
SURE_SIDE = 0.9           # outlines the face network is this sure of measure the side ...
MIN_SURE_FACES = 3        # ... where there are this many
BELIEVED = 0.5            # where there are none at any side, the outlines it is this sure of count (Found.believed)


@dataclass
class Candidate:
    """A candidate top face: its outline on the working copy, and the signs measured on it."""
    corners: np.ndarray       # working-image pixels
    width: float
    height: float
    evenness: float = 0.0     # spread of the glyph-free face's brightness over its mean (a face is even)
    contrast: float = 0.0     # how much darker the darkest ink is than the face, over the face
    border: float = 1.0       # sharpness of the weakest of its four borders
    tint: float = 0.0         # saturation of the face's lighter half (cube plastic is white or cream)
    level: float = 0.0        # brightness of the glyph-free face
    fill: float = 1.0         # share of its bounding rectangle the outline fills (1 for a rectangle)
    topness: float | None = None  # the face network's judgement, with the surroundings (None: not asked)
    seed: tuple[int, int, int, int] | None = None         # the glyph seed's box it was traced round
    angle: float | None = None                            # ... and the cube's axes there (for a guessed face round it)

    @property
    def likeness(self) -> float:
        """How much this looks like a top face, 0..1 (size aside)."""
        return (self.squareness * min(1.0, self.contrast / 0.7) * float(np.exp(-self.evenness / 0.06))
                * min(1.0, self.border / SHARP) ** 0.5 * float(np.exp(-max(0.0, self.tint - TINTED) / 0.12)))

    @property
    def score(self) -> float:
        """How surely this is a top face: the face network's answer where it was asked
        (it also sees what lies round the outline), else the likeness."""
        return self.likeness if self.topness is None else self.topness

    @property
    def area(self) -> float:
        return self.width * self.height

    @cached_property
    def middle(self) -> np.ndarray:
        return self.corners.mean(axis=0)

    @cached_property
    def reach(self) -> float:
        """Its diagonal: no face lying against it or over it is further off than a few."""
        return math.hypot(self.width, self.height)

    @cached_property
    def ordered(self) -> np.ndarray:
        """The corners clockwise from the top left."""
        return order_corners(self.corners)

    @property
    def guessed(self) -> bool:
        return self.fill == GUESSED

    @property
    def squareness(self) -> float:
        return min(self.width, self.height) / max(self.width, self.height, 1e-6) * self.fill


@dataclass
class Found:
    """Every candidate face in a photo, on the working copy it was found in."""
    view: View
    scale: float                  # of the working copy to the photo
    side: float                   # of a top face, learned from the throw, working pixels
    candidates: list[Candidate]
    sight: "Perspective | None"   # where the camera stands, if the faces' sizes say (straight down: a guess)
    notes: list[str] = field(default_factory=list)   # what the finder could not do, for the reading's notes
    palest_looked: bool = False   # letters as faint as any print looked for (once is enough: see faces)

    @property
    def perspective(self) -> "Perspective | None":
        return _leaning(self.sight)

    def foot_of(self, c: Candidate) -> np.ndarray | None:
        """The direction of the camera's foot from a candidate, if the camera's place is known."""
        return self.perspective.foot_from(c) if self.perspective else None

    def side_at(self, point: np.ndarray, within: float = FIT_WITHIN) -> float:
        """The side of a top face at `point` (faces nearer the camera look larger), within
        `within` times the side learned."""
        return self.perspective.side_at(point, self.side, within) if self.perspective else self.side

    def judged(self, candidates: list[Candidate] | None = None) -> list[Candidate]:
        """The candidates (of these, where given) the face network is asked about (the
        others are refused as not square)."""
        return [c for c in (self.candidates if candidates is None else candidates) if c.squareness >= SQUARE_ENOUGH]

    def sure_side(self, long: bool = True) -> float | None:
        """The side of the traced outlines the face network is sure are top faces, if
        there are a few: their long sides (a face seen at a slant is foreshortened, so
        they measure it best), or with `long` False, the roots of their areas (which a
        slant never makes larger)."""
        sure = [max(c.width, c.height) if long else np.sqrt(c.area) for c in self.candidates
                if not c.guessed and c.topness is not None and c.topness > SURE_SIDE]
        return float(np.median(sure)) if len(sure) >= MIN_SURE_FACES else None

    def believed(self) -> float:
        """How many top faces the face network believes in, in sum: the topness of every
        traced outline it takes for a face more likely than not (the many a table's
        pattern makes, each barely believed, add nothing)."""
        return sum(c.topness for c in self.candidates if not c.guessed and c.topness is not None
                   and c.topness > BELIEVED)

    def judge(self, more: list[Candidate] | None = None, asked: list[Candidate] | None = None) -> None:
        """The face network's topness for every candidate not refused outright (of `more`,
        where given, instead of the found), or for every one `asked`; without the network,
        the likeness alone decides (and the notes say so)."""
        asked = self.judged(more) if asked is None else asked
        try:
            said = face_net.topness(self.view.small, [c.corners for c in asked], [self.foot_of(c) for c in asked])
            for c, topness in zip(asked, said):
                c.topness = float(topness)
        except ModelMissing as exc:
            self.notes.append(f"Top faces told from side faces by their look alone: {exc}.")


def _leaning(sight: "Perspective | None") -> "Perspective | None":
    """The camera's place where the faces' sizes show it leaning: seen straight down, the
    place of its foot is only a guess (good enough to tell the far edges' side faces), and
    the faces' sizes and the face network go without it, as the network was taught."""
    return sight if sight is not None and sight.tilted else None


def near(a: Candidate, b: Candidate) -> bool:
    """Whether two candidates lie near enough to overlap, be one cube's faces or be taken
    for them (the tests of a pair cost far more than this, and most pairs are far apart)."""
    return math.dist(a.middle, b.middle) < NEAR_PAIR * (a.reach + b.reach)


def overlap(a: Candidate, b: Candidate) -> float:
    area, _ = cv2.intersectConvexConvex(a.corners, b.corners)
    return area / max(1.0, min(a.area, b.area))


def size_fit(area: float, side: float) -> float:
    """1 for a face of the learned size, less for larger or smaller."""
    return float(np.sqrt(min(area, side * side) / max(area, side * side)))


def refusal(c: Candidate, side: float, print_contrast: float | None = None,
            side_here: float | None = None) -> str | None:
    """Why a candidate is not a top face, or None.  `side_here` is the side the camera's
    place foretells where the candidate lies: a face nearer the camera's foot than most
    may be that much larger (the near cubes of a steep portrait photo, 1.5-2 times the
    side learned, were refused).  None is taken smaller than the side learned allows:
    loosened so at the far end, a small outline there took a cube's place."""
    if c.squareness < SQUARE_ENOUGH:
        return f"not square ({c.squareness:.2f}): a side face or a shadow"
    largest = max(side, side_here or 0.0)
    if not SIZES[0] * side * side < c.area < SIZES[1] * largest * largest:
        return f"not the size of the other faces ({np.sqrt(c.area) / side:.2f} of their side)"
    # a bold glyph the closing cannot wipe off, or a shadow's edge across a face, makes a
    # face uneven too: where the face network is sure of it, that sign is overruled
    if c.evenness > 0.15 and (c.topness is None or c.topness < (SURE_TOP if c.evenness > UNEVEN else FAIR_TOP)):
        return f"uneven inside ({c.evenness:.2f}): table texture or a shadow edge"
    # a dim or glared glyph is paler: the surer the face network is of the face, the paler it may be
    if c.contrast < _contrast_needed(c.topness, print_contrast):
        return f"no dark glyph inside (contrast {c.contrast:.2f})"
    return None


def _contrast_needed(topness: float | None, print_contrast: float | None = None) -> float:
    """The glyph's contrast a face needs: GLYPH_CONTRAST, down to FAINT_CONTRAST as the
    face network grows sure of the face (SURE_TOP).  The dice of a throw share their
    print: where it has worn pale (`print_contrast`, see `print_contrast`, is low), a
    face the network is sure of needs only a share of it."""
    if topness is None:
        return GLYPH_CONTRAST
    needed = GLYPH_CONTRAST - (GLYPH_CONTRAST - FAINT_CONTRAST) * min(1.0, topness / SURE_TOP)
    if print_contrast is not None and topness >= SURE_TOP:
        needed = min(needed, max(PALEST_PRINT, WORN_SHARE * print_contrast))
    return needed


def sure_faces(candidates: list[Candidate]) -> list[Candidate] | None:
    """The faces the face network is sure of, where there are enough of them to tell
    what the throw's dice share (their print, their plastic)."""
    sure = [c for c in candidates if c.topness is not None and c.topness >= SURE_SIDE]
    return sure if len(sure) >= MIN_SURE_FACES else None


def print_contrast(candidates: list[Candidate]) -> float | None:
    """How dark the throw's print is: the typical glyph contrast of the faces the face
    network is sure of."""
    sure = sure_faces(candidates)
    return None if sure is None else float(np.median([c.contrast for c in sure]))
