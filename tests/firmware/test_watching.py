"""The box watching a Perquackey throw with no key pressed: a fake camera plays a filmed
throw (3-D renders) on the box's injected clock; the looks are taken on the worker's
`poll`, the read by the real reader."""
from dataclasses import replace

import numpy as np
import pytest

from firmware import config, empty_table
from device.keys import KeyPress
from firmware.actions import Back, EffectDone, StopWatching, Watch
from firmware.effects import MOVED_NOTE, Effects, background_for
from firmware.modes.aim import AimScreen
from firmware.modes.perquackey import LetterEntry, PlayScreen
from firmware.session import Session
from tests.conftest import Box
from tests.firmware.test_modes import open_game
from vision.sequence3d import AT_REST, Film, FilmCamera, make_sequence_3d

SIZE = (820, 616)


@pytest.fixture(scope="module")
def frames():
    return make_sequence_3d(3, vulnerable=False, size=SIZE)


def watched_box(clock, frames, **settings):
    """A box with the camera on the film (which starts a second after the game opens)."""
    box = Box(clock, settings={**config.defaults(), **settings})
    film = Film(frames, start=clock() + 1.0)
    box.app.effects.camera = FilmCamera(film, clock)
    play = open_game(box, "perquackey")
    return box, play, film


def until_read(box, play, film, step=0.1):
    """Let time pass until the letters are in (or the film is over)."""
    while box.clock() < film.start + film.length and not play.state.letters:
        box.wait(step, step=step)


def test_the_cubes_at_rest_are_read_and_the_timer_starts_by_itself(clock, frames):
    box, play, film = watched_box(clock, frames)
    assert play.watched and box.app.effects.watching_for is play
    until_read(box, play, film)
    started = clock()
    truth = sorted(c.letter for c in frames[-1].cubes)
    assert sorted(play.state.letters) == truth
    assert play.state.timer is not None and play.state.timer.running
    assert film.first_rest() + 0.8 <= started <= film.first_rest() + 1.5      # rest 0.8 s, looks 5/s
    shown = film.at(started)
    assert shown.state == AT_REST and not shown.hand
    assert box.hw.sounder.last_cue == "start"
    assert [e["kind"] for e in play.journal.events] == ["letters", "start"]
    assert all(e["auto"] for e in play.journal.events)
    assert box.app.effects.watching_for is None                    # the timer runs: no more looks
    box.close()


def test_one_key_takes_back_a_wrong_start_and_watching_resumes(clock, frames):
    box, play, film = watched_box(clock, frames)
    until_read(box, play, film)
    assert box.mode is play, "a sure reading stays on the play screen (an unsure one opens the letters to check)"
    assert play.softkeys(clock())[2] == "Undo"
    box.press("K3")
    assert play.state.timer is None and not play.state.letters and play.journal.events == []
    assert box.app.effects.watching_for is play
    assert play.softkeys(clock()) == ("Read", "Letters", "Timer", "Board")
    box.close()


def test_a_started_timer_by_key_is_not_taken_back_by_k3(clock, frames):
    box, play, film = watched_box(clock, frames)
    box.press("K3")                                                # the timer, by hand
    assert play.softkeys(clock())[2] == "" and box.app.effects.watching_for is None
    box.press("K3")
    assert play.state.timer is not None and "K2 counts" in box.app.log[-1]
    box.close()


def test_with_the_automatic_start_off_the_letters_are_shown_and_k3_starts(clock, frames):
    box, play, film = watched_box(clock, frames, **{"watch.auto_start": False})
    until_read(box, play, film)
    assert sorted(play.state.letters) == sorted(c.letter for c in frames[-1].cubes)
    assert play.state.timer is None and box.app.effects.watching_for is None
    box.press("K3")
    assert play.state.timer is not None and [e["kind"] for e in play.journal.events] == ["letters", "start"]
    box.close()


def test_watching_off_takes_no_look(clock, frames):
    box, play, film = watched_box(clock, frames, **{"watch.enabled": False})
    box.wait(film.length, step=0.5)
    assert box.app.effects.camera.captures == 0 and play.state.timer is None and not play.watched
    box.close()


def test_an_automatic_start_is_an_ordinary_step_for_undo_resume_and_replay(clock, frames, state_home):
    box, play, film = watched_box(clock, frames)
    until_read(box, play, film)
    letters, since = play.state.letters, play.state.timer.since
    box.wait(5.0)
    box.close()                                                   # the power goes
    resumed = Session.resume()
    assert resumed.state.letters == letters and resumed.state.timer.since == since
    assert resumed.pause_after_restart()                          # resumes paused, as after a key
    again = Box(clock)
    assert isinstance(again.mode, PlayScreen) and again.mode.state.letters == letters
    again.press("K1-long")                                        # undo: the start (and its pause) goes
    assert again.mode.state.timer is None and again.mode.state.letters == letters
    again.press("K1-long")
    assert not again.mode.state.letters
    again.close()


