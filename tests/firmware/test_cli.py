"""The command line, run as a user would run it."""
import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def tablemate(*args, env=None, stdin=None):
    return subprocess.run([sys.executable, "-m", "firmware", *args], capture_output=True, text=True,
                          env={**os.environ, **(env or {})}, cwd=ROOT, input=stdin)


def test_doctor_on_a_pc_without_hardware(state_home):
    result = tablemate("doctor")
    assert result.returncode == 0, result.stdout
    for part in ("Display", "Keys and buzzer", "Camera", "Tesseract", "Journal"):
        assert f"[ok] {part}:" in result.stdout


@pytest.mark.parametrize("toml, line", [
    ('[camera]\nsource = "/nowhere/photos"\n', "[FIX] Camera: The image source /nowhere/photos does not exist"),
    ('[display]\nkind = "sh1106"\nport = 19\n',
     "[FIX] Display: /dev/i2c-19 is missing, so I2C is off: `sudo raspi-config nonint do_i2c 0`"),
])
def test_doctor_explains_a_part_it_cannot_reach(state_home, tmp_path, toml, line):
    cfg = tmp_path / "c.toml"
    cfg.write_text(toml)
    result = tablemate("--config", str(cfg), "doctor")
    assert result.returncode == 1
    assert line in result.stdout


def test_a_bad_config_is_named_and_the_box_still_starts(state_home, tmp_path):
    cfg = tmp_path / "c.toml"
    cfg.write_text("[display]\ncontrast = 999\n")
    result = tablemate("--config", str(cfg), "run", "--display", "dummy", "--input", "lines", stdin="")
    assert result.returncode == 0
    assert "display.contrast = 999" in result.stderr and "Using 200 until it is fixed" in result.stderr


def test_config_defaults_print_every_setting():
    result = tablemate("config", "--defaults")
    assert result.returncode == 0 and "[perquackey]" in result.stdout and "timer_s = 180" in result.stdout


def test_replay_prints_the_final_state(state_home):
    run = tablemate("run", "--display", "dummy", "--input", "lines", stdin="K3 K3 K1 K1 K2\n")
    assert run.returncode == 0, run.stderr
    result = tablemate("replay", str(state_home / "current.jsonl"))
    data = json.loads(result.stdout)
    assert data["game"] == "password" and data["phase"] == "playing" and data["password"] == "B1"
    assert data["scores"]["Bob"] == 8 and data["totals"] == {"Alice & Bob": 8, "Chris & Dana": 0}


def test_replay_of_a_missing_or_foreign_file(tmp_path):
    assert "no such file" in tablemate("replay", str(tmp_path / "none.jsonl")).stderr
    junk = tmp_path / "junk.jsonl"
    junk.write_text("hello\n")
    result = tablemate("replay", str(junk))
    assert result.returncode == 2 and "not a TableMate journal" in result.stderr


def test_words_command(state_home):
    result = tablemate("words", "--json", "AAEEEBHIRS")
    data = json.loads(result.stdout)
    assert data["vulnerable"] is False and "bearish" in data["words"]["7"] and data["best_score"] > 0
    bad = tablemate("words", "ABC")
    assert bad.returncode == 2 and "a throw has 10 cubes" in bad.stderr
    tablemate("words", "--add", "qqqabc")
    assert "+qqqabc" in tablemate("words", "--house").stdout


@pytest.mark.parametrize("args, words", [
    (("ABC",), "a throw has 10 cubes"),
    ((), "give the throw's letters"),
    (("AAEEEBHIR5",), "use only the letters A to Z"),
])
def test_words_errors_are_json_with_json(state_home, args, words):
    result = tablemate("words", "--json", *args)
    assert result.returncode == 2 and result.stderr == ""
    assert words in json.loads(result.stdout)["error"]


def test_systemd_notify_ready_and_watchdog(state_home, tmp_path):
    path = str(tmp_path / "notify.sock")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    sock.settimeout(10)
    result = tablemate("run", "--display", "dummy", "--input", "lines", stdin="K2\n", env={"NOTIFY_SOCKET": path})
    assert result.returncode == 0
    messages = set()
    sock.setblocking(False)
    while True:
        try:
            messages.add(sock.recv(100).decode())
        except BlockingIOError:
            break
    assert {"READY=1", "WATCHDOG=1"} <= messages


def test_screens_renders_any_screen_from_keys(tmp_path):
    from PIL import Image
    out = tmp_path / "dial.png"
    result = tablemate("screens", "--keys", "K3 K3 K1", "--out", str(out), "--scale", "2")
    assert result.returncode == 0 and Image.open(out).size == (128 * 2 + 8, 64 * 2 + 8)
    assert tablemate("screens", "--keys", "K9", "--out", str(out)).returncode == 2


def test_a_missing_oled_is_explained_and_the_box_still_runs(state_home):
    result = tablemate("run", "--display", "ssd1306", "--input", "lines", stdin="K2\n",
                       env={"TABLEMATE_CONFIG": "/nonexistent.toml"})
    assert result.returncode == 0
    assert "Display:" in result.stderr and ("I2C is off" in result.stderr or "permission" in result.stderr)


def test_the_window_display_opens_headless(state_home):
    result = tablemate("run", "--display", "pygame", "--input", "lines", stdin="K2\n",
                       env={"SDL_VIDEODRIVER": "dummy"})
    assert result.returncode == 0, result.stderr



def test_replay_leaves_out_a_step_that_does_not_fit(state_home):
    """Issue 11, defect 7: a damaged but well-formed event is named, never a traceback."""
    journal = state_home / "g.jsonl"
    journal.write_text('{"tablemate_journal": 1, "game": "taboo", "settings": {"names": ["A", "B", "C"]}}\n'
                       '{"kind": "start", "at": null}\n{"kind": "start", "at": 5.0}\n{"kind": "correct", "at": 6}\n'
                       '{"kind": "end_round", "at": 70}\n')
    result = tablemate("replay", str(journal))
    assert result.returncode == 0 and "Traceback" not in result.stderr
    assert "step 1 (start) does not fit the game" in result.stderr
    assert json.loads(result.stdout)["scores"] == {"A": 1, "B": 1, "C": 0}
    assert journal.read_text().count("\n") == 5           # replay only reads


def test_the_photo_bench_says_plainly_when_a_folder_has_no_truth_file(tmp_path):
    result = tablemate("bench", "--photos", str(tmp_path))
    assert result.returncode == 1
    assert f"{tmp_path}/truth.json: cannot read the truth file" in result.stderr
    assert "Put a truth.json beside the photos" in result.stderr
