"""Finding the cubes' top faces in a photo of the table and straightening each into a square.

Nothing here assumes the faces are brighter than the table (cream cubes on white paper
are darker than it).  What holds on any table: every top face carries one dark or red
glyph in its middle, the glyph's strokes and the face's border run along the face's own
axes, the border is a strong change of brightness (to the table, to a side face, to the
rounded edge), and every cube in a throw is the same size.  So:

1. glyph seeds (`glyph_seeds.py`): thin dark marks on a lighter ground (a morphological
   black-hat), joined into one blob per letter; faces brighter than the table also come
   from a whiteness map (`bright.py`); once the side is known, fainter letters too (dim
   light, blur, the small far faces of a steep view, worn print), unless the table's own
   pattern makes too many, and letters a cube's edges join to its side face's letter;
2. for each seed, the face's outline (`outlines.py`): its axes from the gradients round
   it (the four-fold mean angle), and along each axis the face's border: the first
   strong change of brightness, with the glyph wiped off inside its own box; the same
   border looked for either side of the axis tilts each edge to follow the face (a
   slanted view makes a trapezoid);
3. each candidate (`candidates.py`) is scored by how much it looks like a top face
   (square, even inside, a sharp border all round, white or cream, a dark glyph), and
   the side of a top face is learned from the throw and the search run again with it;
   then the face network (`face_net.py`), which also sees what lies round each outline, says how surely it is
   a top face, and that ranks them;
4. (`top_faces.py`) candidates on the same face are one; a face against a top face closer than a whole
   face, and lit or sized differently, is that cube's side face, so a side face's letter
   never becomes a cube of its own (unless the network takes both for top faces: two
   touching cubes).  Which of the two is the top face: the much more face-like one
   (by the network); else the one further from the point under the camera (worked out from
   how the faces' size changes across the photo, the faces the network is sure of where
   there are five or more: a side face lies towards it); else the
   brighter.  Where these signs disagree, the reading is left in doubt.
5. a glyph whose traced border makes no face (a shadow across it, a touching cube, white
   on white) also gets a face of the throw's own size round it: the glyph is in a face's
   middle.  Where the line of sight is steep (a camera held at an angle) and the network
   doubts that square, also one as flat as a top face looks there, whose side face
   below it the square would take in.
6. where the faces found are small (their glyphs' strokes a pixel or two wide at the
   working size), the search is made again on a finer copy of the photo;
7. where a steep view's far faces are much smaller than the side learned (half of it,
   and less, at 45 degrees), that part of the photo is marked (`far_part`) for the
   reader to look at again on its own, where a side of their own is learned.

An optional frame of the empty table (the camera fixed on the box) restricts the seeds
to what changed, which removes table texture (gingham, wood grain, paper edges)."""
from __future__ import annotations

from dataclasses import dataclass, field
from itertools import chain

import cv2
import numpy as np

from vision.bright import bright_outlines
from vision.candidates import (GUESSED, OVERLAP, PALEST_PRINT, SURE_SIDE, WORN_SHARE, Candidate, Found, near,
                               overlap, print_contrast, refusal, size_fit, sure_faces)
from vision.glyph_seeds import (FAINT_LETTER_DEPTH, MOST_OUTLINES, blurred_letter_seeds, disc, faint_letter_seeds,
                                glyph_seeds, joined_letter_seeds, likeliest_seeds)
from vision.outlines import Ground, face_outlines, rectangles
from vision.perspective import MIN_FOR_SQUEEZE, Perspective
from vision.top_faces import Search, select
from vision.warping import sampled, straightening
from vision.working_copy import View

WORK_WIDTH = 1024         # faces are found on a copy this wide; warped from the full image
FIRST_SIDES = (0.04, 0.08)   # of the photo's width: first guesses at a face's side
PLASTIC_SPREAD = 1.25     # ground this much darker than the dimmest sure face, or lighter than the brightest, is
                          # no cube's
