"""`tablemate doctor` on a box whose service is running: it reads the service's settings
and leaves the service's OLED and camera alone."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

from device.display import open_display
from firmware import config, doctor
from pi_fakes import DISPLAY_OFF, DISPLAY_ON, FakeBus, luma_serial

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def systemctl(tmp_path, monkeypatch):
    """A systemctl on PATH that answers as a box with TableMate installed and running."""
    folder = tmp_path / "bin"
    folder.mkdir()
    script = folder / "systemctl"
    script.write_text('#!/bin/sh\n'
                      'echo "$@" >> "$(dirname "$0")/calls"\n'
                      'case "$1" in\n'
                      '  is-active) exit ${TABLEMATE_TEST_INACTIVE:-0} ;;\n'
                      '  show) echo tablemate ;;\n'
                      'esac\n')
    script.chmod(0o755)
    monkeypatch.setenv("PATH", f"{folder}:{os.environ['PATH']}")
    return folder


def test_the_service_is_asked_of_systemd(systemctl, monkeypatch):
    assert doctor.Service.ask() == doctor.Service(True, Path("/var/lib/tablemate"))
    assert "is-active --quiet tablemate.service" in (systemctl / "calls").read_text()
    monkeypatch.setenv("TABLEMATE_TEST_INACTIVE", "3")
    assert not doctor.Service.ask().running


def test_without_systemd_nothing_is_running(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))
    assert doctor.Service.ask() == doctor.Service()


def test_doctor_reads_the_services_settings_and_leaves_its_oled_and_camera_alone(tmp_path, monkeypatch, capsys):
    state = tmp_path / "var-lib-tablemate"
    state.mkdir()
    (state / "config.toml").write_text('[display]\nkind = "ssd1306"\nport = 19\n'
                                       '[keys]\nk1_pin = 21\n[camera]\nsource = "webcam:7"\n')
    monkeypatch.setenv("HOME", str(state))          # as `sudo -u tablemate` sets it
    monkeypatch.setenv("STATE_DIRECTORY", "")       # restored after the test: doctor sets it
    for name in ("TABLEMATE_HOME", "STATE_DIRECTORY", "TABLEMATE_CONFIG", "XDG_CONFIG_HOME"):
        monkeypatch.delenv(name, raising=False)
    status = doctor.run_doctor(None, sys.stdout, doctor.Service(True, state))
    out = capsys.readouterr().out
    assert f"Config: {state / 'config.toml'} (the service's)" in out
    assert "[ok] Display: in use by the running TableMate service, so left alone" in out
    assert "[ok] Camera: in use by the running TableMate service, so left alone" in out
    assert "K1 GPIO21" in out and f"games are saved in {state}" in out
    assert status == 0


def test_an_unreadable_service_config_says_to_run_as_the_service_user(tmp_path, capsys):
    cfg = tmp_path / "config.toml"
    cfg.mkdir()          # unreadable even for root, who may read a file of mode 0
    assert doctor.run_doctor(str(cfg), sys.stdout, doctor.Service()) == 1
    out = capsys.readouterr().out
    assert "[FIX] Config: Cannot read" in out and "run doctor as its user: sudo -u tablemate" in out


def settings(**changes):
    values = config.defaults()
    values.update({"display.kind": "ssd1306", **changes})
    return values


def test_doctor_tests_an_idle_panel_and_never_switches_it_off(tmp_path):
    (tmp_path / "i2c-1").touch()
    bus = FakeBus()
    ok, text = doctor.check_display(settings(), doctor.Service(),
                                    open_panel=lambda kind, **kw: open_display(kind, serial=luma_serial(bus), **kw),
                                    dev=tmp_path)
    assert ok and "answers at 0x3c" in text
    after_on = bus.commands()[bus.commands().index(DISPLAY_ON):]
    assert DISPLAY_OFF not in after_on and any(bus.data())   # on, with the test card lit


def test_doctor_sends_nothing_to_the_services_panel(tmp_path):
    def must_not_open(kind, **kw):
        raise AssertionError("doctor opened the OLED the service drives")
    ok, text = doctor.check_display(settings(), doctor.Service(True), open_panel=must_not_open, dev=tmp_path)
    assert ok and "sudo systemctl stop tablemate" in text


def test_the_command_asks_systemd_first(systemctl, state_home):
    result = subprocess.run([sys.executable, "-m", "firmware", "doctor"], capture_output=True, text=True,
                            cwd=ROOT, env={**os.environ, "TABLEMATE_CONFIG": str(state_home / "c.toml")})
    assert "Service: running; its OLED and camera are left alone." in result.stdout, result.stderr
    assert "is-active" in (systemctl / "calls").read_text()


def test_doctor_says_whether_the_reader_networks_load(tmp_path, monkeypatch):
    from vision import face_net
    ok, text = doctor.check_networks(None, doctor.Service())
    assert ok and "face and letter networks load" in text
    monkeypatch.setattr(face_net, "MODEL_PATH", tmp_path / "faces.onnx")
    ok, text = doctor.check_networks(None, doctor.Service())
    assert not ok and "face network" in text and "missing" in text and "works without it" in text
