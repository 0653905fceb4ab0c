import os
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