def test_a_wrong_number_of_cubes_says_so_and_leaves_the_keys(clock, frames):
    box, play, film = watched_box(clock, frames)
    session = play.session
    for points in ({"9": 5}, {}):                                 # player 1 reaches 3000: vulnerable
        session.submit({"kind": "letters", "letters": "A" * (13 if session.state.vulnerable[session.state.turn]
                                                             else 10)})
        session.submit({"kind": "start", "at": clock()})
        session.submit({"kind": "score", "counts": points})
    box.press("K4", "K4")                                          # the board and back: a 13-cube throw awaited
    assert play.vulnerable() and box.app.effects.watching_for is play
    notes = []
    while clock() < film.start + film.length:
        box.wait(0.1, step=0.1)
        notes.append(box.app.notes.current(clock()))
    assert any(n and "this throw has 13" in n for n in notes)
    assert play.state.timer is None and not play.state.letters and isinstance(box.mode, PlayScreen)
    assert play.softkeys(clock()) == ("Read", "Letters", "Timer", "Board")
    box.press("K2")
    assert isinstance(box.mode, LetterEntry)                      # the ordinary keys still work
    box.close()


def test_a_blank_camera_is_a_plain_message_not_a_stuck_screen(clock, frames):
    dark = replace(frames[0], image=np.zeros_like(frames[0].image), seconds=30.0)
    box, play, film = watched_box(clock, [dark])
    box.wait(1.5, step=0.1)
    assert "blank picture" in (box.app.notes.current(clock()) or "")
    box.press("K2")
    assert isinstance(box.mode, LetterEntry)
    box.close()


def test_gathered_cubes_leave_the_empty_table_kept_for_the_reader(clock, frames):
    rest = next(f for f in frames if f.state == AT_REST and not f.hand)
    hand = next(f for f in frames if f.hand)
    film = [replace(rest, seconds=1.0), replace(hand, seconds=0.4), replace(frames[0], seconds=6.0)]
    box, play, _ = watched_box(clock, film)
    assert empty_table.load() is None
    box.wait(7.0, step=0.1)                                       # the change is taken for a hand 3 s
    kept = empty_table.load()
    assert kept is not None and np.array_equal(kept, frames[0].image)
    assert play.state.timer is None and not play.state.letters     # nothing read, nothing said
    box.close()


def test_an_empty_table_from_another_view_is_not_used(frames):
    empty_table.save(frames[0].image)
    notes = []
    assert background_for(frames[-1].image, notes) is not None and notes == []
    from vision.synth3d import make_scene, render
    elsewhere = make_scene(8, size=SIZE)                          # the box moved to another table
    elsewhere.cubes = []
    assert background_for(render(elsewhere, 8).image, notes) is None and notes == [MOVED_NOTE]


def test_the_manual_read_uses_the_empty_table(clock, frames, state_home):
    empty_table.save(frames[0].image)
    resting = replace(next(f for f in frames if f.state == AT_REST and not f.hand), seconds=60.0)
    box, play, _ = watched_box(clock, [resting], **{"watch.enabled": False})
    box.press("K1")
    assert isinstance(box.mode, LetterEntry)
    assert sorted(box.mode.letters) == sorted(c.letter for c in resting.cubes)
    box.close()


def test_aim_camera_shows_the_faces_it_finds(clock, frames):
    resting = replace(next(f for f in frames if f.state == AT_REST and not f.hand), seconds=60.0)
    box, play, _ = watched_box(clock, [resting])
    box.press("K4-long")                                          # the menu
    settings_row = [label for label, _ in box.mode.items].index("Settings")
    box.press(*["K2"] * settings_row, "K3")
    aim_row = [label for label, _ in box.mode.items].index("Aim camera")
    box.press(*["K2"] * aim_row, "K3")
    assert isinstance(box.mode, AimScreen)
    box.wait(0.3, step=0.1)
    assert box.mode.thumb is not None and box.mode.thumb.height == 52
    assert box.mode.faces == len(resting.cubes)
    assert box.app.effects.camera.captures >= 2                  # live: the next picture is asked for
    box.press("K3")                                              # keep the table as the empty one
    assert empty_table.load() is not None
    box.press("K4")
    box.close()


def test_a_failing_look_never_stops_the_worker(frames):
    class Broken:
        live = True

        def capture(self):
            raise OSError("The webcam gave no picture: check its cable.")

    results = []
    effects = Effects(results.append, Broken(), threaded=False, clock=lambda: 0.0)
    effects.submit(Watch(False, "classic"), to="screen")
    for k in range(5):
        effects.poll(k * 0.2)
    errors = [r.error for r in results if isinstance(r, EffectDone) and r.error]
    assert len(errors) == 1 and "stopped giving pictures" in errors[0]          # said once, not at every look


