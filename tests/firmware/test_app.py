"""The whole box on simulated hardware: keys through MockFactory pins, frames on luma's dummy."""
import os
import signal
import subprocess
import sys
from pathlib import Path

from firmware import paths
from firmware.journal import Journal
from firmware.modes.base import ListScreen
from tests.conftest import Box


def labels(box):
    return box.mode.labels()


def test_start_shows_the_main_menu_with_every_game(box):
    assert isinstance(box.mode, ListScreen)
    assert labels(box) == ["Password", "Perquackey", "Taboo (3 players)", "Cryptic Words", "Settings"]
    assert box.frame is not None and box.frame.getbbox() is not None


def test_keys_move_the_cursor_and_redraw_only_on_change(box):
    sent = box.app.frames_sent
    box.wait(1.0)
    assert box.app.frames_sent == sent          # nothing changed: no new frame
    box.press("K2")
    assert box.mode.cursor == 1 and box.app.frames_sent > sent
    box.press("K1", "K1")
    assert box.mode.cursor == 4                 # wraps round to Settings


def test_settings_change_and_save(box, tmp_path):
    box.app.config_file = tmp_path / "config.toml"
    box.press("K1", "K3")                       # up to Settings, open it
    assert box.mode.title == "Settings"
    sound = [i for i, s in enumerate(box.mode.menu_settings) if s.key == "sound.enabled"][0]
    for _ in range(sound):
        box.press("K2")
    box.press("K3")
    assert box.app.settings["sound.enabled"] is False and box.hw.sounder.enabled is False
    assert "enabled = false" in box.app.config_file.read_text()
    box.press("K4")
    assert box.mode.title == "TableMate"


def test_key_test_shows_gestures(box):
    box.press("K1", "K3")
    box.mode.cursor = box.mode.labels().index("Key test")
    box.press("K3")
    box.press("K2", "K3-long")
    assert box.mode.seen == {"K2": "short", "K3": "long"}
    box.press("K4-long")
    assert box.mode.title == "Settings"


def test_a_wrong_key_gets_a_message_and_an_error_cue(box):
    box.press("K4")                              # nothing to go back to from the top menu
    assert box.app.log[-1] == "This is the top menu."
    assert box.hw.sounder.last_cue == "error"


def start_password(box):
    box.press("K3")                              # Password
    box.press("K3")                              # Start with the preset names
    assert box.mode.__class__.__name__ == "PlayScreen"


def test_a_password_game_from_the_keys(box):
    start_password(box)
    box.press("K1", "K1", "K2")                  # two misses, then guessed at 8
    assert box.mode.state.cells["B1"][0] == 8
    box.press("K1-long")                         # undo
    assert box.mode.state.cells["B1"][0] is None and box.mode.state.clues == 2
    assert len(Journal.load(paths.current_journal()).events) == 2


def test_the_failsafe_screen_keeps_the_game(box, monkeypatch):
    start_password(box)
    box.press("K1")

    def broken(*a):
        raise RuntimeError("sensor on fire")
    monkeypatch.setattr(box.mode, "on_game_key", broken)
    box.press("K2")
    assert box.mode.title == "Sorry" and "sensor on fire" in box.mode.text
    box.press("K4")
    assert labels(box)[0] == "Resume Password"
    box.press("K3")
    assert box.mode.state.clues == 1


def test_restart_shows_the_same_screen(clock):
    first = Box(clock)
    start_password(first)
    first.press("K1", "K1", "K1", "K2", "K1")
    before = first.frame.copy()
    first.close()                                # no clean shutdown: the box just died
    clock.advance(30)
    again = Box(clock)
    again.wait(3.0)                              # let the "Resumed" note pass
    assert again.frame.tobytes() == before.tobytes()
    again.close()


