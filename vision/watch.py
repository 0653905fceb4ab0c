"""Watching the throw area from a fixed camera: small grey frames a few times a second
tell when the cubes have landed and come to rest, so the box can read them without a key.

The watcher keeps the scene it last saw at rest.  Anything that changes between two
looks is movement; a large changed region that was not there at rest is a hand (or an
arm, a cup): not "at rest" even if it holds still.  When nothing has moved for `rest_s`
after some movement, and the scene differs from the one at the last rest, the throw is
ready to read.  Reading takes a while, so it begins when half that time has passed
(READ) and stands only if nothing has moved when the whole of it has (AT_REST); if the
table looks empty again, the cubes were gathered (EMPTY).  A hand that passes over and
leaves everything as it was gives nothing.

Pure numpy/OpenCV and an injected `now`: the caller grabs frames and keeps time."""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

WIDTH = 160                 # pixels across the small frame: a cube's top face is 5-12 px here
CHANGE_LEVEL = 12           # grey levels (after blurring) that count as a change
MOVED_SHARE = 0.0008        # this share of the small frame changing between looks is movement
NEW_SCENE_SHARE = 0.002     # ... changing since the last rest is something new on the table
HAND_SHARE = 0.07           # one changed region this large may be a hand ...
HAND_DETAIL = 7.0           # ... if it is smooth: cubes are all edges and letters (mean |Laplacian|
                            # 10-20 on the small frame), a hand or its shadow is not (1-5)
OTHER_VIEW_SHARE = 0.35     # this much of the table changed: the camera moved or the light changed
HAND_STILL_S = 3.0          # a "hand" that has not moved at all for this long is part of the table
                            # (the cubes were gathered, a box was put down): a real hand trembles
BLANK_SPREAD = 4.0          # grey levels: a picture this even shows nothing (lens covered, dark room)

# What a look can conclude: READ (still for half the rest time, something new: start
# reading, as the read takes a while), AT_REST (still for the whole rest time since the
# READ: the reading stands), EMPTY (the empty table, still), BLANK (nothing to see).
READ, AT_REST, EMPTY, BLANK = "read", "at rest", "empty", "blank"


def small_grey(image: np.ndarray, width: int = WIDTH) -> np.ndarray:
    """The frame as a small, slightly blurred grey picture: sensor noise and JPEG blocks
    average out, a cube still shows."""
    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    height = max(1, round(grey.shape[0] * width / grey.shape[1]))
    small = cv2.resize(grey, (width, height), interpolation=cv2.INTER_AREA)
    return cv2.GaussianBlur(small.astype(np.float32), (0, 0), 1.0)


def changed(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Where two small frames differ, as a 0/1 mask.  The overall brightness is matched
    first, so a lamp or the camera's exposure moving a little is not a change: by the
    median of the difference (most of the table is unchanged), not the difference of the
    medians, which jumps between paper and wood on a table of both."""
    difference = a - b
    return (np.abs(difference - float(np.median(difference))) > CHANGE_LEVEL).astype(np.uint8)


def same_view(background: np.ndarray, small: np.ndarray) -> bool:
    """Whether a frame of the empty table still matches what the camera sees: a throw
    changes a small part of the table, a moved camera changes it everywhere."""
    if background.shape != small.shape:
        return False
    return changed(background, small).mean() < OTHER_VIEW_SHARE


def blank(small: np.ndarray) -> bool:
    return float(small.std()) < BLANK_SPREAD


@dataclass
class Look:
    """What one small frame showed."""
    moved: bool
    hand: bool
    event: str | None = None


class Watcher:
    """Feed it `see(image, now)`; it says READ when a new throw seems to have come to rest
    and AT_REST when it has, EMPTY when the table is empty and still again, BLANK once
    when the picture shows nothing.  Movement or a hand between READ and AT_REST drops
    that reading: a READ always comes again once things rest."""

    def __init__(self, rest_s: float = 0.8, background: np.ndarray | None = None, width: int = WIDTH):
        self.rest_s, self.width = rest_s, width
        self.background = background      # small frame of the empty table, if known
        self.previous: np.ndarray | None = None
        self.settled: np.ndarray | None = None   # the scene at the last rest
        self.candidate: np.ndarray | None = None # the scene being read (READ said, AT_REST not yet)
        self.last_moved: float | None = None     # None: no movement since the last rest
        self.hand_still_since: float | None = None   # a hand seen, and nothing moved since
        self.blank_said = False

    def set_background(self, image: np.ndarray | None) -> None:
        self.background = None if image is None else small_grey(image, self.width)

    def see(self, image: np.ndarray, now: float) -> Look:
        small = small_grey(image, self.width)
        previous, self.previous = self.previous, small
        if blank(small):
            event = None if self.blank_said else BLANK
            self.blank_said, self.last_moved, self.candidate = True, None, None
            return Look(False, False, event)
        self.blank_said = False
        if previous is None or previous.shape != small.shape:
            self.settled = small              # whatever is on the table when watching starts
            return Look(False, False)
        moved = changed(previous, small).mean() > MOVED_SHARE
        hand = self._hand(small, now, moved)
        if moved or hand:
            self.last_moved, self.candidate = now, None
            return Look(moved, hand)
        if self.last_moved is None:
            return Look(False, False)
        still = now - self.last_moved
        if self.candidate is None and still >= self.rest_s / 2 and self._new(small):
            self.candidate = small
            return Look(False, False, READ)
        if still < self.rest_s:
            return Look(False, False)
        self.last_moved = None                # at rest: settled until something moves
        if self.candidate is not None:
            self.settled, self.candidate = self.candidate, None
            return Look(False, False, AT_REST)
        self.settled = small
        return Look(False, False, EMPTY if self._empty(small) else None)

    def _empty(self, small: np.ndarray) -> bool:
        return self.background is not None and self.background.shape == small.shape \
            and changed(self.background, small).mean() < NEW_SCENE_SHARE

    def _new(self, small: np.ndarray) -> bool:
        """Something to read: not the empty table, not the scene at the last rest (a hand
        passed over and left all as it was)."""
        if self._empty(small):
            return False
        return self.settled is None or changed(self.settled, small).mean() >= NEW_SCENE_SHARE

    def _hand(self, small: np.ndarray, now: float, moved: bool) -> bool:
        """A large, smooth region unlike the scene at rest (or the empty table).  A clump of
        touching cubes can be as large, but it is full of edges.  The empty table itself is
        no hand (the cubes gathered leave a large smooth change), nor is a shape that has
        not moved at all for HAND_STILL_S."""
        reference = self.settled if self.settled is not None else self.background
        if reference is None or reference.shape != small.shape or self._empty(small):
            self.hand_still_since = None
            return False
        if not self._large_and_smooth(reference, small):
            self.hand_still_since = None
            return False
        if moved or self.hand_still_since is None:
            self.hand_still_since = now
        return now - self.hand_still_since < HAND_STILL_S

    @staticmethod
    def _large_and_smooth(reference: np.ndarray, small: np.ndarray) -> bool:
        count, labels, stats, _ = cv2.connectedComponentsWithStats(changed(reference, small), connectivity=8)
        if count < 2:
            return False
        largest = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
        if stats[largest, cv2.CC_STAT_AREA] <= HAND_SHARE * small.size:
            return False
        detail = float(np.abs(cv2.Laplacian(small, cv2.CV_32F))[labels == largest].mean())
        return detail < HAND_DETAIL
