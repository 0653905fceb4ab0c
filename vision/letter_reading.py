"""Each glyph's letter: the letter network's reading, as distances to every letter (the
references rendered from the shipped fonts say how near the nearest letter is), and the
glyph read again where its outline may have cut it, a stroke faded or blur ran its strokes
together: with its hairlines, at a darker and a paler ink level, in a smaller outline, in
the outline moved to have the glyph in its middle."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import cv2
import numpy as np

from vision import letter_net
from vision.classifier import LETTERS, many_letter_distances
from vision.glyphs import Ink, extract_ink
from vision.top_faces import Face, warp

TEMPERATURE = 0.02         # how fast confidence falls as another letter comes near
NET_FLOOR = 1e-6           # the least probability the network's word is taken at (a distance must stay finite)
LOOK_PAST = 1.15           # a glyph running into its outline's edge is looked at again in an outline this much larger
SECOND_LOOK_ASK = 0.5      # a clipped glyph the letter network is less sure of is looked at again in another
SECOND_LOOK_SURER = 0.1    # ... outline, and read so where the network is this much surer of it there:
LOOK_INSIDE = 0.84         # ... one this much smaller,
CENTRING_STEPS = 2         # ... and one moved (this many times) to have the glyph in its middle
CUT_I_SURE = 0.5           # a clipped I the moved outline shows this surely as another letter is that letter
WHOLE_SURE = 0.9           # a clipped glyph the moved outline shows whole, read this surely, is read so
HAIRLINE_ASK = 0.9         # a glyph the network is less sure of (top probability x letterness) is read
                           # with its hairlines
NO_FACE_AT_ALL = 0.05      # a candidate this little face-like (table texture, to the face network) is no cube
                           # however it reads: it is not read again with hairlines or in other outlines
HAIRLINE_DOUBT = 0.5       # an I its hairlines make another letter this surely may be that letter faded
OTHER_LEVELS = (1.25, 0.65)  # a glyph as unsure as HAIRLINE_ASK is read again with its ink this much darker, paler,
LEVEL_SURER = 0.2          # ... and read so where the network is this much surer of it there


def letter_distances(image: np.ndarray, inked: list[tuple[Face, Ink]], qu: bool,
                     notes: list[str]) -> list[tuple[Face, Ink, np.ndarray, np.ndarray, float]]:
    """Each glyph's face and ink as read (see `_with_hairlines`, `_inside_the_outline` and
    `_round_the_glyph`), its distance to every letter, the quarter turn that fits each,
    and how surely it is a letter at all.  The reference glyphs say how near the nearest
    letter is (so a shadow stays far from every letter); the network, where it can run,
    how much further each other letter is: its log-probabilities in units of
    TEMPERATURE, so the letter's share of the confidence the reader reports is the
    network's probability.  (Measured on 3-D renders, the network alone reads more
    letters right, and its confident readings are more often right, than the references
    or the two averaged.)"""
    inks = [ink for _, ink in inked]
    try:
        net = letter_net.read_glyphs([_as_read(ink) for ink in inks], qu)
    except letter_net.ModelMissing as exc:
        notes.append(f"Letters read by the reference glyphs alone: {exc}.")
        hog = many_letter_distances([_as_read(ink) for ink in inks], qu)
        return [(face, ink, distances, turns, 1.0) for (face, ink), (distances, turns) in zip(inked, hog)]
    inked, net = _at_other_levels(*_with_hairlines(inked, net, qu), qu)
    inked, net = _round_the_glyph(image, *_inside_the_outline(image, inked, net, qu), qu)
    hog = many_letter_distances([_as_read(ink) for _, ink in inked], qu)
    return [(face, ink, _learned_distances(distances.min(), reading.probabilities), reading.turns, reading.letterness)
            for (face, ink), (distances, _), reading in zip(inked, hog, net)]


def _learned_distances(nearest: float, probabilities: np.ndarray) -> np.ndarray:
    """The network's probabilities as distances: the likeliest letter at the nearest
    reference's distance, each other one TEMPERATURE further for each factor e less likely."""
    log_p = np.log(np.maximum(probabilities, NET_FLOOR))
    return nearest + TEMPERATURE * (log_p.max() - log_p)


