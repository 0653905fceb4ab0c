"""`tablemate doctor`: checks each part and says in plain words how to fix what is wrong."""
from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from device.hardware import PIN_FACTORIES, camera_source, is_raspberry_pi, key_pins
from firmware import config, paths

UNIT = "tablemate.service"
AS_SERVICE = "sudo -u tablemate /opt/tablemate/.venv/bin/tablemate doctor"
STOP_FIRST = "`sudo systemctl stop tablemate`, run doctor, then `sudo systemctl start tablemate`"


@dataclass(frozen=True)
class Service:
    """What systemd says about the TableMate service: whether it runs now (then the OLED and
    the camera are its own, and doctor leaves them alone) and where it keeps its settings."""
    running: bool = False
    state_dir: Path | None = None

    @classmethod
    def ask(cls) -> "Service":
        systemctl = shutil.which("systemctl")
        if systemctl is None:
            return cls()
        try:
            running = subprocess.run([systemctl, "is-active", "--quiet", UNIT], stderr=subprocess.DEVNULL,
                                     timeout=10).returncode == 0
            shown = subprocess.run([systemctl, "show", "--property=StateDirectory", "--value", UNIT],
                                   capture_output=True, text=True, timeout=10).stdout.split()
        except (OSError, subprocess.SubprocessError):
            return cls()  # no systemd here (a container, a PC without it): nothing runs
        return cls(running, Path("/var/lib") / shown[0] if shown else None)


def config_file(config_arg: str | None, service: Service) -> Path:
    """The settings file to check: the one given, or else the installed service's own.
    `sudo -u tablemate` makes HOME the state folder, where the service does not look, so
    the service's folder is taken from systemd and set as the service sets it."""
    if config_arg:
        return Path(config_arg)
    chosen = any(os.environ.get(name) for name in ("TABLEMATE_HOME", "TABLEMATE_CONFIG", "STATE_DIRECTORY"))
    if service.state_dir is not None and not chosen:
        os.environ["STATE_DIRECTORY"] = str(service.state_dir)  # paths.* now agree with the service's
    return paths.config_path()


def check_display(settings, service: Service, open_panel=None, dev: Path = Path("/dev")) -> tuple[bool, str]:
    kind = settings["display.kind"]
    if kind not in ("auto", "ssd1306", "sh1106") or (kind == "auto" and not is_raspberry_pi()):
        return True, f"simulated ({'terminal' if kind == 'auto' else kind}); on the box it is an I2C OLED"
    if service.running:
        return True, f"in use by the running TableMate service, so left alone; to test it: {STOP_FIRST}."
    bus = dev / f"i2c-{settings['display.port']}"
    if not bus.exists():
        return False, f"{bus} is missing, so I2C is off: `sudo raspi-config nonint do_i2c 0`, then reboot."
    if not os.access(bus, os.R_OK | os.W_OK):
        return False, f"no permission for {bus}: `sudo usermod -aG i2c $USER`, then log in again."
    from device.display import open_display
    from device.errors import DisplayError
    try:
        panel = (open_panel or open_display)("ssd1306" if kind == "auto" else kind, port=settings["display.port"],
                                             address=settings["display.address"],
                                             rotate=settings["display.rotate"], contrast=settings["display.contrast"])
    except DisplayError as exc:
        return False, str(exc)
    panel.display(_test_card(panel.size))
    panel.release()   # the test card stays lit: the panel is never switched off from here
    return True, f"{kind} answers at {settings['display.address']:#04x} on {bus}; it shows \"doctor: display OK\""


def _test_card(size):
    from PIL import Image, ImageDraw
    card = Image.new("1", size)
    draw = ImageDraw.Draw(card)
    draw.rectangle((0, 0, size[0] - 1, size[1] - 1), outline=1)
    draw.text((8, 26), "doctor: display OK", fill=1)
    return card


def check_gpio(settings, service: Service) -> tuple[bool, str]:
    pins = ", ".join(f"{k} GPIO{p}" for k, p in key_pins(settings).items())
    name = settings["keys.pin_factory"]
    if not is_raspberry_pi():
        return True, f"not a Raspberry Pi: keys are simulated (mock pins); on the box: {name}, {pins}"
    chips = sorted(Path("/dev").glob("gpiochip*"))
    if not chips:
        return False, "no /dev/gpiochip*: this kernel exposes no GPIO."
    if not all(os.access(c, os.R_OK | os.W_OK) for c in chips):
        return False, "no permission for /dev/gpiochip*: `sudo usermod -aG gpio $USER`, then log in again."
    library = {"lgpio": "lgpio", "rpigpio": "RPi.GPIO"}[name]
    if importlib.util.find_spec(library.split(".")[0]) is None:
        return False, (f"keys.pin_factory = {name}, but {library} is not installed: "
                       f"`sudo apt install {PIN_FACTORIES[name][2]}`.")
    return True, f"GPIO reachable through {name}; keys on {pins}, buzzer on GPIO{settings['sound.pin']}"


