"""A photo is read with the camera's foot at its bottom: a steep photo turned a quarter
or a half is turned back before it is read, and what is found is placed back in it."""
import numpy as np
import pytest

from vision import bench
from vision.faces import find_candidates
from vision.reader import read_image
from vision.synth3d import make_throw_3d
from vision.upright import placed_back, turn, turned_points, turns_upright

HELD_SEED = 100            # a throw held in the hand whose faces say plainly where the camera stands


@pytest.mark.parametrize("turns", [0, 1, 2, 3])
def test_a_point_turned_with_the_photo_lands_on_the_same_pixel_and_comes_back(turns):
    image = np.zeros((5, 7), np.uint8)
    image[1, 4] = 9                                    # x 4, y 1
    y, x = np.argwhere(turn(image, turns))[0]
    assert turned_points([4.0, 1.0], turns, image.shape).tolist() == [x, y]
    assert placed_back([x, y], turns, image.shape).tolist() == [4.0, 1.0]


@pytest.fixture(scope="module")
def held():
    return make_throw_3d(HELD_SEED, hard=False, held=True)


def test_a_photo_the_right_way_up_is_read_as_it_is(held):
    assert turns_upright(find_candidates(held.image)) == 0
    # a view from straight above shows no way up
    assert turns_upright(find_candidates(make_throw_3d(4, hard=False).image)) == 0


@pytest.mark.parametrize("turns", [1, 2, 3])
def test_a_steep_photo_turned_is_turned_back(held, turns):
    assert turns_upright(find_candidates(turn(held.image, turns))) == 4 - turns


def test_a_turned_photo_reads_as_the_upright_one_with_its_cubes_where_they_lie_in_it(held):
    upright, turned = read_image(held.image, "any"), read_image(turn(held.image, 1), "any")
    assert sorted(c.letter for c in turned.cubes) == sorted(c.letter for c in upright.cubes)
    for cube in upright.cubes:
        x, y = turned_points([cube.x, cube.y], 1, held.image.shape)
        twin = min(turned.cubes, key=lambda c: np.hypot(c.x - x, c.y - y))
        assert (twin.letter, twin.confidence) == (cube.letter, cube.confidence)
        assert np.hypot(twin.x - x, twin.y - y) < 1e-6


def test_the_bench_turns_held_throws_and_takes_some_in_portrait():
    seed = bench.FIRST_SEED["turned"]
    throw, cube_set = bench._turned(seed)
    upright = make_throw_3d(seed, hard=False, held=True)
    turns = 1 + seed % 3
    assert cube_set == "any" and np.array_equal(throw.image, turn(upright.image, turns))
    for cube, truth in zip(throw.cubes, upright.cubes):
        assert cube.letter == truth.letter
        assert placed_back([cube.x, cube.y], turns, upright.image.shape).tolist() == pytest.approx([truth.x, truth.y])
    portrait, _ = bench._portrait(bench.FIRST_SEED["portrait"])
    assert portrait.image.shape[:2] == (1640, 1232)