def _as_read(ink: Ink) -> tuple[np.ndarray, int | None]:
    """What the letter steps read of an ink: its mask, and the quarter turn its bar says."""
    return ink.mask, ink.bar_below


def _with_hairlines(inked: list[tuple[Face, Ink]], net: list[letter_net.NetReading],
                    qu: bool) -> tuple[list[tuple[Face, Ink]], list[letter_net.NetReading]]:
    """Each glyph's ink and the network's reading of it.  A glyph the network is unsure
    of, or reads I (what an L, T or D leaves when a thin stroke fades), is read again
    with its hairlines (the pale thin strokes of a blurred serif letter: an L's foot, a
    T's bar, a D's bowl, an O's side in glare).  It is taken so where the network is
    surer of that; an I that its hairlines make another letter fairly surely
    (HAIRLINE_DOUBT) is in doubt.  (A margin the hairlines must add, for the extra ink
    can as well be a shadow or the cube's edge, left more faded letters wrong on hard
    renders than it saved)"""
    inked, net = list(inked), list(net)
    asked = [i for i, reading in enumerate(net) if _worth_a_look(inked[i][0])
             and (reading.sureness < HAIRLINE_ASK or _read_i(reading))]
    looks = _looks(inked, qu, asked, lambda face, _: _ink_of(face, qu, hairlines=True))
    for i, (with_hairlines, reading) in looks.items():
        face, plain = inked[i]
        if reading.sureness > net[i].sureness:
            inked[i], net[i] = with_hairlines, reading
        elif _read_i(net[i]) and not _read_i(reading) and reading.sureness >= HAIRLINE_DOUBT:
            inked[i] = face, replace(plain, cut_off=True)
    return inked, net


def _at_other_levels(inked: list[tuple[Face, Ink]], net: list[letter_net.NetReading],
                     qu: bool) -> tuple[list[tuple[Face, Ink]], list[letter_net.NetReading]]:
    """A glyph the network is unsure of, read again with the ink's threshold set darker
    and paler (OTHER_LEVELS): one level cannot suit every blurred or worn letter. Blur
    runs a letter's strokes together with the grey between them (a W read X, an O D,
    a Z N) and a darker level parts them; a stroke worn or blurred paler than the rest
    falls out of the ink (an M read W, a U L) and a paler level keeps it.  Taken where
    the network is clearly surer of it (never for an I: see `_looked_again`).  Where it
    is at no level, each may show a part of the letter, and its readings at every level
    are averaged (`_averaged`): only those under the same orientation bar as its own (a
    bar fixes the turn of the letters it is under: without it N and Z, M and W mean
    other things), and an I at another level only where the glyph read I at its own (a
    level can cut a letter down to one stroke).  Left to its own level, an N read F at
    it (N darker, E paler, none surely) stayed F, and a D read I at its own level and
    darker (E paler) came out unmarked at 0.91 (HISTORY, 2026-12-07)."""
    asked = [i for i, ((face, _), reading) in enumerate(zip(inked, net))
             if _worth_a_look(face) and reading.sureness < HAIRLINE_ASK]
    inked, net = list(inked), list(net)
    at_levels = {i: [net[i]] for i in asked}
    bars = {i: inked[i][1].bar_below for i in asked}
    taken = set()
    for level in OTHER_LEVELS:
        looks = _looks(inked, qu, asked, lambda face, _, level=level: _ink_of(face, qu, level=level))
        for i, (look, reading) in looks.items():
            if look[1].bar_below == bars[i] and (_read_i(at_levels[i][0]) or not _read_i(reading)):
                at_levels[i].append(reading)
            if not _read_i(reading) and reading.sureness > net[i].sureness + LEVEL_SURER:
                inked[i], net[i] = look, reading
                taken.add(i)
    for i, readings in at_levels.items():
        if i not in taken:
            net[i] = _averaged(readings, net[i].turns)
    return inked, net