NEAR = 0.15               # two sides this close (as a share) find the same faces
FAR_LARGER = 1.4          # faces the network is sure of this much larger (by area) than the side learned set it
SMALL_SIDE = 34           # working pixels: faces smaller than this are looked for on a finer copy,
SMALL_GUESS = 2.0         # ... there guessing sides less than this many times theirs (the first copy's side)
CHANGED = 30              # grey levels that count as a change from the empty table
LARGER_GUESS = 1.2        # of the side expected: a second guess round a glyph the face network doubts ...
GUESS_WORTH = 0.05        # ... where it takes the first for a face this surely at least (not a stray mark's)
FAR_SIDES = 2.0           # a face guessed as flat as a top face looks, as large as the camera's place says within
                          # this factor of the side learned ...
FLAT_SMALLER = 0.75       # ... and where the network doubts it, this much smaller (see `_guessed_flatter`) ...
FLAT_WORTH = 0.01         # ... if it takes the first for a face this surely at least (round a table's marks, 0.00)
FLAT_PRIOR = 0.001        # ... guessed at all only round glyphs whose traced or square face it takes for one this surely
FAR_SHRUNK = 0.7          # where the camera's place says top faces are this share of the side learned or less,
FAR_MARGIN = 1.5          # ... that part of the photo (and this many sides round it) is looked at again on its own
FAIR_SIDE = 0.5           # too few sure faces for a fit of their sizes: those the network takes for faces this
                          # surely show the camera's lean (their size set by MIN_FOR_SQUEEZE sure faces or more)


def _candidates(view: View, side: float, changed: np.ndarray | None,
                outlines: list[np.ndarray]) -> list[Candidate]:
    """A candidate round every glyph seed, and one for every outline found another way."""
    clean = view.closed(side)
    found = _traced(view, side, clean, glyph_seeds(view.darkness(side), side, changed))
    if not outlines:
        return found
    rectangles = [cv2.minAreaRect(corners) for corners in outlines]
    # each outline's sharpness, traced round its middle (wiped off: the glyph's place)
    middles = np.float32([[x, y] for (x, y), _, _ in rectangles])
    wiped = np.float32([[x - m, y - m, x + m, y + m] for (x, y), (w, h), _ in rectangles for m in [0.35 * min(w, h)]])
    traced = face_outlines(Ground(view.blurred, clean, wiped), middles,
                           np.radians([angle for _, _, angle in rectangles]), side)
    for corners, (_, (w, h), _), (_, _, sharpness), inside in zip(outlines, rectangles, traced,
                                                                   _inside(view, clean, outlines)):
        fill = cv2.contourArea(corners.astype(np.float32)) / max(1.0, w * h)
        found.append(Candidate(corners.astype(np.float32), w, h, **inside, border=sharpness, fill=min(1.0, fill)))
    return found


def _traced(view: View, side: float, clean: np.ndarray, seeds: list[tuple[int, int, int, int]]) -> list[Candidate]:
    """A face outline traced round each glyph seed (and a guessed face where it is refused)."""
    seeds = likeliest_seeds(seeds, clean, side)
    if not seeds:
        return []
    centres = np.float32([[x + w / 2, y + h / 2] for x, y, w, h in seeds])
    angles = np.array([view.axes.angle(cx, cy, side * 0.6) for cx, cy in centres])
    wiped = np.float32([[x - 0.15 * w, y - 0.15 * h, x + 1.15 * w, y + 1.15 * h] for x, y, w, h in seeds])
    outlines = face_outlines(Ground(view.blurred, clean, wiped), centres, angles, side)
    traced = [Candidate(corners, reach[0] + reach[2], reach[1] + reach[3], **inside, border=sharpness,
                         seed=seed, angle=angle)
              for seed, angle, (corners, reach, sharpness), inside
              in zip(seeds, angles, outlines, _inside(view, clean, [corners for corners, _, _ in outlines]))]
    # a face of the throw's own size round the glyph, which is in a face's middle: the
    # face where the border was lost (a shadow across it, a touching cube, the rounded
    # edge), or where the traced outline ran into a neighbour.  While the side is
    # learned, only where the outline was refused (see `_completed`)
    refused = [c for c in traced if refusal(c, side) is not None]
    guessed = dict(zip(map(id, refused), _guessed(view, clean, refused, [side] * len(refused))))
    return [face for c in traced for face in ([c, guessed[id(c)]] if id(c) in guessed else [c])]


