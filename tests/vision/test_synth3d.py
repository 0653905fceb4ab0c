"""The 3-D throw generator: the same throw for the same seed, truth that lands on the top
faces, cubes that touch without passing into each other, side faces seen at a tilt, and
hard throws that are hard."""
from itertools import combinations

import cv2
import numpy as np
import pytest

from firmware.games import perquackey as pq
from vision import tables
from vision.sequence3d import AT_REST, EMPTY, MOVING, make_sequence_3d
from vision.synth3d import CUBE_MM, HELD_OUT_FONTS, make_scene, make_throw_3d, render

SHIPPED_FONT_NAMES = {"DejaVuSans-Bold.ttf", "DejaVuSansMono-Bold.ttf", "DejaVuSerif-Bold.ttf",
                      "DejaVuSansCondensed-Bold.ttf"}


def test_the_same_seed_gives_the_same_throw_and_another_seed_another():
    a, b, c = make_throw_3d(5), make_throw_3d(5), make_throw_3d(6)
    assert np.array_equal(a.image, b.image)
    assert [(t.letter, t.red, t.x, t.y) for t in a.cubes] == [(t.letter, t.red, t.x, t.y) for t in b.cubes]
    assert a.size == b.size
    assert a.image.shape != c.image.shape or not np.array_equal(a.image, c.image)


@pytest.mark.parametrize("vulnerable, red_set", [(False, "classic"), (True, "classic"), (True, "later")])
def test_every_cube_shows_one_of_its_own_letters_in_its_own_ink(vulnerable, red_set):
    throw = make_throw_3d(11, vulnerable=vulnerable, red_set=red_set, size=(820, 616))
    faces = pq.cubes(vulnerable, red_set)
    assert throw.image.shape == (616, 820, 3) and throw.image.dtype == np.uint8
    assert len(throw.cubes) == len(faces)
    for i, (truth, letters) in enumerate(zip(throw.cubes, faces)):
        assert truth.letter in letters
        assert truth.red == (i >= len(pq.BLACK_CUBES))


def test_every_face_carries_the_cubes_six_letters_and_the_fonts_are_held_out():
    for seed in range(6):
        scene = make_scene(seed)
        assert scene.font in HELD_OUT_FONTS and scene.font.name not in SHIPPED_FONT_NAMES
        for cube, letters in zip(scene.cubes, pq.cubes(len(scene.cubes) == 13)):
            assert sorted(cube.letters.values()) == sorted(letters)


def _top_glyphs(seed: int):
    """The throw, and where its top-face glyphs are: the same scene painted twice with
    every top letter changed from H to O (both centred on their face), the rest unchanged."""
    scene = make_scene(seed, hard=False)
    images = []
    for letter in "HO":
        for cube in scene.cubes:
            cube.letters["top"] = letter
        images.append(render(scene, seed))
    changed = cv2.absdiff(images[0].image, images[1].image).max(axis=2) > 40
    return images[0], changed


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_truth_centres_land_on_the_top_faces_glyphs(seed):
    throw, changed = _top_glyphs(seed)
    assert 35 < throw.size < 100
    ys, xs = np.nonzero(changed)
    for truth in throw.cubes:
        near = np.hypot(xs - truth.x, ys - truth.y) < 0.45 * throw.size
        assert near.sum() > 0.02 * throw.size ** 2, truth
        assert np.hypot(xs[near].mean() - truth.x, ys[near].mean() - truth.y) < 0.08 * throw.size, truth


def _inside(points: np.ndarray, cube, grow_mm: float = 0.0) -> np.ndarray:
    """Which table points lie strictly inside the cube's base, in the cube's own axes."""
    c, s = np.cos(cube.yaw), np.sin(cube.yaw)
    local = (points - (cube.x, cube.y)) @ np.array([[c, -s], [s, c]])
    return (np.abs(local) < CUBE_MM / 2 + grow_mm - 1e-6).all(axis=1)


def _samples(cube, n: int = 60) -> np.ndarray:
    t = (np.arange(n) + 0.5) / n - 0.5
    grid = np.stack(np.meshgrid(t, t), -1).reshape(-1, 2) * CUBE_MM
    c, s = np.cos(cube.yaw), np.sin(cube.yaw)
    return grid @ np.array([[c, s], [-s, c]]) + (cube.x, cube.y)


def test_cubes_touch_but_never_pass_into_each_other():
    touching = 0
    for seed in range(12):
        scene = make_scene(seed, hard=True, vulnerable=True)
        for a, b in combinations(scene.cubes, 2):
            if np.hypot(a.x - b.x, a.y - b.y) > CUBE_MM * 1.5:
                continue
            assert not _inside(_samples(a), b).any(), (seed, a, b)
            touching += bool(_inside(_samples(a), b, grow_mm=0.5).any())
    assert touching >= 12          # about one touching pair per hard throw, often more


def test_hard_throws_take_the_harsh_end():
    hard = [make_scene(seed, hard=True) for seed in range(20)]
    ordinary = [make_scene(seed, hard=False) for seed in range(40)]
    assert all(20 <= s.camera.tilt_deg <= 40 and s.table in tables.HARD_TABLES for s in hard)
    assert all(0 <= s.camera.tilt_deg <= 40 for s in ordinary)
    assert np.mean([s.camera.tilt_deg for s in ordinary]) < 20
    assert len({s.table for s in ordinary}) >= 7
    assert np.mean([s.ambient for s in hard]) < np.mean([s.ambient for s in ordinary])
    assert all(s.hard for s in hard) and not any(s.hard for s in ordinary)