def _averaged(readings: list[letter_net.NetReading], turns: np.ndarray) -> letter_net.NetReading:
    """One glyph's readings as one, with the quarter turns `turns`: their probabilities
    and letterness averaged."""
    if len(readings) == 1:
        return readings[0]
    return letter_net.NetReading(np.mean([r.probabilities for r in readings], axis=0), turns,
                                 float(np.mean([r.letterness for r in readings])))


def _ink_of(face: Face, qu: bool, **how) -> tuple[Face, Ink] | None:
    """The face and its ink taken another way (`how`: with its hairlines, at another
    level; see glyphs.extract_ink), or None where it shows no glyph so."""
    ink = extract_ink(face.square, qu=qu, **how)
    return None if ink is None else (face, ink)


def _inside_the_outline(image: np.ndarray, inked: list[tuple[Face, Ink]], net: list[letter_net.NetReading],
                        qu: bool) -> tuple[list[tuple[Face, Ink]], list[letter_net.NetReading]]:
    """A glyph that runs into its outline's edge and that the network is unsure of,
    looked at again in a smaller outline: where the outline was too large, the cube's
    edge, a neighbour's or the side face's border joined the glyph (a C in a frame read
    G, an L with a band under it Y), and inside it the glyph stands alone.  Taken where
    the network is clearly surer of it (but never for an I: see `_looked_again`)."""
    asked = [i for i, ((face, ink), reading) in enumerate(zip(inked, net))
             if _worth_a_look(face) and ink.clipped and reading.sureness < SECOND_LOOK_ASK]
    return _looked_again(inked, net, qu, asked,
                         lambda face, ink: _look(image, face, scaled(face.corners, LOOK_INSIDE), qu),
                         lambda before, after, *_: after.sureness > before.sureness + SECOND_LOOK_SURER)


def _round_the_glyph(image: np.ndarray, inked: list[tuple[Face, Ink]], net: list[letter_net.NetReading],
                     qu: bool) -> tuple[list[tuple[Face, Ink]], list[letter_net.NetReading]]:
    """A glyph that runs into its outline's edge, looked at again in the outline moved to
    have the glyph in its middle (a cube's letter is): where the outline lies off the
    face, on its side face or a strip of table, the glyph is cut at the edge (an N or an
    M down to a T, an L to an I, and to letters the network can be sure of: an O to a C,
    an M to an N).  So too a glyph read I or unsure, with ink left out beside it at the
    edge that may be its own stroke (see glyphs.Ink.cut_off: a B's bowls past an outline
    a side face's width off, its stem read I), moved to have the two in its middle (a
    glyph read surely is left: packed in a tray, the ink beside it is the next die's
    letter); but there the moved outline must not cut the glyph (where the ink beside
    it was the side face's, it would).  Taken where the network is clearly surer of it,
    or fairly sure of another letter than the I, or sure of the glyph it shows whole."""
    asked = [i for i, ((face, ink), reading) in enumerate(zip(inked, net)) if _worth_a_look(face) and (
        ink.clipped or ink.reach and (reading.sureness < SECOND_LOOK_ASK or _read_i(reading)))]
    return _looked_again(inked, net, qu, asked,
                         lambda face, ink: _centred_outline(image, face, ink, qu),
                         lambda before, after, was, ink: (was.clipped or not ink.clipped) and (
                             after.sureness > before.sureness + SECOND_LOOK_SURER
                             or _read_i(before) and after.sureness >= CUT_I_SURE
                             or not ink.clipped and after.sureness >= WHOLE_SURE))


