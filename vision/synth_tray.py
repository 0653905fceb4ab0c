"""Boggle boards in their trays, rendered in 3-D: 16 or 25 letter cubes packed in a grid,
each in its own cell of a coloured plastic tray, with the tray's low walls between them.
Every cube touches the walls on four sides, no table shows between them, and the tray's
rim and walls make straight edges and corners of their own: the throws of the 3-D
generator, where cubes lie apart on a table, never look like this.

The scene reuses the 3-D generator's camera, light, cubes and painting; only the layout
is the tray's.  The letters come from the classic 16 Boggle dice, "Q" printed as "Qu"."""
from __future__ import annotations

import random

import numpy as np

from vision import tables
from vision.synth import Throw
from vision.synth3d import BODIES, CUBE_MM, Box, Scene, _camera, _dress, _in_view, _lights, fonts_to_render, render

BOGGLE_DICE = ("AAEEGN", "ABBJOO", "ACHOPS", "AFFKPS", "AOOTTW", "CIMOTU", "DEILRX", "DELRVY",
               "DISTTY", "EEGHNW", "EEINSU", "EHRTVW", "EIOSST", "ELRTTY", "HIMNQU", "HLNNRZ")
TRAY_COLOURS = {"blue": (150, 80, 30), "red": (40, 40, 170), "black": (35, 35, 35), "grey": (150, 150, 145),
                "yellow": (40, 180, 215)}


def _turn(yaw: float) -> np.ndarray:
    """The 2-D rotation by `yaw` about the vertical."""
    return np.array([[np.cos(yaw), -np.sin(yaw)], [np.sin(yaw), np.cos(yaw)]])


def _walls(centre: np.ndarray, yaw: float, cells: int, pitch: float, wall: float, rim: float,
           height: float, colour: np.ndarray) -> list[Box]:
    """The tray: a thin floor under the grid, the walls between its cells, and its rim."""
    turn = _turn(yaw)

    def box(x0, y0, x1, y1, h):
        corners = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], float)
        return Box(centre + corners @ turn.T, h, colour)

    half = cells * pitch / 2
    boxes = [box(-half - rim, -half - rim, half + rim, half + rim, 0.3)]
    for k in range(1, cells):
        at = -half + k * pitch
        boxes += [box(at - wall / 2, -half, at + wall / 2, half, height),
                  box(-half, at - wall / 2, half, at + wall / 2, height)]
    boxes += [box(-half - rim, -half - rim, half + rim, -half, height + 2),
              box(-half - rim, half, half + rim, half + rim, height + 2),
              box(-half - rim, -half, -half, half, height + 2), box(half, -half, half + rim, half, height + 2)]
    return boxes


def make_tray_scene(seed: int, size=(1640, 1232)) -> Scene:
    """Lay out a Boggle board in its tray, all from `seed`: 4 x 4 or 5 x 5 cubes, each
    turned a little in its cell, the camera held above it at up to 40 degrees."""
    rng = np.random.default_rng([seed, 7])
    prng = random.Random(seed)
    fonts = fonts_to_render()
    camera = _camera(rng, size, hard=False)
    cells = 4 if rng.random() < 0.6 else 5
    dice = list(BOGGLE_DICE) if cells == 4 else list(BOGGLE_DICE) + prng.sample(BOGGLE_DICE, 9)
    prng.shuffle(dice)
    wall = float(rng.uniform(0.8, 2.0))
    pitch = CUBE_MM + wall + float(rng.uniform(0.4, 1.2))
    yaw = float(rng.uniform(0, 2 * np.pi))
    turn, slack = _turn(yaw), (pitch - wall - CUBE_MM) / 2
    cubes = [_dress(prng, faces, False) for faces in dice]
    for cube in cubes:              # the Q die's Q is printed "Qu"
        cube.letters = {name: "Qu" if letter == "Q" else letter for name, letter in cube.letters.items()}
    for attempt in range(200):      # the tray somewhere near the middle of the view, wholly in it
        pixel = np.array(size) * rng.uniform(0.35, 0.65, 2)
        centre = camera.on_plane(pixel[None], CUBE_MM / 2)[0]
        for index, cube in enumerate(cubes):
            row, column = divmod(index, cells)
            offset = (np.array([column, row]) - (cells - 1) / 2) * pitch + rng.uniform(-slack, slack, 2)
            cube.x, cube.y = centre + turn @ offset
            cube.yaw = yaw + rng.normal(0, 0.04)
        if all(_in_view(camera, cube, size, 0.04 * size[0]) for cube in cubes):
            break
    else:
        raise RuntimeError("could not fit the tray in view")
    lights, ambient = _lights(rng, hard=False)
    colour = np.array(list(TRAY_COLOURS.values())[int(rng.integers(0, len(TRAY_COLOURS)))], np.float32)
    boxes = _walls(centre, yaw, cells, pitch, wall, float(rng.uniform(3, 8)), float(rng.uniform(3, 7)), colour)
    ground = camera.position[:2]
    boxes = boxes[:1] + sorted(boxes[1:], key=lambda b: -np.hypot(*(b.base.mean(axis=0) - ground)))
    table = tables.ORDINARY_TABLES[int(rng.integers(0, len(tables.ORDINARY_TABLES)))]
    return Scene(camera, cubes, lights, ambient, table, fonts[int(rng.integers(0, len(fonts)))],
                 list(BODIES)[int(rng.integers(0, len(BODIES)))], float(rng.uniform(0.5, 0.7)),
                 bool(rng.random() < 0.5), False, tuple(size), boxes=boxes)


def make_tray_throw(seed: int, size=(1640, 1232)) -> Throw:
    """One photo of a Boggle board in its tray, with every cube's top face ("Qu" for the
    Q cube) and where its middle lies in the image."""
    return render(make_tray_scene(seed, size), seed)
