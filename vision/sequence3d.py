"""A short film of one throw from a camera fixed over the table, for a reader that watches
the throw: the empty table, the cubes sliding and tumbling in, coming to rest, a hand
passing over them, one cube nudged after it had come to rest, and rest again.  Each frame
says what a watcher should conclude from it: whether the table is empty, something is
moving or all is at rest, and whether a hand is in view."""
from __future__ import annotations

import copy
from dataclasses import dataclass

import numpy as np

from vision.truth import CubeTruth
from vision.synth3d import CUBE_MM, Cube, Scene, make_scene, render, squares_overlap

EMPTY, MOVING, AT_REST = "empty", "moving", "at rest"
# The side a tumbling cube shows on top next, as it rolls over an edge.
ROLLS = ({"top": "north", "north": "bottom", "bottom": "south", "south": "top"},
         {"top": "east", "east": "bottom", "bottom": "west", "west": "top"})


@dataclass
class Frame:
    image: np.ndarray                 # BGR
    state: str                        # EMPTY, MOVING or AT_REST
    hand: bool                        # a hand over the table
    cubes: list[CubeTruth]            # every cube thrown so far, where it is now (one flying in
                                      # may still be outside the picture)
    size: float                       # mean top-face side in pixels
    seconds: float = 0.2              # how long the scene lasts as filmed (see Film)


def _rolled(cube: Cube, times: int, way: int) -> Cube:
    """The cube rolled over an edge `times` times: its letters move round with its faces."""
    rolled = copy.deepcopy(cube)
    for _ in range(times):
        rolled.letters = {ROLLS[way].get(name, name): letter for name, letter in rolled.letters.items()}
    return rolled


def _in_flight(scene: Scene, rng: np.random.Generator, share: float) -> list[Cube]:
    """The cubes `share` of the way from where they came in to where they come to rest:
    the throw slides in from one side as a group, each cube spinning and rolling."""
    direction = rng.uniform(0, 2 * np.pi)
    reach = CUBE_MM * rng.uniform(6, 10)
    cubes = []
    for k, cube in enumerate(scene.cubes):
        moving = copy.deepcopy(cube)
        left = (1 - share) ** 2                       # slowing down as it lands
        moving.x += np.cos(direction) * reach * left
        moving.y += np.sin(direction) * reach * left
        moving.yaw += left * rng.uniform(-3, 3)
        cubes.append(_rolled(moving, 1 + int(left * 4) + k % 3, k % 2))
    return cubes


def _nudged(scene: Scene, rng: np.random.Generator) -> tuple[int, Cube]:
    """One cube pushed a few millimetres (and turned a little), without touching another."""
    for _ in range(200):
        index = int(rng.integers(0, len(scene.cubes)))
        cube = copy.deepcopy(scene.cubes[index])
        angle = rng.uniform(0, 2 * np.pi)
        cube.x += np.cos(angle) * rng.uniform(3, 8)
        cube.y += np.sin(angle) * rng.uniform(3, 8)
        cube.yaw += rng.uniform(-0.3, 0.3)
        if not any(squares_overlap(cube.footprint(), other.footprint())
                   for k, other in enumerate(scene.cubes) if k != index):
            return index, cube
    raise RuntimeError("no cube could be nudged without touching another")


