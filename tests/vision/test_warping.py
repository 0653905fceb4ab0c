"""Many outlines straightened at once give what one warp each would."""
import warnings

import cv2
import numpy as np
import pytest

from vision import warping
from vision.bright import order_all_corners, order_corners


def _photo_and_quads(count=60, seed=3):
    rng = np.random.default_rng(seed)
    photo = cv2.GaussianBlur(rng.integers(0, 256, (300, 400, 3), dtype=np.uint8), (0, 0), 2.0)
    quads = []
    for _ in range(count):
        middle, half, angle = rng.uniform(60, 240, 2), rng.uniform(10, 40), rng.uniform(0, 2 * np.pi)
        square = [[np.cos(angle + k * np.pi / 2), np.sin(angle + k * np.pi / 2)] for k in range(4)]
        quads.append(np.float32(np.array(square) * half + middle + rng.normal(0, 3, (4, 2))))
    return photo, np.array(quads)


@pytest.mark.parametrize("size, low, high", [(24, 0.0, 23.0), (48, 14.0, 34.0)])
def test_straightened_outlines_match_one_warp_each(size, low, high):
    photo, quads = _photo_and_quads()
    target = np.float32([[low, low], [high, low], [high, high], [low, high]])
    one_by_one = np.array([cv2.warpPerspective(photo, cv2.getPerspectiveTransform(q, target), (size, size),
                                               borderMode=cv2.BORDER_REPLICATE) for q in quads])
    together = warping.straightened(photo, quads, size, low, high)
    assert together.shape == one_by_one.shape
    difference = np.abs(together.astype(int) - one_by_one.astype(int))
    assert difference.max() <= 1 and (difference > 0).mean() < 0.001      # sub-pixel rounding only


def test_many_sample_rows_are_taken_in_pieces_alike(monkeypatch):
    photo, quads = _photo_and_quads(count=10)
    whole = warping.straightened(photo[..., 0], quads, 24)
    monkeypatch.setattr(warping, "REMAP_ROWS", 7)          # OpenCV's maps are limited in size
    assert np.array_equal(warping.straightened(photo[..., 0], quads, 24), whole)


def test_no_outlines_give_no_pictures():
    photo, _ = _photo_and_quads(count=1)
    assert warping.straightened(photo, np.zeros((0, 4, 2), np.float32), 24).shape == (0, 24, 24, 3)


def test_a_crossed_outline_gives_a_picture_quietly():
    # corners given in a bow-tie's order put the map's vanishing line across the square;
    # the finder traces such outlines now and then, and must not print warnings for them
    photo, _ = _photo_and_quads(count=1)
    bow_tie = np.float32([[[0, 0], [10, 0], [0, 10], [10, 10]]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        picture = warping.straightened(photo, bow_tie, 3)
    assert picture.shape == (1, 3, 3, 3)


def test_corners_come_clockwise_from_the_top_left_however_they_were_given():
    _, quads = _photo_and_quads()
    shuffled = np.array([q[np.random.default_rng(i).permutation(4)] for i, q in enumerate(quads)])
    for given, ordered in zip(shuffled, order_all_corners(shuffled)):
        assert sorted(map(tuple, ordered)) == sorted(map(tuple, given))
        assert np.argmin(ordered.sum(axis=1)) == 0                     # the top left first
        x, y = ordered[:, 0], ordered[:, 1]
        assert (x * np.roll(y, -1) - np.roll(x, -1) * y).sum() > 0       # clockwise, y pointing down
        assert np.array_equal(order_corners(given), ordered)
