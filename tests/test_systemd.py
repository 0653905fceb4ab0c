import os
import re
import shutil
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

UNIT = Path(__file__).resolve().parents[1] / "systemd" / "tablemate.service"


def test_the_unit_passes_systemd_analyze_verify(tmp_path):
    tool = shutil.which("systemd-analyze")
    if tool is None:
        if os.environ.get("CI"):
            pytest.fail("systemd-analyze is missing in CI: `make test` installs the systemd package")
        pytest.skip("systemd-analyze is not installed (make test installs it)")
    # verify checks that ExecStart exists: point it at this checkout's command instead of /opt
    exe = Path(sys.executable).with_name("tablemate")
    unit = tmp_path / "tablemate.service"
    unit.write_text(UNIT.read_text().replace("/opt/tablemate/.venv/bin/tablemate", str(exe)))
    result = subprocess.run([tool, "verify", str(unit)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_the_unit_keeps_the_devices_reachable():
    text = UNIT.read_text()
    for line in ("Type=notify", "WatchdogSec=", "Restart=on-failure", "StateDirectory=tablemate",
                 "SupplementaryGroups=gpio i2c video", "DeviceAllow=char-gpiochip rw", "DeviceAllow=char-i2c rw",
                 "DeviceAllow=char-video4linux rw", "DeviceAllow=char-media rw", "DeviceAllow=char-dma_heap rw"):
        assert line in text
    assert not any(line.startswith("PrivateDevices=") for line in text.splitlines())


def test_the_pi_installer_is_valid_bash_and_installs_the_apt_stack():
    script = UNIT.with_name("install-pi.sh")
    assert subprocess.run(["bash", "-n", str(script)]).returncode == 0
    text = script.read_text()
    for package in ("python3-opencv", "python3-numpy", "python3-picamera2", "python3-lgpio", "tesseract-ocr"):
        assert package in text
    assert "do_i2c 0" in text and "usermod -aG" in text


def test_systemctl_stop_ends_the_box_as_cleanly_as_ctrl_c(tmp_path):
    """SIGTERM after READY=1: the process ends through its clean-up (exit 0), not killed by
    the signal (-15), which would leave the last frame lit and the pins claimed."""
    path = str(tmp_path / "notify.sock")
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(path)
    listener.settimeout(30)
    box = subprocess.Popen([sys.executable, "-m", "firmware", "run", "--display", "dummy", "--input", "lines"],
                           stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           cwd=UNIT.parents[1], env={**os.environ, "NOTIFY_SOCKET": path})
    try:
        while listener.recv(100) != b"READY=1":
            pass
        box.send_signal(signal.SIGTERM)
        _, err = box.communicate(timeout=30)
    finally:
        box.kill()
        listener.close()
    assert box.returncode == 0, err.decode()


def systemd_analyze():
    tool = shutil.which("systemd-analyze")
    if tool is None:
        if os.environ.get("CI"):
            pytest.fail("systemd-analyze is missing in CI: `make test` installs the systemd package")
        pytest.skip("systemd-analyze is not installed (make test installs it)")
    return tool


def test_the_unit_is_hardened_to_an_exposure_under_4(tmp_path):
    unit = tmp_path / "tablemate.service"
    unit.write_text(UNIT.read_text().replace("/opt/tablemate/.venv/bin/tablemate", "/bin/true"))
    result = subprocess.run([systemd_analyze(), "security", "--offline=true", str(unit)],
                            capture_output=True, text=True)
    score = re.search(r"Overall exposure level for \S+: ([\d.]+)", result.stdout)
    assert score, result.stdout + result.stderr
    assert float(score.group(1)) < 4.0
    directives = UNIT.read_text().splitlines()
    assert not any(line.startswith(("PrivateUsers=", "PrivateDevices=")) for line in directives)
    assert "RestrictAddressFamilies=AF_UNIX AF_NETLINK" in directives


def test_every_unit_the_service_waits_for_is_also_pulled_in():
    """After= only orders: a service that is not also wanted never starts for our sake."""
    lines = dict(line.split("=", 1) for line in UNIT.read_text().splitlines() if line[:1].isalpha())
    wanted = set(lines.get("Wants", "").split()) | set(lines.get("Requires", "").split())
    for unit in lines.get("After", "").split():
        assert unit.endswith(".target") or unit in wanted, unit


def make_dry_run(*args):
    # Run as a top-level make even under `make test`: an inherited MAKELEVEL adds
    # "Entering directory" lines to the plan.
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHON", "MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
    result = subprocess.run(["make", "-n", "--no-print-directory", *args], capture_output=True, text=True, cwd=UNIT.parents[1], env=env)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_on_a_pi_the_makefile_uses_the_system_python_and_apt_binaries(tmp_path):
    model = tmp_path / "model"
    model.write_text("Raspberry Pi 4 Model B Rev 1.5\0")
    plan = make_dry_run(f"PI_MODEL={model}", f"VENV={tmp_path}/venv", f"{tmp_path}/venv/.installed-pi")
    assert f"/usr/bin/python3 -m venv --system-site-packages {tmp_path}/venv" in plan
    assert "pip install -q --prefer-binary -e '.[pi]'" in plan
    apt = [line for line in plan.splitlines() if line.startswith("missing=")]
    assert "python3-cbor2" in apt[0] and "python3-picamera2" not in apt[0]
    assert "python3-picamera2" in apt[1] and "--no-install-recommends" in apt[1]
    pc = make_dry_run(f"PI_MODEL={tmp_path}/none", f"VENV={tmp_path}/venv", f"{tmp_path}/venv/bin/python")
    assert pc.strip() == f"python3 -m venv  {tmp_path}/venv"


FAKE_COMMANDS = {
    "id": 'case "$1" in -u) echo 0 ;; esac',
    "systemctl": 'case "$1" in is-active) exit "${TABLEMATE_TEST_INACTIVE:-0}" ;; esac',
    "apt-get": "", "raspi-config": "", "useradd": "", "usermod": "", "getent": "", "rsync": "", "make": "",
}


def run_installer(tmp_path, **env):
    """The installer with every system command replaced by one that writes its arguments
    to a log: what it would do, in order, on a Pi."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    log = tmp_path / "log"
    for name, body in FAKE_COMMANDS.items():
        script = bin_dir / name
        script.write_text(f'#!/bin/sh\necho "{name} $*" >> "{log}"\n{body}\n')
        script.chmod(0o755)
    (tmp_path / "units").mkdir(exist_ok=True)
    boot = tmp_path / "config.txt"
    if not boot.exists():
        boot.write_text("dtparam=audio=on\n[cm5]\ndtoverlay=dwc2,dr_mode=host\n")
    (tmp_path / "opt" / "systemd").mkdir(parents=True, exist_ok=True)   # what rsync would have copied
    (tmp_path / "opt" / "systemd" / "tablemate.service").write_text(UNIT.read_text())
    result = subprocess.run(["bash", str(UNIT.with_name("install-pi.sh"))], capture_output=True, text=True,
                            env={**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}",
                                 "TABLEMATE_PREFIX": str(tmp_path / "opt"),
                                 "TABLEMATE_UNIT_DIR": str(tmp_path / "units"),
                                 "TABLEMATE_BOOT_CONFIG": str(boot), **env})
    assert result.returncode == 0, result.stderr
    return log.read_text().splitlines(), boot.read_text()


def test_reinstalling_stops_the_running_service_before_copying_and_starts_the_new_one(tmp_path):
    calls, _ = run_installer(tmp_path)
    def at(prefix):
        return next(i for i, call in enumerate(calls) if call.startswith(prefix))
    assert at("systemctl stop tablemate.service") < at("rsync") < at("make") < at("systemctl restart tablemate")
    assert not any("--now" in call for call in calls)
    assert (tmp_path / "units" / "tablemate.service").read_text() == UNIT.read_text()
    calls, _ = run_installer(tmp_path, TABLEMATE_TEST_INACTIVE="3")   # a first install: nothing to stop
    assert not any(call.startswith("systemctl stop") for call in calls[len(calls) // 2:])


def test_the_installer_takes_binaries_from_apt_and_sets_i2c_to_400khz_once(tmp_path):
    calls, _ = run_installer(tmp_path)
    calls, boot = run_installer(tmp_path)
    installs = [call for call in calls if call.startswith("apt-get install")]
    assert any("python3-cbor2" in call and "python3-pil" in call for call in installs)
    assert any("--no-install-recommends python3-picamera2" in call for call in installs)
    assert boot.count("dtparam=i2c_arm_baudrate=400000") == 1
    assert boot.endswith("[all]\ndtparam=i2c_arm_baudrate=400000\n")   # not inside the [cm5] section