def _guessed(view: View, clean: np.ndarray, traced: list[Candidate], sides: list[float]) -> list[Candidate]:
    """A face of the given side round each traced candidate's glyph, square to the cube's
    axes there."""
    if not traced:
        return []
    centres = np.float32([[x + w / 2, y + h / 2] for x, y, w, h in (c.seed for c in traced)])
    squares = rectangles(centres, np.array([c.angle for c in traced]),
                          np.repeat(np.float32(sides)[:, None] / 2, 4, axis=1))
    return [Candidate(square, side, side, **inside, border=c.border, fill=GUESSED)
            for c, square, side, inside in zip(traced, squares, sides, _inside(view, clean, squares))]


def _inside(view: View, clean: np.ndarray, outlines) -> list[dict[str, float]]:
    """For each outline, the evenness of its glyph-free middle, its glyph's contrast, the
    tint of its lighter half and its brightness: a face is evenly lit white or cream
    plastic with dark ink on it; table texture and shadows are not."""
    quads = np.asarray(outlines, np.float32).reshape(-1, 4, 2)
    middle = quads.mean(axis=1, keepdims=True)
    inner = (quads - middle) * 0.7 + middle      # in turn round the face, as every outline is
    at = straightening(inner, 24)
    face, ink, colour = (sampled(image, *at, border=cv2.BORDER_CONSTANT).reshape(len(quads), 576, -1)
                         for image in (clean, view.gray, view.small))
    face, ink = face[..., 0], ink[..., 0].astype(np.float32)
    colour = np.minimum(colour * view.light_gains, 255)     # the light's colour out of these samples alone
    level = np.partition(face, 288, axis=1)[:, 288].astype(np.float64) + 1   # the median (np.median is slow)
    ranked = np.partition(ink, (28, 345), axis=1)
    darkest = ranked[:, 28]                                                   # the 5th percentile
    lighter_half = ink >= ranked[:, 345:346]                                  # the top 40 %
    lighter = (colour * lighter_half[..., None]).sum(axis=1, dtype=np.float64) / lighter_half.sum(axis=1)[:, None]
    tint = (lighter.max(axis=1) - lighter.min(axis=1)) / (lighter.max(axis=1) + 1)
    evenness = face.std(axis=1, dtype=np.float64) / level
    return [dict(evenness=e, contrast=c, tint=t, level=v) for e, c, t, v in
            zip(evenness.tolist(), ((level - darkest) / level).tolist(), tint.tolist(), level.tolist())]


