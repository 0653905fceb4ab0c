"""Glyph seeds: the dark marks a face is looked for round."""
import cv2
import numpy as np
import pytest

from vision import faces, glyph_seeds, outlines, working_copy
from vision.synth3d import make_throw_3d

SIDE = 40


def _face_with_n(edge_line: bool, faces_long: float = 2) -> np.ndarray:
    """A pale face with a bold N on it, and maybe a cube's dark edge line running into
    the N's right stroke and on for `faces_long` faces' length (the gap to a touching cube)."""
    image = np.full((200, 400), 215, np.uint8)
    x, y, h, stroke = 100, 80, 26, 5
    cv2.line(image, (x, y + h), (x, y), 30, stroke)
    cv2.line(image, (x, y), (x + 20, y + h), 30, stroke)
    cv2.line(image, (x + 20, y + h), (x + 20, y), 30, stroke)
    if edge_line:
        cv2.line(image, (x + 16, y + h // 2), (x + 20 + int(faces_long * SIDE), y + h // 2 + 6), 60, 1)
    return image


def _letter_sized(seeds):
    return [(x, y, w, h) for x, y, w, h in seeds if max(w, h) > 0.5 * SIDE]


def test_a_letter_joined_to_an_edge_line_is_still_a_seed():
    alone = _letter_sized(glyph_seeds.glyph_seeds(glyph_seeds.darkness(_face_with_n(False), SIDE), SIDE))
    joined = _letter_sized(glyph_seeds.glyph_seeds(glyph_seeds.darkness(_face_with_n(True), SIDE), SIDE))
    assert len(alone) == 1 and len(joined) == 1
    assert np.abs(np.subtract(joined[0], alone[0])).max() <= 2      # the letter's box, give or take a stub


def test_a_letter_joined_to_the_walls_of_a_tray_is_still_a_seed():
    # the gaps and walls of a Boggle tray make one dark grid wider than any cluster of
    # cubes: a letter joined to it is parted from it all the same
    alone = _letter_sized(glyph_seeds.glyph_seeds(glyph_seeds.darkness(_face_with_n(False), SIDE), SIDE))
    depth = glyph_seeds.darkness(_face_with_n(True, faces_long=6), SIDE)
    joined = _letter_sized(glyph_seeds.glyph_seeds(depth, SIDE))
    assert len(joined) == 1 and np.abs(np.subtract(joined[0], alone[0])).max() <= 2


def test_thin_letters_joined_to_a_trays_walls_are_parted_from_them():
    # a Boggle board seen from above: a grid of thin dark walls, and in each cell a letter
    # (an L, F or E) whose strokes are as thin as the walls and whose stem runs into one
    # of them: an opening would wipe the letters off with the walls
    image = np.full((300, 300), 215, np.uint8)
    pitch, letters = int(1.15 * SIDE), []
    for k in range(6):
        cv2.line(image, (20 + k * pitch, 20), (20 + k * pitch, 20 + 5 * pitch), 40, 2)
        cv2.line(image, (20, 20 + k * pitch), (20 + 5 * pitch, 20 + k * pitch), 40, 2)
    for row in range(5):
        for column in range(5):
            x, y = 20 + column * pitch + 14, 20 + row * pitch + 12
            cv2.line(image, (x - 14, y + 22), (x + 14, y + 22), 40, 2)          # the foot runs into the wall
            cv2.line(image, (x, y), (x, y + 22), 40, 2)
            if (row + column) % 2:
                cv2.line(image, (x, y), (x + 12, y), 40, 2)
            letters.append((x + 4, y + 12))
    seeds = glyph_seeds.glyph_seeds(glyph_seeds.darkness(image, SIDE), SIDE)
    middles = np.float32([[x + w / 2, y + h / 2] for x, y, w, h in seeds]).reshape(-1, 2)
    found = [(np.linalg.norm(middles - letter, axis=1) < 0.3 * SIDE).any() for letter in letters]
    assert sum(found) >= 23, sum(found)


def test_touching_cubes_whose_letters_run_into_the_gap_are_read():
    # 3-D throws where a top face's letter and the dark gap or edge beside it made one
    # mark too wide for a letter, and the cube was not looked for at all
    for seed, (x, y) in ((119, (931, 147)), (266, (1333, 237))):
        throw = make_throw_3d(seed, hard=False)
        found = faces.search_faces(throw.image)
        assert any(np.hypot(*(np.array(f.centre) - (x, y))) < 0.3 * throw.size for f in found.faces), seed


def test_a_blurred_letter_in_pieces_is_one_seed():
    # an N whose stems are dark enough to be ink but whose thin diagonal, blurred, is only
    # a little fainter: the whole letter is a seed, not just its stems
    image = np.full((200, 300), 215, np.uint8)
    x, y, h = 100, 80, 26
    cv2.line(image, (x, y), (x + 20, y + h), 150, 2)
    cv2.line(image, (x, y + h), (x, y), 30, 5)
    cv2.line(image, (x + 20, y + h), (x + 20, y), 30, 5)
    seeds = glyph_seeds.blurred_letter_seeds(glyph_seeds.darkness(image, SIDE), SIDE)
    assert any(sx <= x - 2 and sx + w >= x + 22 and sy <= y and sy + sh >= y + h for sx, sy, w, sh in seeds)


def _n(image: np.ndarray, x: int, y: int, grey: int, h: int = 26, stroke: int = 4) -> None:
    cv2.line(image, (x, y + h), (x, y), grey, stroke)
    cv2.line(image, (x, y), (x + 20, y + h), grey, stroke)
    cv2.line(image, (x + 20, y + h), (x + 20, y), grey, stroke)


def test_a_faint_letter_apart_from_the_seeds_is_found_once_the_side_is_known():
    # a bold N, and a faint one (a quarter darker than its face: a far cube in dim light)
    image = np.full((200, 300), 215, np.uint8)
    _n(image, 40, 80, 30)
    _n(image, 200, 80, 160)
    bold = glyph_seeds.glyph_seeds(glyph_seeds.darkness(image, SIDE), SIDE)
    assert [x < 100 for x, _, _, _ in bold] == [True]
    faint = glyph_seeds.faint_letter_seeds(glyph_seeds.darkness(image, SIDE), SIDE, None, bold)
    assert len(faint) == 1 and faint[0][0] >= 190       # the faint N, and not the bold one again


def test_a_faint_letter_beside_a_seed_but_not_on_it_is_found():
    # a worn pink C lay some 17 pixels (half a side) from a dark line of its cube's edge,
    # itself a seed (whose face was refused), and was dropped as that seed's again: no
    # face at all round the C
    image = np.full((200, 300), 215, np.uint8)
    cv2.line(image, (101, 80), (101, 106), 40, 2)                  # the edge line: a seed
    _n(image, 110, 80, 160)                                         # a faint N beside it, 6 pixels off
    edge = glyph_seeds.glyph_seeds(glyph_seeds.darkness(image, SIDE), SIDE)
    assert len(edge) == 1 and edge[0][0] < 105
    faint = glyph_seeds.faint_letter_seeds(glyph_seeds.darkness(image, SIDE), SIDE, None, edge)
    assert len(faint) == 1 and faint[0][0] >= 105
    # a faint mark on the known seed itself (the same letter, found again) is not a seed
    again = glyph_seeds.faint_letter_seeds(glyph_seeds.darkness(image, SIDE), SIDE, None, faint)
    assert all(abs(x - faint[0][0]) > 5 for x, _, _, _ in again)


def test_a_weave_of_faint_marks_is_the_table_not_letters():
    # a cloth's weave: faint letter-sized marks everywhere, more than any throw has cubes
    image = np.full((400, 600), 215, np.uint8)
    for x in range(20, 580, 60):
        for y in range(20, 380, 60):
            _n(image, x, y, 160)
    assert glyph_seeds.faint_letter_seeds(glyph_seeds.darkness(image, SIDE), SIDE, None, []) == []


def test_a_faint_letter_on_a_cube_is_found_among_a_weave_as_faint_on_a_darker_cloth():
    # a darker cloth's weave of faint marks, more than any throw has cubes, and on a cream
    # face as bright as the throw's other faces a letter as faint (worn print): the weave
    # hides the letter, unless the marks are looked for where the photo is as bright as
    # the plastic
    image = np.full((400, 600), 120, np.uint8)
    for x in range(20, 580, 60):
        for y in range(20, 380, 60):
            _n(image, x, y, 90)
    cv2.rectangle(image, (270, 150), (350, 230), 215, -1)
    _n(image, 300, 175, 160)
    depth = glyph_seeds.darkness(image, SIDE)
    assert glyph_seeds.faint_letter_seeds(depth, SIDE, None, []) == []
    plastic = cv2.inRange(glyph_seeds.closed(image, SIDE), 215 / faces.PLASTIC_SPREAD, 215 * faces.PLASTIC_SPREAD)
    found = glyph_seeds.faint_letter_seeds(depth, SIDE, None, [], plastic=plastic)
    assert len(found) == 1 and 290 <= found[0][0] <= 310 and 165 <= found[0][1] <= 185


def test_the_faces_axes_follow_a_square_turned_any_way():
    for turn in (0.0, 20.0, 45.0, 70.0, 84.0):
        image = np.full((200, 200), 60, np.uint8)
        corners = cv2.boxPoints(((100.0, 100.0), (80.0, 80.0), turn)).astype(np.int32)
        cv2.fillConvexPoly(image, corners, 220)
        axes = outlines.AxisField(cv2.GaussianBlur(image, (0, 0), 1.0).astype(np.float32))
        found = np.degrees(axes.angle(100.0, 100.0, 60.0)) % 90
        assert min(abs(found - turn), 90 - abs(found - turn)) < 1.0, (turn, found)


@pytest.mark.parametrize("light", [(1.0, 1.0, 1.0), (0.55, 0.8, 1.0)])   # white, and warm (BGR)
def test_red_ink_pale_in_grey_is_as_dark_as_black_where_red_letters_are_looked_for(light):
    # a cream face with a black N and a worn red one: the red's bright red channel
    # leaves it too little darker than the face in grey for a seed; where red letters are
    # looked for it is as dark as the black, and warm light (all reds and yellows)
    # darkens neither the face nor anything white
    image = np.tile(np.float32([200, 235, 240]), (200, 300, 1))
    for x, ink in ((40, [70, 70, 70]), (200, [140, 140, 225])):      # black, pale red
        mask = np.zeros((200, 300), np.uint8)
        _n(mask, x, 80, 255)
        image[mask > 0] = ink
    image = (image * np.float32(light)).astype(np.uint8)
    view = working_copy.View.of(image)
    assert [x < 100 for x, _, _, _ in glyph_seeds.glyph_seeds(view.darkness(SIDE), SIDE)] == [True]   # black alone
    red = view.red_darkness(SIDE)
    assert sorted(x < 100 for x, _, _, _ in glyph_seeds.glyph_seeds(red, SIDE)) == [False, True]
    assert red[60:75, 40:60].max() < 0.02                  # the plain face: no darker than round it
    assert red[80:106, 200:222].max() > 0.3 > view.darkness(SIDE)[80:106, 200:222].max()


@pytest.mark.parametrize("size", [3, 9, 11.5, 21, 31, 44])
def test_the_disc_closing_is_opencvs_pixel_for_pixel(size):
    # grey and 0/255 maps, with marks against the photo's edges (where the borders count)
    rng = np.random.default_rng(int(size * 10))
    grey = cv2.GaussianBlur((rng.random((240, 320)) * 255).astype(np.uint8), (0, 0), 2)
    grey[:3], grey[:, -2:] = 0, 255
    ink = ((rng.random((240, 320)) > 0.93) * 255).astype(np.uint8)
    for image in (grey, ink):
        expected = cv2.morphologyEx(image, cv2.MORPH_CLOSE, glyph_seeds.disc(size))
        assert np.array_equal(glyph_seeds.disc_closing(image, size), expected)


def _on_a_known_seed(seed, known, side) -> bool:
    """`_apart`'s rule, seed against every known one: boxes overlapping, middles less than
    half a side apart."""
    x, y, w, h = seed
    return any(x < a + c and a < x + w and y < b + d and b < y + h
               and np.hypot(x + w / 2 - a - c / 2, y + h / 2 - b - d / 2) < 0.5 * side for a, b, c, d in known)


@pytest.mark.parametrize("seed", range(5))
def test_seeds_on_known_ones_are_found_by_the_grid_as_by_trying_every_pair(seed):
    # a gingham's thousands of marks are filed by a grid, not tried each against each:
    # the seeds kept must be those no known seed lies on, near the cells' edges too
    rng = np.random.default_rng(seed)
    side = float(rng.uniform(12, 90))
    def boxes(n):
        return [(int(x), int(y), int(w), int(h)) for x, y, w, h in
                zip(rng.integers(0, 500, n), rng.integers(0, 400, n), rng.integers(1, side, n), rng.integers(1, side, n))]
    seeds, known = boxes(400), boxes(300)
    kept = glyph_seeds._apart(seeds, known, side)
    assert kept == [s for s in seeds if not _on_a_known_seed(s, known, side)]
    assert 0 < len(kept) < len(seeds)


def test_the_grid_finds_every_near_pair():
    rng = np.random.default_rng(7)
    points, others = rng.uniform(-20, 300, (500, 2)), rng.uniform(0, 300, (400, 2))
    first, second = glyph_seeds._near_pairs(points, others, 23.5)
    found = set(zip(first.tolist(), second.tolist()))
    apart = np.abs(points[:, None, :] - others[None, :, :]).max(axis=-1)
    assert {(i, j) for i, j in zip(*np.nonzero(apart < 23.5))} <= found
    assert len(found) == len(first) < len(points) * len(others) / 20   # a few cells looked at, not all


def _cloth_with_two_faces():
    """A patterned cloth (a seed every 20 by 40 pixels, 1,000 of them) with a shade band
    over its right quarter; a face in the light, whiter than the cloth, and one in the
    shade, darker than the cloth in the light but brighter than the shaded cloth round it."""
    clean = np.full((400, 2000), 150, np.uint8)
    clean[:, 1500:] = 60
    clean[300:340, 100:140] = 230
    clean[100:140, 1700:1740] = 110
    cloth = [(x, y, 4, 4) for y in range(0, 400, 40) for x in range(0, 2000, 20)]
    lit, shaded = (112, 312, 15, 20), (1712, 112, 15, 20)
    return clean, cloth[:300] + [lit] + cloth[300:700] + [shaded] + cloth[700:], lit, shaded


def test_of_a_cloths_thousand_seeds_those_on_faces_are_kept_in_the_light_and_in_the_shade():
    clean, seeds, lit, shaded = _cloth_with_two_faces()
    kept = glyph_seeds.likeliest_seeds(seeds, clean, 40, most=300)
    assert len(kept) == 300 and lit in kept and shaded in kept
    assert kept == [s for s in seeds if s in set(kept)]              # in their first order
    # the shaded face is darker than the 750 seeds of the cloth in the light: the
    # brightest seeds alone would not keep it
    assert sum(clean[y + h // 2, x + w // 2] > clean[shaded[1] + 10, shaded[0] + 7] for x, y, w, h in seeds) > 300


def test_a_throws_few_seeds_are_all_kept():
    clean, seeds, _, _ = _cloth_with_two_faces()
    assert glyph_seeds.likeliest_seeds(seeds[:300], clean, 40, most=300) == seeds[:300]


@pytest.mark.parametrize("count, reach", [(700, 50.0), (60, 300.0), (1, 10.0)])
def test_the_median_round_each_seed_is_numpys_over_every_pair(count, reach):
    rng = np.random.default_rng(count)
    points = rng.uniform(0, 1000, (count, 2))
    values = rng.integers(0, 255, count).astype(np.float64)
    apart = np.hypot(*(points[:, None, :] - points[None, :, :]).transpose(2, 0, 1))
    expected = [np.median(values[apart[i] < reach]) for i in range(count)]
    assert np.array_equal(glyph_seeds._median_near(points, values, reach), expected)


def _cube_seen_steeply() -> tuple[np.ndarray, list[tuple[float, float]]]:
    """A cube seen steeply: its flattened top face with a T on it above its side face
    with an L, the cube's dark edges round both a few pixels from the letters (as a
    closing joins them), and the letters' middles."""
    image = np.full((160, 200), 215, np.uint8)
    left, top, right, fold, bottom = 80, 40, 120, 58, 84
    for a, b in [((left, top), (right, top)), ((left, top), (left, bottom)), ((right, top), (right, bottom)),
                 ((left, fold), (right, fold)), ((left, bottom), (right, bottom))]:
        cv2.line(image, a, b, 70, 1)
    cv2.line(image, (91, 45), (109, 45), 30, 3)             # the T, squeezed
    cv2.line(image, (100, 45), (100, 53), 30, 3)
    cv2.line(image, (94, 63), (94, 78), 30, 3)              # the L
    cv2.line(image, (94, 78), (107, 78), 30, 3)
    return image, [(100.0, 49.0), (100.5, 70.5)]


def test_a_letter_joined_by_a_cubes_edges_to_its_side_faces_letter_is_parted_from_it():
    # the T's seed and the L's are one mark, no wider than a near cube's letter, with its
    # middle between the two: the letters inside it are seeds of their own
    image, middles = _cube_seen_steeply()
    depth = glyph_seeds.darkness(image, SIDE)
    joined = _letter_sized(glyph_seeds.glyph_seeds(depth, SIDE))
    assert len(joined) == 1 and joined[0][3] > 0.75 * SIDE
    parted = glyph_seeds.joined_letter_seeds(depth, SIDE, None, joined)
    found = [(x + w / 2, y + h / 2) for x, y, w, h in parted]
    for middle in middles:
        assert min(np.hypot(fx - middle[0], fy - middle[1]) for fx, fy in found) < 3
    assert glyph_seeds.joined_letter_seeds(depth, SIDE, None, joined + parted) == []
