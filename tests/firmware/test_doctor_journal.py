"""`tablemate doctor` reads the game in progress as the box will, and says when steps
would be dropped, without changing the file."""
import io

from firmware import config, doctor, paths
from firmware.session import Session


def game_check() -> tuple[bool, str]:
    return doctor.check_current_game(config.defaults(), doctor.Service())


def test_no_game_and_a_sound_game_are_fine():
    assert game_check() == (True, "no game in progress")
    s = Session.new("taboo", {"names": ["Al", "Bo", "Cy"]}, wall=1.0)
    s.submit({"kind": "start", "at": 5.0})
    assert game_check() == (True, "Taboo (3 players) in progress, 1 step(s), all readable")


def test_a_damaged_journal_is_reported_and_left_as_it_is():
    s = Session.new("taboo", {"names": ["Al", "Bo", "Cy"]}, wall=1.0)
    s.submit({"kind": "start", "at": 5.0})
    path = paths.current_journal()
    with open(path, "a", encoding="utf-8") as f:
        f.write('{"kind": "start", "at": 6.0}\n')          # a step that no longer fits: already started
        f.write('{"kind": "corr')                          # the power went mid-write
    before = path.read_bytes()
    ok, text = game_check()
    assert not ok and "2 step(s) will be dropped" in text and "last line was damaged" in text
    assert path.read_bytes() == before                     # doctor reads, never repairs
    out = io.StringIO()
    assert doctor.run_checks(config.defaults(), paths.config_path(), out) == 1
    assert "[FIX] Game in progress:" in out.getvalue() and "All good." not in out.getvalue()