def _looked_again(inked: list[tuple[Face, Ink]], net: list[letter_net.NetReading], qu: bool,
                  asked: list[int], look_of: Callable[[Face, Ink], tuple[Face, Ink] | None],
                  better: Callable[[letter_net.NetReading, letter_net.NetReading, Ink, Ink], bool]
                  ) -> tuple[list[tuple[Face, Ink]], list[letter_net.NetReading]]:
    """The `asked` glyphs read again from another outline (see `_looks`), and taken so
    where that reading is `better(before, after, the ink before, the ink after)` and not
    an I: another outline can cut a letter down to one stroke, which reads I."""
    inked, net = list(inked), list(net)
    for i, (looked, reading) in _looks(inked, qu, asked, look_of).items():
        if not _read_i(reading) and better(net[i], reading, inked[i][1], looked[1]):
            inked[i], net[i] = looked, reading
    return inked, net


def _looks(inked: list[tuple[Face, Ink]], qu: bool, asked: list[int],
           look_of: Callable[[Face, Ink], tuple[Face, Ink] | None]
           ) -> dict[int, tuple[tuple[Face, Ink], letter_net.NetReading]]:
    """The `asked` glyphs seen again (`look_of(face, ink)`: the face there and its ink,
    or None where there is none), each with the network's reading of it there."""
    looks = {i: looked for i in asked for looked in [look_of(*inked[i])] if looked is not None}
    again = letter_net.read_glyphs([_as_read(ink) for _, ink in looks.values()], qu)
    return {i: (looked, reading) for (i, looked), reading in zip(looks.items(), again)}


def scaled(corners: np.ndarray, scale: float) -> np.ndarray:
    """An outline scaled about its middle."""
    middle = corners.mean(axis=0)
    return (middle + scale * (corners - middle)).astype(np.float32)


def _look(image: np.ndarray, face: Face, corners: np.ndarray, qu: bool) -> tuple[Face, Ink] | None:
    """The face seen in another outline, and its ink there (None where it shows no glyph)."""
    square = warp(image, corners)
    ink = extract_ink(square, qu=qu)
    return None if ink is None else (replace(face, corners=corners, square=square), ink)


def _centred_outline(image: np.ndarray, face: Face, ink: Ink, qu: bool) -> tuple[Face, Ink] | None:
    """The face in its outline moved in its own plane until the glyph's box lies in its
    middle (CENTRING_STEPS times: a glyph cut at the edge shows less than its whole box
    at first), and its ink there, or None where the glyph is lost on the way.  Where the glyph, in its
    middle, still runs into the edge, the outline is too small for it (an upside-down U
    wider than its outline, cut to an L), and is made LOOK_PAST larger."""
    size = face.square.shape[0]
    square = np.float32([[0, 0], [size - 1, 0], [size - 1, size - 1], [0, size - 1]])
    corners = face.corners.astype(np.float32)
    for step in range(CENTRING_STEPS):
        if step:
            ink = extract_ink(warp(image, corners), qu=qu)
            if ink is None:
                return None
        if ink.reach is None or ink.clipped:        # (a clipped glyph's own box says where it lies)
            ys, xs = np.nonzero(ink.mask)
            box = xs.min(), ys.min(), xs.max(), ys.max()
        else:
            box = ink.reach[0], ink.reach[1], ink.reach[2] - 1, ink.reach[3] - 1
        off_middle = np.float32([box[0] + box[2], box[1] + box[3]]) / 2 - (size - 1) / 2
        corners = cv2.perspectiveTransform((square + off_middle)[None],
                                           cv2.getPerspectiveTransform(square, corners))[0]
    moved = _look(image, face, corners, qu)
    return _look(image, face, scaled(corners, LOOK_PAST), qu) if moved is not None and moved[1].clipped else moved


def _worth_a_look(face: Face) -> bool:
    """Whether a glyph's face is worth reading again: some face at all to the network."""
    return face.likeness >= NO_FACE_AT_ALL


def _read_i(reading: letter_net.NetReading) -> bool:
    return int(np.argmax(reading.probabilities)) == LETTERS.index("I")