def test_leaving_the_game_stops_the_looks(clock, frames):
    box, play, film = watched_box(clock, frames)
    assert box.app.effects.watching_for is play
    box.press("K4-long")                                          # to the menu
    assert box.app.effects.watching_for is None
    looks = box.app.effects.camera.captures
    box.wait(3.0)
    assert box.app.effects.camera.captures == looks
    box.close()


def test_an_unsure_reading_opens_the_cubes_over_the_running_timer(clock):
    from firmware.actions import Cue, Go
    from firmware.effects import Letters
    session = Session.new("perquackey", {"names": ["Al", "Bo"]}, wall=1_800_000_000.0)
    play = PlayScreen(session)
    watch = play.on_open()[-1]
    assert watch == Watch(False, "classic")
    read = Letters(list("AABFGEFCDB"), [False] * 9 + [True], start=True)
    actions = play.on_result(EffectDone(watch, value=read), 100.0)
    entry = next(a.screen for a in actions if isinstance(a, Go))
    assert Cue("start") in actions and play.state.timer.running and play.state.letters == "AABFGEFCDB"
    assert isinstance(entry, LetterEntry) and entry.cursor == 9 and play.keying
    assert entry.tick(100.0) == [] and entry.tick(100.0 + 151.0) == [Cue("warning")]   # 30 s left
    assert isinstance(entry.on_key(KeyPress("K4"), 260.0)[0], Back)
    assert not play.keying


def test_the_worker_thread_looks_between_its_other_jobs(frames):
    import queue
    import time

    from firmware.actions import Solve
    from firmware.effects import WATCHING
    resting = replace(next(f for f in frames if f.state == AT_REST and not f.hand), seconds=1e9)
    looked = queue.SimpleQueue()

    class Camera(FilmCamera):
        def capture(self):
            looked.put(True)
            return super().capture()

    camera = Camera(Film([resting]), time.monotonic)
    results = queue.SimpleQueue()
    effects = Effects(results.put, camera, threaded=True)
    try:
        effects.submit(Watch(False, "classic"), to="play")
        assert results.get(timeout=10).value == WATCHING
        effects.submit(Solve("AABFGEFCDB"), to="result")
        while True:
            done = results.get(timeout=30)
            if isinstance(done.request, Solve):
                break
        assert done.error is None and done.value.best_score > 0
        while not looked.empty():
            looked.get()
        assert looked.get(timeout=10) and looked.get(timeout=10)   # still looking after the solve
        effects.submit(StopWatching())
    finally:
        effects.close()


def test_settings_keeps_the_empty_table_and_says_so(clock, frames):
    box, play, film = watched_box(clock, [replace(frames[0], seconds=60.0)])
    box.press("K4-long")
    box.press(*["K2"] * [label for label, _ in box.mode.items].index("Settings"), "K3")
    box.press(*["K2"] * [label for label, _ in box.mode.items].index("Empty table"), "K3")
    assert np.array_equal(empty_table.load(), frames[0].image)
    assert "Empty table kept" in box.app.notes.current(clock())
    box.app.effects.camera.film = Film([replace(frames[0], image=np.zeros_like(frames[0].image))])
    box.press("K3")
    assert "blank" in box.app.log[-1] and np.array_equal(empty_table.load(), frames[0].image)
    box.close()


def test_a_reading_holds_plain_letters_and_booleans_for_the_journal_and_draft(clock, frames):
    import json

    from firmware.effects import read_throw_now
    resting = replace(next(f for f in frames if f.state == AT_REST and not f.hand), seconds=60.0)
    read = read_throw_now(FilmCamera(Film([resting]), clock), False, "classic")
    assert all(type(u) is bool for u in read.unsure) and all(type(c) is str for c in read.letters)
    json.dumps({"letters": read.letters, "unsure": read.unsure})


def test_after_the_camera_moved_the_gathered_table_becomes_the_empty_one(clock, frames):
    from vision.synth3d import make_scene, render
    elsewhere = make_scene(8, size=SIZE)
    elsewhere.cubes = []
    empty_table.save(render(elsewhere, 8).image)                  # taken before the box was moved
    rest = next(f for f in frames if f.state == AT_REST and not f.hand)
    hand = next(f for f in frames if f.hand)
    film = [replace(rest, seconds=1.0), replace(hand, seconds=0.4), replace(frames[0], seconds=6.0)]
    box, play, _ = watched_box(clock, film)
    box.wait(7.0, step=0.1)
    assert np.array_equal(empty_table.load(), frames[0].image)
    box.close()
