"""`tablemate doctor`: checks each part and says in plain words how to fix what is wrong."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from device.hardware import camera_source, is_raspberry_pi, key_pins
from firmware import paths


def check_display(settings) -> tuple[bool, str]:
    kind = settings["display.kind"]
    if kind not in ("auto", "ssd1306", "sh1106") or (kind == "auto" and not is_raspberry_pi()):
        return True, f"simulated ({'terminal' if kind == 'auto' else kind}); on the box it is an I2C OLED"
    bus = Path(f"/dev/i2c-{settings['display.port']}")
    if not bus.exists():
        return False, f"{bus} is missing, so I2C is off: `sudo raspi-config nonint do_i2c 0`, then reboot."
    if not os.access(bus, os.R_OK | os.W_OK):
        return False, f"no permission for {bus}: `sudo usermod -aG i2c $USER`, then log in again."
    from device.display import open_display
    from device.errors import DisplayError
    try:
        open_display("ssd1306" if kind == "auto" else kind, port=settings["display.port"],
                     address=settings["display.address"])
    except DisplayError as exc:
        return False, str(exc)
    return True, f"{kind} answers at {settings['display.address']:#04x} on {bus}"


def check_gpio(settings) -> tuple[bool, str]:
    pins = ", ".join(f"{k} GPIO{p}" for k, p in key_pins(settings).items())
    if not is_raspberry_pi():
        return True, f"not a Raspberry Pi: keys are simulated ({pins} on the box)"
    chips = sorted(Path("/dev").glob("gpiochip*"))
    if not chips:
        return False, "no /dev/gpiochip*: this kernel exposes no GPIO."
    if not all(os.access(c, os.R_OK | os.W_OK) for c in chips):
        return False, "no permission for /dev/gpiochip*: `sudo usermod -aG gpio $USER`, then log in again."
    return True, f"GPIO reachable; keys on {pins}, buzzer on GPIO{settings['sound.pin']}"


def check_camera(settings) -> tuple[bool, str]:
    from device.camera import open_camera
    from device.errors import CameraError
    source = camera_source(settings["camera.source"], simulated=not is_raspberry_pi())
    if source == "none":
        return True, "no camera configured: cube letters are keyed in (set camera.source to use one)"
    try:
        camera = open_camera(source)
        frame = camera.capture()
        camera.close()
    except CameraError as exc:
        return False, str(exc)
    except ImportError as exc:
        return False, f"OpenCV is missing ({exc.name}): run `make run` again to install it."
    return True, f"{camera.description}: {frame.shape[1]}x{frame.shape[0]} picture taken"


def check_tesseract(settings) -> tuple[bool, str]:
    exe = shutil.which("tesseract")
    if exe is None:
        return False, "Tesseract is not installed: `sudo apt install tesseract-ocr`."
    version = subprocess.run([exe, "--version"], capture_output=True, text=True).stdout.split("\n")[0]
    return True, f"{version} at {exe}"


def check_storage(settings) -> tuple[bool, str]:
    folder = paths.state_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe = folder / ".doctor"
        probe.write_text("ok")
        probe.unlink()
    except OSError as exc:
        return False, f"cannot write games to {folder} ({exc.strerror}): give the user that folder, " \
                      f"or set TABLEMATE_HOME."
    return True, f"games are saved in {folder}"


CHECKS = (("Display", check_display), ("Keys and buzzer", check_gpio), ("Camera", check_camera),
          ("Tesseract", check_tesseract), ("Journal", check_storage))


def run_checks(settings, config_file, out=sys.stdout) -> int:
    """Print one line per part; exit 1 when something needs fixing (the app still runs)."""
    print(f"Config: {config_file}{'' if config_file.exists() else ' (not there: defaults in use)'}", file=out)
    failed = 0
    for name, check in CHECKS:
        try:
            ok, text = check(settings)
        except Exception as exc:  # a check must never take the doctor down with it
            ok, text = False, f"the check itself failed: {exc}"
        failed += not ok
        print(f"[{'ok' if ok else 'FIX'}] {name}: {text}", file=out)
    print("All good." if not failed else f"{failed} thing(s) to fix; TableMate still runs with the rest.", file=out)
    return 1 if failed else 0
