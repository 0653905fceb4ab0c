"""Boggle boards in their trays: the same board for the same seed, the 16 Boggle dice
(25 on a large board) each in its own cell, "Qu" for the Q, and a tray that is seen."""
from collections import Counter
from itertools import combinations

import cv2
import numpy as np

from vision.synth3d import CUBE_MM, render, squares_overlap
from vision.synth_tray import BOGGLE_DICE, make_tray_scene, make_tray_throw


def test_the_same_seed_gives_the_same_board():
    a, b = make_tray_throw(3, size=(820, 616)), make_tray_throw(3, size=(820, 616))
    assert np.array_equal(a.image, b.image)
    assert [(t.letter, t.x, t.y) for t in a.cubes] == [(t.letter, t.x, t.y) for t in b.cubes]


def test_a_board_holds_the_boggle_dice_packed_in_a_grid_none_inside_another():
    sizes = Counter()
    for seed in range(8):
        scene = make_tray_scene(seed)
        cubes = scene.cubes
        sizes[len(cubes)] += 1
        faces = Counter("".join(sorted(c.letters.values())).replace("Qu", "Q") for c in cubes)
        dice = Counter("".join(sorted(d)) for d in BOGGLE_DICE)
        assert not dice - faces and (len(cubes) == 25 or faces == dice)
        for a, b in combinations(cubes, 2):
            assert not squares_overlap(a.footprint(), b.footprint()), (seed, a, b)
        # packed: every cube has a neighbour less than a wall's width and a little slack away
        for cube in cubes:
            nearest = min(np.hypot(cube.x - o.x, cube.y - o.y) for o in cubes if o is not cube)
            assert CUBE_MM < nearest < CUBE_MM + 3.5
    assert set(sizes) == {16, 25}


def test_the_q_cube_shows_qu():
    scenes = (make_tray_scene(seed) for seed in range(40))
    scene = next(s for s in scenes if any(c.letters["top"] == "Qu" for c in s.cubes))
    q_cube = next(c for c in scene.cubes if "Qu" in c.letters.values())
    letters = sorted(q_cube.letters.values())
    assert "Q" not in letters and letters == sorted(["H", "I", "M", "N", "Qu", "U"])


def test_the_tray_is_painted_round_the_cubes_in_its_own_colour():
    scene = make_tray_scene(1)
    with_tray = render(scene, 1).image
    scene.boxes = []
    bare = render(scene, 1).image
    rim = scene.camera.project(np.column_stack([make_tray_scene(1).boxes[0].base, np.zeros(4)]))
    mask = np.zeros(bare.shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, np.round(rim).astype(np.int32), 1)
    changed = cv2.absdiff(with_tray, bare).max(axis=2) > 30
    assert changed[mask > 0].mean() > 0.05            # the rim and the walls between the cubes
    beyond = cv2.dilate(mask, np.ones((41, 41), np.uint8)) == 0     # (the rim stands up over the floor's edge)
    assert changed[beyond].mean() < 0.001             # and nothing well outside the tray
