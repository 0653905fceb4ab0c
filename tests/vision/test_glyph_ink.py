"""The glyph's ink on a straightened face: what belongs to the letter and what does not."""
import cv2
import numpy as np

from vision.glyphs import extract_ink

SIZE = 96


def _face() -> np.ndarray:
    return np.full((SIZE, SIZE, 3), 225, np.uint8)


def _ink_columns(mask: np.ndarray) -> np.ndarray:
    return np.nonzero(mask.any(axis=0))[0]


def test_a_side_face_letter_seen_past_the_outline_is_not_part_of_the_glyph():
    face = _face()
    cv2.rectangle(face, (26, 14), (70, 22), (30, 30, 30), -1)           # a T in the upper part
    cv2.rectangle(face, (44, 14), (52, 52), (30, 30, 30), -1)
    cv2.rectangle(face, (42, 76), (56, 88), (30, 30, 30), -1)           # a squashed piece at the bottom edge
    ink = extract_ink(face)
    assert ink is not None
    assert ink.mask[70:, :].max() == 0
    assert ink.mask[14:52, 44:52].all()


def test_an_h_whose_bar_faded_keeps_both_stems():
    face = _face()
    cv2.rectangle(face, (24, 18), (34, 78), (30, 30, 30), -1)
    cv2.rectangle(face, (62, 18), (72, 78), (30, 30, 30), -1)
    ink = extract_ink(face)
    columns = _ink_columns(ink.mask)
    assert columns.min() <= 25 and columns.max() >= 71


def test_a_stroke_as_tall_as_the_glyph_left_out_at_the_edge_leaves_it_in_doubt():
    # an outline a little too small round a bold H whose bar faded: its stems touch the
    # face's edges and are left out, and the middle stroke alone reads as an I
    face = _face()
    cv2.rectangle(face, (40, 16), (54, 80), (30, 30, 30), -1)
    cv2.rectangle(face, (0, 16), (14, 80), (30, 30, 30), -1)
    cv2.rectangle(face, (82, 16), (95, 80), (30, 30, 30), -1)
    ink = extract_ink(face)
    assert ink.cut_off


def test_a_sliver_of_the_next_face_at_the_edge_leaves_no_doubt():
    face = _face()
    cv2.rectangle(face, (40, 16), (54, 80), (30, 30, 30), -1)
    cv2.rectangle(face, (84, 30), (95, 44), (30, 30, 30), -1)
    ink = extract_ink(face)
    assert not ink.cut_off


def _stem(face: np.ndarray) -> np.ndarray:
    cv2.rectangle(face, (42, 22), (54, 72), (30, 30, 30), -1)
    return face


def test_a_stroke_too_faint_for_ink_but_joined_to_the_glyph_leaves_it_in_doubt():
    # a blurred serif L whose thin foot fades: its dark stem alone reads as I, surely
    plain = extract_ink(cv2.GaussianBlur(_stem(_face()), (0, 0), 1.0))
    footed = _stem(_face())
    cv2.rectangle(footed, (55, 66), (72, 71), (160, 160, 160), -1)
    faded = extract_ink(cv2.GaussianBlur(footed, (0, 0), 1.0))
    assert not plain.cut_off
    assert faded.cut_off and faded.mask[66:72, 60:72].max() == 0       # left out, but in doubt


def test_a_faint_rim_along_the_face_s_edge_is_no_stroke():
    face = _stem(_face())
    cv2.rectangle(face, (0, 0), (95, 5), (160, 160, 160), -1)           # the cube's rounded edge, shaded
    cv2.rectangle(face, (42, 5), (54, 22), (160, 160, 160), -1)          # ... joined to the stem by shade
    assert not extract_ink(cv2.GaussianBlur(face, (0, 0), 1.0)).cut_off
