"""The watcher on filmed throws (3-D renders from a fixed camera), driven by an injected
clock: it reads once the cubes rest, never while they move or a hand is in view, says
when the table is empty again, and says once when the picture is blank."""
import numpy as np
import pytest

from vision.sequence3d import AT_REST, EMPTY, MOVING, Film, make_sequence_3d
from vision.watch import AT_REST as RESTS
from vision.watch import BLANK, HAND_STILL_S, READ, Watcher, blank, same_view, small_grey
from vision.watch import EMPTY as EMPTY_AGAIN

LOOK_S = 0.2


@pytest.fixture(scope="module")
def frames():
    return make_sequence_3d(8, size=(480, 360))


def watch(film: Film, watcher: Watcher, until: float | None = None):
    """Every look's (time, event, frame shown) over the film, a look every LOOK_S."""
    seen, step = [], 0
    end = film.start + film.length + 1.0 if until is None else until
    while film.start + step * LOOK_S < end:
        t = film.start + step * LOOK_S
        frame = film.at(t)
        look = watcher.see(frame.image, t)
        seen.append((t, look, frame))
        step += 1
    return seen


def events(seen):
    return [(t, look.event, frame) for t, look, frame in seen if look.event]


def test_a_throw_is_read_once_it_rests_and_again_after_a_nudge(frames):
    film = Film(frames, start=10.0)
    found = events(watch(film, Watcher(rest_s=0.8)))
    assert [e for _, e, _ in found] == [READ, RESTS, READ, RESTS]
    (read, _, _), (first, _, at_first), _, (second, _, at_second) = found
    assert film.first_rest() + 0.4 <= read < film.first_rest() + 0.4 + 2 * LOOK_S   # reading begins early
    assert at_first.state == AT_REST and not at_first.hand
    assert film.first_rest() + 0.8 <= first <= film.first_rest() + 0.8 + 2 * LOOK_S
    nudged = film.began(len(frames) - 2)           # the nudged cube has settled
    assert at_second.state == AT_REST and second >= nudged + 0.8


def test_nothing_is_read_while_the_cubes_move_or_a_hand_is_in_view(frames):
    film = Film(frames)
    for t, look, frame in watch(film, Watcher(rest_s=0.8)):
        if frame.state == MOVING or frame.hand:
            assert look.event is None, (t, frame.state, frame.hand)


@pytest.mark.parametrize("rest_s", [0.5, 1.2])
def test_the_rest_time_is_a_setting(frames, rest_s):
    film = Film(frames)
    first = next(t for t, e, _ in events(watch(film, Watcher(rest_s=rest_s))) if e == RESTS)
    assert film.first_rest() + rest_s <= first < film.first_rest() + rest_s + 2 * LOOK_S


def test_a_hand_held_still_over_the_cubes_is_not_rest(frames):
    landing = [f for f in frames if f.state != EMPTY][:4]            # the throw's hand and the flight
    hand = next(f for f in frames if f.state == AT_REST and f.hand)
    held = [frames[0], *landing, hand, next(f for f in frames if f.state == AT_REST and not f.hand)]
    seconds = [1.0, 0.3, 0.2, 0.2, 0.2, 2.5, 2.0]                       # the hand stays 2.5 s, quite still
    film = Film([_held(f, s) for f, s in zip(held, seconds)])
    found = events(watch(film, Watcher(rest_s=0.8)))
    assert [e for _, e, _ in found] == [READ, RESTS] and not any(frame.hand for _, _, frame in found)
    assert found[1][0] >= film.began(len(held) - 1) + 0.8


def test_movement_between_the_start_of_a_read_and_the_rest_drops_that_read(frames):
    rest = [f for f in frames if f.state == AT_REST and not f.hand]
    moving = [f for f in frames if f.state == MOVING and not f.hand]
    # still for 0.8 s less a look (a read begins), then a last roll, then rest
    film = Film([_held(frames[0], 1.0), _held(moving[0], 0.2), _held(moving[-1], 0.8), _held(moving[0], 0.2),
                 _held(rest[0], 2.0)])
    found = events(watch(film, Watcher(rest_s=0.8)))
    assert [e for _, e, _ in found] == [READ, READ, RESTS]
    assert found[-1][2] is film.frames[-1] and found[-1][0] >= film.began(4) + 0.8


def test_a_hand_passing_over_the_cubes_at_rest_reads_nothing_new(frames):
    rest = [f for f in frames if f.state == AT_REST]
    film = Film([_held(rest[0], 2.0), *(_held(f, 0.4) for f in rest if f.hand), _held(rest[0], 2.0)])
    assert events(watch(film, Watcher(rest_s=0.8))) == []


def test_cubes_gathered_give_the_empty_table_when_it_is_known(frames):
    empty, rest = frames[0], next(f for f in frames if f.state == AT_REST and not f.hand)
    hand = next(f for f in frames if f.hand and f.state == EMPTY)
    film = Film([_held(rest, 1.0), _held(hand, 0.4), _held(empty, 2.0)])
    watcher = Watcher(rest_s=0.8)
    watcher.set_background(frames[1].image)
    assert [e for _, e, _ in events(watch(film, watcher))] == [EMPTY_AGAIN]
    # not known: it is read (and the reader finds it empty); a large smooth change where
    # the cubes were may look like a hand, but not once it has stayed perfectly still for
    # HAND_STILL_S (tests/firmware/test_watching.py films such a table)
    film = Film([_held(rest, 1.0), _held(hand, 0.4), _held(empty, HAND_STILL_S + 2.0)])
    found = events(watch(film, Watcher(rest_s=0.8)))
    assert [e for _, e, _ in found] == [READ, RESTS] and found[0][0] > film.began(2)


def test_a_blank_picture_is_said_once():
    watcher = Watcher()
    dark = np.full((360, 480, 3), 3, np.uint8)
    assert [watcher.see(dark, t * 0.2).event for t in range(10)] == [BLANK] + [None] * 9
    assert blank(small_grey(dark))


def test_the_empty_table_frame_fits_the_view_until_the_camera_moves(frames):
    empty, rest = small_grey(frames[0].image), small_grey(frames[-1].image)
    assert same_view(empty, rest)                                    # the throw changes a small part
    moved = small_grey(np.roll(frames[0].image, (40, 60), axis=(0, 1)))
    assert not same_view(empty, moved)


def _held(frame, seconds):
    from dataclasses import replace
    return replace(frame, seconds=seconds)


def test_the_film_says_when_things_last_moved(frames):
    film = Film(frames, start=5.0)
    rest = film.first_rest()
    assert film.still_since(rest + 2.0) == rest                      # the throw's rest, before the hand
    after_hand = next(i for i in range(len(frames) - 1, 0, -1) if frames[i - 1].hand and not frames[i].hand
                      and frames[i].state == AT_REST and i < len(frames) - 3)
    assert film.still_since(film.began(after_hand) + 0.5) == film.began(after_hand)


def test_a_table_half_paper_half_wood_changes_only_where_the_cubes_landed():
    from vision.watch import changed
    table = np.full((120, 160), 200, np.float32)
    table[:, :81] = 60                                              # just over half is dark wood
    thrown = table.copy()
    for x in (10, 30, 50):                                          # three pale cubes on the wood
        thrown[50:58, x:x + 8] = 220
    mask = changed(table, thrown)
    assert mask.sum() == 3 * 64
    brighter = changed(table, thrown + 6)                           # the exposure moved a little too
    assert brighter.sum() == 3 * 64
