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


def test_the_u_of_a_qu_reaching_the_edge_is_part_of_the_glyph():
    # Boggle's "Qu" fills the face: its u reaches the edge, a little apart from the Q
    face = _face()
    cv2.circle(face, (36, 46), 22, (30, 30, 30), 7)                     # the Q's bowl
    cv2.line(face, (44, 60), (58, 72), (30, 30, 30), 6)                 # and its tail
    cv2.ellipse(face, (78, 52), (11, 14), 0, 0, 180, (30, 30, 30), 5)   # a u against the right edge
    cv2.line(face, (67, 38), (67, 52), (30, 30, 30), 5)
    cv2.line(face, (89, 38), (89, 66), (30, 30, 30), 5)
    assert not extract_ink(face).mask[:, 80:].any()             # (on dice with no Qu, it is the next face's)
    ink = extract_ink(face, qu=True)
    assert ink.mask[:, 80:].any() and ink.mask[30:60, 14:20].any()


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


def _t(face: np.ndarray) -> np.ndarray:
    cv2.rectangle(face, (26, 14), (70, 24), (30, 30, 30), -1)
    cv2.rectangle(face, (43, 14), (53, 80), (30, 30, 30), -1)
    return face


def test_a_face_half_in_shade_gives_the_glyph_not_the_shade():
    # a lamp to one side: the left of the face half as bright as the right, shading into
    # it; the shaded half was taken for ink (and a clean T for no glyph at all)
    face = _face()
    face[:, :40] = 110
    face[:, 40:56] = np.linspace(110, 225, 16)[None, :, None].astype(np.uint8)
    ink = extract_ink(_t(face))
    assert ink.mask[:, :20].max() == 0 and ink.mask[:, 76:].max() == 0
    assert ink.mask[16:78, 45:52].all() and ink.mask[16:23, 28:69].all()


def test_a_bold_stroke_on_a_face_in_shade_is_ink_not_dim_light():
    # the light is measured on the brightest pixels of each block, and the blocks a bold
    # stroke covers are left out: a light that followed the strokes would take a stroke
    # two blocks wide for a dim part of the face and lose it
    face = _face()
    face[:, :40] = 110
    face[:, 40:56] = np.linspace(110, 225, 16)[None, :, None].astype(np.uint8)
    cv2.rectangle(face, (56, 14), (84, 80), (30, 30, 30), -1)
    cv2.rectangle(face, (30, 14), (84, 22), (30, 30, 30), -1)
    ink = extract_ink(face)
    assert ink.mask[16:78, 58:82].all() and ink.mask[:, :20].max() == 0


def test_the_pale_hairlines_of_a_letter_are_its_ink_when_asked_for():
    # a serif T in blur: the stem dark, the thin bar pale; without it the T is an I
    face = _face()
    cv2.rectangle(face, (44, 18), (54, 80), (30, 30, 30), -1)
    cv2.rectangle(face, (24, 18), (74, 21), (185, 185, 185), -1)
    assert not extract_ink(face).mask[19, 26:73].any()
    assert extract_ink(face, hairlines=True).mask[19, 26:73].all()


def test_a_darker_level_parts_strokes_blur_ran_together_and_a_paler_keeps_a_faded_one():
    # a V whose arms blur filled grey between them (a U at the plain level), and an H
    # whose bar has worn pale (two I's)
    face = _face()
    cv2.rectangle(face, (30, 18), (40, 78), (30, 30, 30), -1)
    cv2.rectangle(face, (56, 18), (66, 78), (30, 30, 30), -1)
    cv2.rectangle(face, (41, 50), (55, 78), (150, 150, 150), -1)
    assert extract_ink(face).mask[64, 48] and not extract_ink(face, level=1.25).mask[64, 48]
    face = _face()
    cv2.rectangle(face, (30, 18), (40, 78), (30, 30, 30), -1)
    cv2.rectangle(face, (56, 18), (66, 78), (30, 30, 30), -1)
    cv2.rectangle(face, (41, 44), (55, 50), (185, 185, 185), -1)
    assert not extract_ink(face).mask[47, 48] and extract_ink(face, level=0.65).mask[47, 48]


def test_pale_ink_apart_from_the_glyph_is_no_hairline():
    face = _face()
    cv2.rectangle(face, (44, 18), (54, 80), (30, 30, 30), -1)
    cv2.rectangle(face, (62, 40), (80, 44), (185, 185, 185), -1)     # a pale smudge not joined to it
    assert not extract_ink(face, hairlines=True).mask[42, 64:78].any()


def test_a_pale_letter_above_a_dark_strip_of_table_past_the_outline_is_the_glyph():
    # an outline reaching past the face's edge onto the shaded table: the strip is much
    # darker than a pale grey O, set the ink's level, and was read as an I
    face = np.full((SIZE, SIZE, 3), 220, np.uint8)
    cv2.ellipse(face, (48, 36), (30, 18), 0, 0, 360, (171, 171, 171), 10)
    face[66:82, :] = np.linspace(205, 150, 16).astype(np.uint8)[:, None, None]     # the face's shaded edge
    face[82:, :] = (51, 79, 90)
    ink = extract_ink(face)
    assert ink is not None and not ink.clipped
    assert ink.mask[76:, :].max() == 0
    assert ink.mask[36, 18:24].any() and ink.mask[36, 72:78].any()      # both sides of the O


def test_a_letter_at_the_edge_of_a_face_with_no_other_ink_is_kept():
    # an L lying along the bottom edge, its foot touching it, is the glyph: no band
    face = _face()
    cv2.rectangle(face, (20, 40), (28, 89), (30, 30, 30), -1)
    cv2.rectangle(face, (20, 82), (70, 89), (30, 30, 30), -1)
    assert extract_ink(face).mask[85, 30:68].all()