def make_sequence_3d(seed: int, *, hard: bool = False, vulnerable: bool | None = None, red_set: str = "classic",
                     fonts=None, size=(1640, 1232)) -> list[Frame]:
    """The frames of one throw watched from a fixed camera, each with its truth."""
    scene = make_scene(seed, hard=hard, vulnerable=vulnerable, red_set=red_set, fonts=fonts, size=size)
    rng = np.random.default_rng([seed, 6])
    resting = scene.cubes
    frames: list[Frame] = []

    def shoot(cubes: list[Cube], state: str, hand=None, seconds: float = 0.2) -> None:
        shown = copy.copy(scene)
        shown.cubes = cubes
        throw = render(shown, seed, frame=len(frames), hand=hand)
        frames.append(Frame(throw.image, state, hand is not None, throw.cubes, throw.size, seconds))

    entry = tuple(rng.uniform(0.25, 0.75, 2))
    shoot([], EMPTY, seconds=1.0)
    shoot([], EMPTY, seconds=1.0)
    shoot([], EMPTY, hand=entry, seconds=0.3)                # the hand that throws
    for share in (0.35, 0.7, 0.9):
        shoot(_in_flight(scene, np.random.default_rng([seed, 7]), share), MOVING)
    for _ in range(3):
        shoot(resting, AT_REST, seconds=1.0)
    start, end = rng.uniform(0.1, 0.9, 2), rng.uniform(0.1, 0.9, 2)
    for share in (0.3, 0.7):                                 # a hand passes over the throw
        shoot(resting, AT_REST, hand=tuple(start + (end - start) * share), seconds=0.4)
    shoot(resting, AT_REST, seconds=1.0)
    index, pushed = _nudged(scene, rng)
    halfway = copy.deepcopy(pushed)
    halfway.x, halfway.y = (pushed.x + resting[index].x) / 2, (pushed.y + resting[index].y) / 2
    finger = scene.camera.project(np.array([[halfway.x, halfway.y, CUBE_MM]]))[0] / size
    shoot(resting[:index] + [halfway] + resting[index + 1:], MOVING, hand=(finger[0] + 0.04, finger[1] + 0.12),
          seconds=0.3)
    for _ in range(2):
        shoot(resting[:index] + [pushed] + resting[index + 1:], AT_REST, seconds=1.0)
    return frames


class Film:
    """A sequence played as time passes, for a watcher driven by an injected clock: each
    frame is shown for its `seconds`, from `start`; after the last, the last stays."""

    def __init__(self, frames: list[Frame], start: float = 0.0):
        self.frames, self.start = frames, start
        self.ends = list(np.cumsum([f.seconds for f in frames]) + start)

    @property
    def length(self) -> float:
        return self.ends[-1] - self.start

    def at(self, t: float) -> Frame:
        for frame, end in zip(self.frames, self.ends):
            if t < end:
                return frame
        return self.frames[-1]

    def began(self, index: int) -> float:
        return self.ends[index - 1] if index else self.start

    def still_since(self, t: float) -> float:
        """When the last movement before `t` ended (the cubes and any hand last moved)."""
        index = next((i for i, end in enumerate(self.ends) if t < end), len(self.frames) - 1)
        while index > 0 and self.frames[index - 1].state == AT_REST and not self.frames[index - 1].hand \
                and self.frames[index].state == AT_REST and not self.frames[index].hand:
            index -= 1
        return self.began(index)

    def first_rest(self) -> float:
        """When the throw came to rest (the end of its last movement)."""
        landing = next(i for i, f in enumerate(self.frames) if f.state == MOVING)
        return self.began(next(i for i in range(landing, len(self.frames)) if self.frames[i].state == AT_REST))


class FilmCamera:
    """A camera fixed over the table that sees a Film: `capture()` gives the frame of the
    moment `clock()` says.  `live`, like a real camera: each capture is a new look, and
    with `noise` (grey levels) each one has its own sensor noise, as a real one has."""

    live = True
    description = "a filmed throw"

    def __init__(self, film: Film, clock, noise: float = 0.0, seed: int = 0):
        self.film, self.clock, self.noise = film, clock, noise
        self.rng = np.random.default_rng(seed)
        self.captures = 0

    def capture(self) -> np.ndarray:
        self.captures += 1
        image = self.film.at(self.clock()).image
        if not self.noise:
            return image
        noisy = image + self.rng.normal(0, self.noise, image.shape).astype(np.float32)
        return np.clip(noisy, 0, 255).astype(np.uint8)

    def close(self) -> None:
        pass