def test_kill_9_mid_game_then_restart_resumes(tmp_path):
    """A real process, killed hard after the keys were handled, comes back where it was."""
    env = dict(os.environ, TABLEMATE_HOME=str(tmp_path / "home"))
    cmd = [sys.executable, "-m", "firmware", "run", "--display", "dummy", "--input", "lines", "--camera", "none"]
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, env=env, stderr=subprocess.PIPE,
                            cwd=Path(__file__).resolve().parents[2])
    proc.stdin.write(b"K3\nK3\nK1\nK1\nK2\n")
    proc.stdin.flush()
    journal = tmp_path / "home" / "current.jsonl"
    import time
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:      # wait for the work to show in the journal, not a fixed time
        if journal.exists() and len(journal.read_text().splitlines()) == 4:
            break
        time.sleep(0.02)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    events = Journal.load(journal).events
    assert [e["kind"] for e in events] == ["missed", "missed", "guessed"]
    out = subprocess.run([sys.executable, "-m", "firmware", "replay", str(journal)], capture_output=True,
                         text=True, env=env, cwd=Path(__file__).resolve().parents[2])
    assert '"password": "B1"' in out.stdout


def test_camera_test_shows_a_thumbnail_and_saves_the_frame(clock, state_home):
    from device.hardware import SAMPLE_PHOTOS
    box = Box(clock, camera=str(SAMPLE_PHOTOS))
    box.press("K1", "K3")                        # Settings
    box.mode.cursor = box.mode.labels().index("Camera test")
    box.press("K3", "K3")                        # open it, capture
    assert box.mode.thumb is not None and "saved as" in box.mode.note
    assert len(list((state_home / "captures").glob("capture-*.jpg"))) == 1
    box.close()


def test_camera_test_without_a_camera_says_so(box):
    box.press("K1", "K3")
    box.mode.cursor = box.mode.labels().index("Camera test")
    box.press("K3", "K3")
    assert "No camera" in box.app.log[-1]


def test_an_unreadable_saved_game_is_set_aside_with_a_message(clock, state_home):
    (state_home / "current.jsonl").write_text("this is not a journal\n")
    box = Box(clock)
    assert box.mode.title == "TableMate" and "could not be read" in box.app.log[-1]
    assert not (state_home / "current.jsonl").exists()
    assert list((state_home / "history").glob("*-unreadable.jsonl"))
    box.close()


def test_a_torn_last_line_is_skipped_and_the_game_resumes(clock, state_home):
    first = Box(clock)
    start_password(first)
    first.press("K1", "K1")
    first.close()
    with open(state_home / "current.jsonl", "ab") as f:
        f.write(b'{"kind": "gue')                     # the power went mid-write
    again = Box(clock)
    assert again.mode.state.clues == 2 and "damaged" in " ".join(again.app.log)
    again.close()


def test_a_finished_game_left_on_screen_is_filed_as_finished(clock, state_home):
    box = Box(clock)
    start_password(box)
    box.press(*["K2"] * 10)                      # every password guessed at once
    assert box.mode.outcome is not None
    box.close()                                  # the box is switched off on the final screen
    again = Box(clock)                           # it resumes on the final screen
    assert again.mode.outcome is not None
    again.press("K4")                            # to the menu: the finished game is filed
    assert [p.name.split("-", 2)[2] for p in (state_home / "history").iterdir()] == ["password-finished.jsonl"]
    again.close()


def test_the_registry_agrees_with_the_menu_and_the_readme(box):
    """The games are listed once (firmware.games.GAMES): the menu and the README follow it."""
    from firmware.games import GAMES
    assert labels(box) == [game.LABEL for game in GAMES] + ["Settings"]
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    sections = readme.split("\n## The games\n")[1].split("\n## ")[0].split("\n### ")[1:]
    assert [s.split()[0] for s in sections] == [game.LABEL.split()[0] for game in GAMES]
    for section, game in zip(sections, GAMES):
        assert ("timer" in section.lower()) == game.HAS_TIMER, game.NAME