def _changed(image: np.ndarray, background: np.ndarray | None, scale: float) -> np.ndarray | None:
    """Where the table no longer looks empty (None without a frame of the empty table)."""
    if background is None:
        return None
    if background.shape != image.shape:
        raise ValueError(f"The empty-table frame is {background.shape[1]}x{background.shape[0]} but the photo is "
                         f"{image.shape[1]}x{image.shape[0]}: take both with the same camera setting.")
    diff = cv2.absdiff(image, background).max(axis=2)
    diff = cv2.resize(diff, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    mask = (cv2.GaussianBlur(diff, (0, 0), 1.5) > CHANGED).astype(np.uint8) * 255
    return cv2.dilate(mask, disc(WORK_WIDTH * 0.01))


def _learn_side(search, guess: float) -> tuple[float, list[Candidate]]:
    """The side of a top face, learned from the throw (every cube is the same size): the
    median side of the candidates found with a guess that look most like faces; then
    the candidates found with it."""
    candidates = search(guess)
    threshold = _likely(candidates)
    likely = [c for c in candidates if c.likeness > threshold]
    if not likely:
        return guess, candidates
    side = float(np.median([np.sqrt(c.area) for c in likely]))
    return side, search(side)


def _likely(candidates: list[Candidate]) -> float:
    """The likeness above which a candidate counts as a probable face: 0.4, or half the
    best one's in a photo where every face looks worse (shade bands, glare, dim light)."""
    best = max((c.likeness for c in candidates), default=0.0)
    return min(0.4, max(0.5 * best, 0.03))


def _guess_score(found: tuple[float, list[Candidate]]) -> float:
    """How well a guess at the side did: the likeness of the probable faces it found,
    counted in full only for faces of the side it learned."""
    side, candidates = found
    threshold = _likely(candidates)
    return sum(c.likeness * size_fit(c.area, side) for c in candidates if c.likeness > threshold)


def _mostly_changed(outline: np.ndarray, changed: np.ndarray) -> bool:
    """Whether most of an outline is where the table changed (not part of the table)."""
    inside = np.zeros(changed.shape, np.uint8)
    cv2.fillConvexPoly(inside, outline.astype(np.int32), 255)
    return cv2.countNonZero(inside & changed) > 0.5 * max(1, cv2.countNonZero(inside))


def search_faces(image: np.ndarray, background: np.ndarray | None = None, width: int = WORK_WIDTH,
                 found: Found | None = None) -> Search:
    """Every top face in a BGR photo, straightened, with the candidates rejected (from
    the candidates `found` in it already, if given)."""
    found = find_candidates(image, background, width) if found is None else found
    search = select(image, found)
    search.far = far_part(found, image.shape)
    return search


def far_part(found: Found, shape: tuple[int, ...]) -> tuple[int, int, int, int] | None:
    """The box (x0, y0, x1, y1, the photo's pixels) round the part of a steep view where
    the camera's place says the top faces are FAR_SHRUNK of the side learned or smaller,
    and FAR_MARGIN sides round it (a cube on its edge lies whole inside), or None: there
    a face guessed at the side allowed (a quarter smaller at most, as the fit is only sure
    near the faces it was made from) takes in its side faces and the table."""
    sight = found.perspective
    if sight is None:
        return None
    height, width = shape[0] * found.scale, shape[1] * found.scale
    xs, ys = np.meshgrid(np.linspace(0, width, 33), np.linspace(0, height, 25))
    small = sight.fitted_side(np.stack([xs, ys], axis=-1)) < FAR_SHRUNK * found.side
    if not small.any():
        return None
    margin = FAR_MARGIN * found.side
    x0, x1 = max(0.0, xs[small].min() - margin), min(width, xs[small].max() + margin)
    y0, y1 = max(0.0, ys[small].min() - margin), min(height, ys[small].max() + margin)
    return int(x0 / found.scale), int(y0 / found.scale), int(np.ceil(x1 / found.scale)), int(np.ceil(y1 / found.scale))


def find_candidates(image: np.ndarray, background: np.ndarray | None = None, width: int = WORK_WIDTH) -> Found:
    """The candidate faces round every glyph seed and bright outline.  Where the faces
    are smaller than SMALL_SIDE, they are looked for again on a finer copy of the photo
    (their glyphs' strokes are a pixel or two wide at the usual working size)."""
    look = _Look.at(image, background, width)
    learned = look.ranked(look.first_guesses())
    side, candidates = learned[0]
    finer = _finer_width(image, width, side, candidates)
    if finer is None:
        found = look.checked(learned)
        side, finer = found.side, _finer_width(image, width, found.side, found.candidates)
        if finer is None:
            return _palest_print_looked(found, look.changed)
    finer_look = _Look.at(image, background, finer)
    # the first guesses again, those far larger than the faces seen on the first copy
    # last, and lazily: they learn sides the first look ranked below, and cost the most
    # to search (0.65 s for one on a cloth's weave), so they are searched only where the
    # network is sure of no face at the others
    expected = side * finer_look.scale / look.scale
    guesses = finer_look.first_guesses()
    small = [guess for guess in guesses if guess < SMALL_GUESS * expected]
    large = [guess for guess in guesses if guess >= SMALL_GUESS * expected]
    # and the first copy's side last of all: a pale, worn print on a cream table can leave
    # the usual guesses on the finer copy learning sides a third too small or half too
    # large, at none of which the network is sure of a face
    return _palest_print_looked(finer_look.checked(chain(finer_look.ranked(small), map(finer_look.learned, large),
                                                         map(finer_look.learned, [expected]))), finer_look.changed)


def _finer_width(image: np.ndarray, width: int, side: float, candidates: list[Candidate]) -> int | None:
    """The width of the finer copy to look again in, if the faces are small ones."""
    finer = min(image.shape[1], int(width * SMALL_SIDE / max(side, 1.0)))
    if finer > width * 1.2 and any(refusal(c, side) is None for c in candidates):
        return finer
    return None


@dataclass
class _Look:
    """A working copy of the photo, what changed from the empty table, the bright outlines
    on it, and the candidates searched for at each side tried."""
    view: View
    scale: float
    changed: np.ndarray | None
    outlines: list[np.ndarray]
    searched: dict[float, list[Candidate]] = field(default_factory=dict)

    @classmethod
    def at(cls, image: np.ndarray, background: np.ndarray | None, width: int) -> "_Look":
        scale = min(1.0, width / image.shape[1])
        small = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        changed = _changed(image, background, scale)
        outlines = [o for o in bright_outlines(small) if changed is None or _mostly_changed(o, changed)]
        if len(outlines) > MOST_OUTLINES:
            outlines = []         # the table's own pattern (gingham, tiles): the glyphs still find the faces
        return cls(View.of(small), scale, changed, outlines)

    def search(self, side: float) -> list[Candidate]:
        """The candidates at a side: a side within NEAR of one already tried would find
        the same faces, so its candidates are reused."""
        done = next((tried for tried in self.searched if abs(side / tried - 1) < NEAR), None)
        if done is None:
            done = side
            self.searched[side] = _candidates(self.view, side, self.changed, self.outlines)
        return self.searched[done]

    def learned(self, guess: float) -> tuple[float, list[Candidate]]:
        return _learn_side(self.search, guess)

    def first_guesses(self) -> list[float]:
        """First guesses at the side: usual sizes, and the bright faces' if there are any."""
        guesses = [self.view.small.shape[1] * share for share in FIRST_SIDES]
        if self.outlines:
            bright = float(np.median([np.sqrt(cv2.contourArea(o)) for o in self.outlines]))
            guesses = [g for g in guesses if not 0.75 < bright / g < 1.33] + [bright]
        return guesses

    def ranked(self, guesses: list[float]) -> list[tuple[float, list[Candidate]]]:
        """The side learned from each guess, with its candidates, the likeliest first."""
        return sorted(map(self.learned, guesses), key=_guess_score, reverse=True)

    def checked(self, learned) -> Found:
        """The candidates of the likeliest side learned (of `learned`, likeliest first),
        completed and judged by the face network; checked against the faces it is sure of."""
        learned = iter(learned)
        found = self.completed(*next(learned))
        tried = [found]
        checked = found.sure_side()
        # where the network is sure of hardly any face at the side the signs liked best (a
        # table's squares as large as faces), the next side it is sure of faces at
        if checked is None:
            for side, candidates in learned:
                tried.append(self.completed(side, candidates))
                checked = tried[-1].sure_side()
                if checked is not None:
                    found = tried[-1]
                    break
        # where it is sure of a face at none, the print may be worn so pale that hardly a
        # letter made a seed: the first side it is sure of faces at once letters as faint
        # as any print are looked for (not before: at half the true side, such faint marks
        # are taken for faces surely enough to keep the larger sides from being tried)
        if checked is None:
            for other in tried:
                checked = _palest_print_looked(other, self.changed).sure_side()
                if checked is not None:
                    found = other
                    break
        # and where it is sure of a face at none even so, of the likeliest side and those
        # smaller, the one it believes in most faces at: a sheet of paper's outline can
        # make the signs' likeliest side twice the faces', where the network half believes
        # in fewer faces than at the true side.  (Not larger ones: an outline taking in a
        # side face with its top face is believed in too readily.)
        if checked is None:
            found = max((other for other in tried if other.side <= found.side), key=lambda other: other.believed())
        # the hand-made signs' likely faces include pairs of touching cubes and faces with
        # their side face, which make the side learned from them too large; the faces the
        # network is sure of do not.  Where those are clearly smaller, the candidates are
        # looked for again with their side; and where they are far larger (a gingham's
        # squares, smaller than the faces, were taken for them), so too.  (Larger measured by
        # their areas: a slanted face's long side, and a face traced with a strip of table,
        # make the long sides high, by 40 % and more of a true side on a steep view)
        if checked is not None and (checked < (1 - NEAR) * found.side
                                    or found.sure_side(long=False) > FAR_LARGER * found.side):
            # the plastic the sure faces show goes with it: at the side checked, the
            # network may be sure of no face before the faint letters are found, and
            # they are found (past a wood's grain) only where the plastic is; the side is
            # settled then, so the palest print is looked for too (before the faces found
            # decide whether a finer copy is looked in)
            plastic = _plastic_levels(found.candidates)
            return _palest_print_looked(self.completed(checked, self.search(checked), plastic), self.changed, plastic)
        return found

    def completed(self, side: float, candidates: list[Candidate],
                  plastic: tuple[float, float] | None = None) -> Found:
        return _completed(self.view, self.scale, side, candidates, self.changed, plastic)


def _completed(view: View, scale: float, side: float, candidates: list[Candidate],
               changed: np.ndarray | None, plastic: tuple[float, float] | None = None) -> Found:
    """The traced candidates, and those round blurred and faint letters and letters joined
    to a side face's (looked for once the side is known: they are little help in learning
    it, and cost a trace each), a guessed face round
    every glyph, as large as a top face is at its place (its size is no evidence of the
    camera's place, which comes from the traced faces alone), a larger one where the
    network doubts both (see `_guessed_larger`), and the face network's judgement of each."""
    traced = [c for c in candidates if not c.guessed]
    sight = _perspective(traced, side, view.small.shape)
    clean, depth = view.closed(side), view.darkness(side)
    pieces = [c.seed for c in traced if c.seed is not None]
    traced += [c for c in _traced(view, side, clean, blurred_letter_seeds(depth, side, changed, pieces))
               if not c.guessed]
    known = [c.seed for c in traced if c.seed is not None]
    traced += [c for c in _traced(view, side, clean, faint_letter_seeds(
        depth, side, changed, known, plastic=None if plastic is None else _on_plastic(clean, plastic)))
               if not c.guessed]
    known = [c.seed for c in traced if c.seed is not None]
    traced += [c for c in _traced(view, side, clean, joined_letter_seeds(depth, side, changed, known))
               if not c.guessed]
    found = Found(view, scale, side, traced, sight)
    found.judge()
    # the camera's place again, from the outlines the network is sure of: the signs'
    # likely faces include outlines cut short by a glyph or run into a side face, and a
    # few of those in one part of the photo tilt the fit far wrong at its other edges
    # (faces predicted a third smaller than they are, whose guessed faces then cut their
    # glyphs, and whose traced faces lose to outlines of that wrong size)
    found.sight = _camera_place(traced, sight, view.small.shape)
    guessable = [c for c in traced if c.seed is not None]
    guessed = _guessed(view, clean, guessable, [found.side_at(c.middle) for c in guessable])
    found.judge(guessed)
    found.candidates = (traced + guessed + _guessed_larger(found, clean, guessable, guessed)
                        + _guessed_flatter(found, clean, guessable, guessed))
    # red ink looks as dark as black, but is much lighter in grey (its red channel is
    # bright), the more where the print has worn: letters faint in grey and dark once the
    # green is seen too are looked for apart from every seed so far.  The dice of a throw
    # share their print: where it has worn pale, their letters are fainter than any
    # seed's, and are looked for as faint as the faces found show, red and black
    _faint_letters(found, clean, depth, changed, traced, _faintest_letter(print_contrast(found.candidates)),
                   _on_plastic(clean, _plastic_levels(found.candidates) or plastic))
    return found


def _palest_print_looked(found: Found, changed: np.ndarray | None,
                         plastic: tuple[float, float] | None = None) -> Found:
    """`found`, and where the network is sure of too few of its faces to show the print
    (worn so pale that hardly a letter made a seed), the faces round letters as faint as
    any print is, and once those show the print, round letters as faint as it is (added
    to `found`, once its side is settled or where the network is sure of a face at no side
    learned: see `_Look.checked`), where the dice's plastic is (as its sure faces show it,
    else as `plastic` says).  Once a found's: a second look, from all its seeds, finds none."""
    if found.palest_looked or print_contrast(found.candidates) is not None:
        return found
    found.palest_looked = True
    clean, depth = found.view.closed(found.side), found.view.darkness(found.side)
    traced = _faint_letters(found, clean, depth, changed, list(found.candidates), PALEST_PRINT,
                            _on_plastic(clean, _plastic_levels(found.candidates) or plastic))
    throw_print = print_contrast(found.candidates)
    if throw_print is not None:
        _faint_letters(found, clean, depth, changed, traced, _faintest_letter(throw_print),
                       _on_plastic(clean, _plastic_levels(found.candidates)))
    return found


def _faint_letters(found: Found, clean: np.ndarray, depth: np.ndarray, changed: np.ndarray | None,
                   traced: list[Candidate], least: float, plastic: np.ndarray | None) -> list[Candidate]:
    """The faces round red letters, and where `least` is fainter than the faint letters
    looked for before, round black ones, at least `least` darker than round them and
    apart from the `traced` faces' seeds, added to `found`; the traced faces, with the new."""
    known = [c.seed for c in traced if c.seed is not None]
    traced = traced + _looked_again(found, clean, faint_letter_seeds(found.view.red_darkness(found.side), found.side,
                                                                     changed, known, least, plastic))
    if least < FAINT_LETTER_DEPTH:
        known = [c.seed for c in traced if c.seed is not None]
        traced = traced + _looked_again(found, clean, faint_letter_seeds(depth, found.side, changed, known, least,
                                                                         plastic))
    return traced


def _guessed_larger(found: Found, clean: np.ndarray, traced: list[Candidate],
                    guessed: list[Candidate]) -> list[Candidate]:
    """A second face guessed round each glyph whose traced and guessed faces the face
    network is unsure of, yet takes for a face a little: LARGER_GUESS times the side
    expected there, judged.  The side learned runs small where the outlines are poor (a
    white cube on a white table, a slant that foreshortens the faces measured), and the
    network, seeing the face's own plastic round an outline too small, doubts it."""
    unsure = [c for c, g in zip(traced, guessed) if GUESS_WORTH <= max(c.topness or 0.0, g.topness or 0.0) < SURE_SIDE]
    larger = _guessed(found.view, clean, unsure, [LARGER_GUESS * found.side_at(c.middle) for c in unsure])
    found.judge(larger)
    return larger


def _guessed_flatter(found: Found, clean: np.ndarray, traced: list[Candidate],
                     guessed: list[Candidate]) -> list[Candidate]:
    """Faces guessed round each glyph where the line of sight is steep and the face network
    is not sure of its traced or guessed faces, shaped as a top face looks there (see
    `Perspective.top_face`), judged: at the far edge of a steep view the top face is a
    sliver, and a square round its glyph takes in the side face below it.  Where the
    network doubts that one too, yet takes it for a face a little, a second a quarter
    smaller (FLAT_SMALLER).  None round glyphs the network takes for no face at all
    (FLAT_PRIOR: a table's marks, whose flat guesses never rose above 0.11)."""
    sight = found.perspective
    if sight is None:
        return []
    doubted = [g for c, g in zip(traced, guessed) if FLAT_PRIOR <= max(c.topness or 0.0, g.topness or 0.0) < SURE_SIDE]
    # as large as the camera's place says, within FAR_SIDES of the side learned: the far
    # faces of a steep view are smaller than the third the square guess allows
    sizes = [sight.side_at(g.middle, found.side, FAR_SIDES) / found.side_at(g.middle) for g in doubted]
    flatter = _flat_guesses(found, clean, sight, doubted, sizes, 1.0)
    # the fit is of the roots of the faces' areas, which shrink faster with the depth than
    # the sides do: at the far edge of a steep view it says some faces a quarter too large
    # and others right (either size alone finds fewer dice than both, the network choosing)
    again = [(g, size * FLAT_SMALLER) for g, size, f in zip(doubted, sizes, flatter)
             if f is not None and FLAT_WORTH <= (f.topness or 0.0) < SURE_SIDE]
    smaller = _flat_guesses(found, clean, sight, [g for g, _ in again], [size for _, size in again], FLAT_SMALLER)
    return [f for f in flatter + smaller if f is not None]


def _flat_guesses(found: Found, clean: np.ndarray, sight: Perspective, guessed: list[Candidate],
                  sizes: list[float], stated: float) -> list[Candidate | None]:
    """Round each square guess, a face shaped as a top face looks there, `sizes` times as
    large, judged; None where it would look much the same as the square.  Its size, for
    the tests of size, is stated as the square's times `stated` (a smaller guess lies
    inside a larger one round the same glyph, and overlaps are measured by that size)."""
    shaped = [sight.top_face(g.middle + (g.corners - g.middle) * size, g.middle) for g, size in zip(guessed, sizes)]
    made = [(g, outline) for g, outline in zip(guessed, shaped) if outline is not None]
    inside = iter(_inside(found.view, clean, [outline for _, outline in made]) if made else [])
    flat = [None if outline is None else
            Candidate(outline, stated * g.width, stated * g.height, **next(inside), border=g.border, fill=GUESSED)
            for g, outline in zip(guessed, shaped)]
    found.judge([f for f in flat if f is not None])
    return flat


def _plastic_levels(candidates: list[Candidate]) -> tuple[float, float] | None:
    """The brightness of the faces the face network is sure of, dimmest and brightest:
    the dice of a throw share their plastic, though the light across the table may vary
    twice over.  None where too few faces are sure to tell."""
    sure = sure_faces(candidates)
    if sure is None:
        return None
    levels = [c.level for c in sure]
    return min(levels), max(levels)


def _on_plastic(clean: np.ndarray, levels: tuple[float, float] | None) -> np.ndarray | None:
    """Where the photo, its letters wiped off, is about as bright as the dice's plastic
    (`levels`), or between (0/255); None where that is not known."""
    if levels is None:
        return None
    return cv2.inRange(clean, levels[0] / PLASTIC_SPREAD, levels[1] * PLASTIC_SPREAD)


def _faintest_letter(print_contrast: float | None) -> float:
    """How much darker than round it the faintest letter looked for once the faces are
    judged is: as faint as the faint letters, or where the throw's print has worn pale
    (see `print_contrast`: whole print shows 0.5 and more), a share of its contrast.
    (A worn black print can show more contrast than its worn red one, pale in grey:
    both are looked for as faint.)"""
    if print_contrast is None:
        return FAINT_LETTER_DEPTH
    return min(FAINT_LETTER_DEPTH, max(PALEST_PRINT, WORN_SHARE * print_contrast))


def _looked_again(found: Found, clean: np.ndarray, seeds: list[tuple[int, int, int, int]]) -> list[Candidate]:
    """The faces round letters looked for once the others are judged: traced and guessed
    round each seed, judged, and added to `found`.  The traced ones are returned (their
    seeds are known from then on)."""
    view, side = found.view, found.side
    traced = [c for c in _traced(view, side, clean, seeds) if not c.guessed]
    more = traced + _guessed(view, clean, traced, [found.side_at(c.middle) for c in traced])
    found.judge(more)
    found.candidates += more
    return traced


def _perspective(candidates: list[Candidate], side: float, shape: tuple[int, ...]) -> "Perspective | None":
    """Where the camera stands, from the probable faces of about the learned size."""
    threshold = _likely(candidates)
    return Perspective.fit([c for c in candidates if c.likeness > threshold and size_fit(c.area, side) > 0.7],
                            shape)


def _camera_place(traced: list[Candidate], signs: "Perspective | None",
                  shape: tuple[int, ...]) -> "Perspective | None":
    """Where the camera stands, from the outlines the network is sure of: their sizes'
    fit; where the sizes show no lean (a steep view's side faces, as large as its far top
    faces, flatten their gradient) or the sure faces are too few for a fit, how they are
    squeezed; where they are too few for that too but for sizing a fit (MIN_FOR_SQUEEZE),
    the fit of the outlines the network takes for faces fairly surely (FAIR_SIDE), sized
    as the sure ones are (those it half believes include outlines cut short by a glyph,
    which make every face a tenth or more smaller).  Else the signs' fit, trusted no
    further than a camera seen straight down (faces alike in size, side faces told only
    at the far edges)."""
    sure = sure_once(traced)
    fitted = Perspective.fit(sure, shape)
    if fitted is not None and fitted.tilted:
        return fitted
    squeezed = Perspective.from_squeeze(sure, shape)
    if squeezed is not None or fitted is not None:
        return squeezed or fitted
    fair = Perspective.fit(sure_once(traced, FAIR_SIDE), shape) if len(sure) >= MIN_FOR_SQUEEZE else None
    if fair is not None:
        return fair.sized_as(sure)
    return None if signs is None else signs.straight_down()


def sure_once(candidates: list[Candidate], sure_side: float = SURE_SIDE) -> list[Candidate]:
    """The outlines the face network is sure of (over `sure_side`), each face once (two
    outlines of one face would count its size twice), whatever their size (the side
    learned can itself be a sixth too small, where the likely faces' glyphs cut their
    outlines short)."""
    sure: list[Candidate] = []
    for c in sorted((c for c in candidates if c.topness is not None and c.topness > sure_side),
                    key=lambda c: -c.topness):
        if all(overlap(c, k) <= OVERLAP for k in sure if near(c, k)):
            sure.append(c)
    return sure