def check_camera(settings, service: Service) -> tuple[bool, str]:
    from device.camera import open_camera, small_picture
    from device.errors import CameraError
    source = camera_source(settings["camera.source"], simulated=not is_raspberry_pi())
    if source == "none":
        return True, "no camera configured: cube letters are keyed in (set camera.source to use one)"
    if service.running and (source == "picamera" or source.startswith("webcam")):
        return True, f"in use by the running TableMate service, so left alone; to test it: {STOP_FIRST}."
    try:
        camera = open_camera(source, settings["camera.webcam_size"])
        frame = camera.capture()
        camera.close()
    except CameraError as exc:
        return False, str(exc)
    except ImportError as exc:
        return False, f"OpenCV is missing ({exc.name}): run `make run` again to install it."
    taken = f"{camera.description}: {frame.shape[1]}x{frame.shape[0]} picture taken"
    small = small_picture(frame)
    return True, f"{taken}; {small}" if small else taken


def check_tesseract(settings, service: Service) -> tuple[bool, str]:
    exe = shutil.which("tesseract")
    if exe is None:
        return False, "Tesseract is not installed: `sudo apt install tesseract-ocr`."
    version = subprocess.run([exe, "--version"], capture_output=True, text=True).stdout.split("\n")[0]
    from vision import ocr
    how = ("read in-process (tesserocr)" if ocr.in_process() else
           "each glyph a process of its own: install tesserocr (`python3-tesserocr` on a Pi) to read faster")
    return True, f"{version} at {exe}; {how}"


def check_networks(settings, service: Service) -> tuple[bool, str]:
    """The reader's two model files, loaded as a read would load them."""
    try:
        import numpy as np
        from vision import face_net, letter_net
        from vision.networks import ModelMissing
    except ImportError as exc:
        return False, f"the cube reader is not installed ({exc.name}): run `make run` again to install it."
    try:
        letter_net.scores(np.zeros((1, letter_net.INPUT, letter_net.INPUT), np.uint8))
        face_net.topness(np.full((64, 64, 3), 200, np.uint8), [np.float32([[20, 20], [44, 20], [44, 44], [20, 44]])])
    except ModelMissing as exc:
        return False, f"{exc}; the reader works without it, less well."
    return True, f"the face and letter networks load ({face_net.MODEL_PATH.parent})"


def check_storage(settings, service: Service) -> tuple[bool, str]:
    folder = paths.state_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe = folder / ".doctor"
        probe.write_text("ok")
        probe.unlink()
    except OSError as exc:
        fix = f"run doctor as the service's user: {AS_SERVICE}" if folder == service.state_dir else \
            "give the user that folder, or set TABLEMATE_HOME"
        return False, f"cannot write games to {folder} ({exc.strerror}): {fix}."
    return True, f"games are saved in {folder}"


def check_current_game(settings, service: Service) -> tuple[bool, str]:
    """The game in progress, read as the box will read it at start, without changing the
    file: damaged lines and saved steps that no longer fit would be dropped."""
    from firmware.journal import Journal, JournalError
    from firmware.games import rules
    from firmware.session import replay
    path = paths.current_journal()
    if not path.exists():
        return True, "no game in progress"
    try:
        journal = Journal.load(path, repair=False)
        game = rules(journal.game)
        _, dropped = replay(game, journal.settings, journal.events)
    except (OSError, JournalError, KeyError, TypeError, ValueError) as exc:
        return False, (f"the game in progress cannot be read ({exc}); the box will set it aside under "
                       f"{paths.history_dir()} at start.")
    problems = list(journal.warnings)
    problems += [f"saved step {index + 1} ({event.get('kind')}) no longer fits the game ({exc})"
                 for index, event, exc in dropped]
    if problems:
        return False, (f"{path} is damaged: {len(problems)} step(s) will be dropped when the box resumes it "
                       f"(the first: {problems[0]}). The rest of the game is kept.")
    return True, f"{game.LABEL} in progress, {len(journal.events)} step(s), all readable"


CHECKS = (("Display", check_display), ("Keys and buzzer", check_gpio), ("Camera", check_camera),
          ("Tesseract", check_tesseract), ("Reader networks", check_networks), ("Journal", check_storage), ("Game in progress", check_current_game))


def run_doctor(config_arg: str | None = None, out=sys.stdout, service: Service | None = None) -> int:
    """Check the parts with the settings the service uses; exit 1 when something needs fixing."""
    service = service or Service.ask()
    path = config_file(config_arg, service)
    settings, problems = config.load(path)
    return run_checks(settings, path, out, service, problems)


def run_checks(settings, config_path: Path, out=sys.stdout, service: Service = Service(),
               problems: list[str] = ()) -> int:
    """Print one line per part; exit 1 when something needs fixing (the app still runs)."""
    whose = " (the service's)" if service.state_dir and config_path.parent == service.state_dir else ""
    print(f"Config: {config_path}{whose}{'' if config_path.exists() else ' (not there: defaults in use)'}", file=out)
    if service.running:
        print("Service: running; its OLED and camera are left alone.", file=out)
    failed = 0
    for problem in problems:
        hint = f" If it is the service's file, run doctor as its user: {AS_SERVICE}" if "Cannot read" in problem else ""
        print(f"[FIX] Config: {problem}{hint}", file=out)
        failed += 1
    for name, check in CHECKS:
        try:
            ok, text = check(settings, service)
        except Exception as exc:  # a check must never take the doctor down with it
            ok, text = False, f"the check itself failed: {exc}"
        failed += not ok
        print(f"[{'ok' if ok else 'FIX'}] {name}: {text}", file=out)
    print("All good." if not failed else f"{failed} thing(s) to fix; TableMate still runs with the rest.", file=out)
    return 1 if failed else 0