def test_a_camera_held_in_the_hand_leans_20_to_45_degrees_and_changes_nothing_else():
    held = [make_scene(seed, hard=False, held=True) for seed in range(40)]
    tilts = [s.camera.tilt_deg for s in held]
    assert all(20 <= t <= 45 for t in tilts) and max(tilts) > 40 and min(tilts) < 25
    assert len({s.table for s in held}) >= 7 and not any(s.hard for s in held)
    # the box's camera is as it was: held=False is the default scene, seed for seed
    assert [make_scene(seed, hard=False, held=False).camera.tilt_deg for seed in range(5)] == \
        [make_scene(seed, hard=False).camera.tilt_deg for seed in range(5)]


def test_some_throws_have_their_print_worn_pale_and_nothing_else_changes(monkeypatch):
    from vision import synth3d
    worn = [seed for seed in range(200) if synth3d.worn_print(seed)]
    assert 10 <= len(worn) <= 30 and 32 in worn
    pale = make_throw_3d(32, hard=False)
    monkeypatch.setattr(synth3d, "WORN_PRINT", 0.0)
    whole = make_throw_3d(32, hard=False)
    changed = np.abs(pale.image.astype(int) - whole.image.astype(int)).max(axis=2) > 40
    assert 0 < changed.mean() < 0.02                        # the letters' ink, and nothing else
    ink = changed[..., None].repeat(3, axis=2)
    assert pale.image[ink].mean() > whole.image[ink].mean() + 40
    assert [c.letter for c in pale.cubes] == [c.letter for c in whole.cubes]


def test_side_faces_show_their_letters_at_a_tilt():
    seed = next(seed for seed in range(20) if make_scene(seed, hard=True).camera.tilt_deg > 30)
    scene, throw = make_scene(seed, hard=True), make_throw_3d(seed, hard=True)
    gray = cv2.cvtColor(throw.image, cv2.COLOR_BGR2GRAY)
    camera = scene.camera
    inked = seen = 0
    for cube in scene.cubes:
        top = cv2.contourArea(np.float32(camera.project(cube.face("top")[2])))
        for name in set(cube.faces_seen_from(camera.position)) - {"top"}:
            quad = np.float32(camera.project(cube.face(name, 0.7)[2]))
            if cv2.contourArea(quad) < 0.25 * top:
                continue
            seen += 1
            mask = np.zeros(gray.shape, np.uint8)
            cv2.fillConvexPoly(mask, np.round(quad).astype(np.int32), 1)
            values = gray[mask > 0].astype(float)
            inked += values.min() < 0.65 * np.percentile(values, 90)
    assert seen >= len(scene.cubes) // 2      # most cubes show a side face worth reading
    assert inked >= 0.7 * seen                # and their letters are on them


@pytest.fixture(scope="module")
def film():
    return make_sequence_3d(4, size=(820, 616))


def test_a_watched_throw_goes_empty_moving_at_rest_and_moving_again_when_nudged(film):
    states = [f.state for f in film]
    first_rest = states.index(AT_REST)
    assert states[:3] == [EMPTY] * 3 and set(states[3:first_rest]) == {MOVING}
    assert MOVING in states[first_rest:] and states[-2:] == [AT_REST, AT_REST]
    assert all(not f.cubes for f in film[:3]) and all(len(f.cubes) in (10, 13) for f in film[3:])
    assert any(f.hand for f in film[:3]) and any(f.hand and f.state == AT_REST for f in film)


def _where(frame):
    return [(t.letter, round(t.x, 3), round(t.y, 3)) for t in frame.cubes]


def test_cubes_at_rest_stay_put_until_one_is_nudged(film):
    rest = [f for f in film if f.state == AT_REST]
    before, after = rest[0], rest[-1]
    assert all(_where(f) == _where(before) for f in rest[:len(rest) - 2])       # hands pass, nothing moves
    moved = [a != b for a, b in zip(_where(before), _where(after))]
    assert sum(moved) == 1                                                      # the nudged cube
    k = moved.index(True)
    shift = np.hypot(after.cubes[k].x - before.cubes[k].x, after.cubes[k].y - before.cubes[k].y)
    assert 0.1 * before.size < shift < 0.8 * before.size


def test_frames_differ_by_noise_alone_while_nothing_changes_and_plainly_when_a_hand_comes(film):
    def change(a, b):
        return float(np.mean(cv2.absdiff(a.image, b.image).max(axis=2) > 40))
    still = change(film[0], film[1])
    assert 0 < float(np.mean(cv2.absdiff(film[0].image, film[1].image))) and still < 0.002
    rest = [f for f in film if f.state == AT_REST and not f.hand]
    assert change(rest[0], rest[1]) < 0.002
    hand = next(f for f in film if f.state == AT_REST and f.hand)
    assert change(rest[0], hand) > 0.02
    assert change(film[0], rest[0]) > 0.005                                     # the cubes stand out


def test_a_photo_taken_in_portrait_has_the_cameras_field_of_view_across_its_long_side():
    assert make_scene(3, held=True, size=(1232, 1640)).camera.focal == make_scene(3, held=True).camera.focal
