"""The one place that chooses each port's adapter, real or simulated, from the settings
and the command line.  A part that is missing is reported in a plain sentence and the
box keeps working with what it has."""
from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field
from pathlib import Path

from .buzzer import ActiveOutput, Sounder, TonalOutput
from .camera import open_camera
from .display import REAL_KINDS, RETRY_S, open_display
from .errors import HardwareError
from .keys import KEY_NAMES, Keypad


SAMPLE_PHOTOS = Path(__file__).resolve().parents[1] / "vision" / "samples"


def camera_source(setting: str, simulated: bool) -> str:
    """What "auto" means: the Pi camera on the box; on a PC the first webcam, or else
    the sample photos of thrown cubes that ship with TableMate."""
    if setting != "auto":
        return setting
    if not simulated:
        return "picamera"
    return "webcam:0" if os.path.exists("/dev/video0") else str(SAMPLE_PHOTOS)


def is_raspberry_pi() -> bool:
    try:
        return "Raspberry Pi" in Path("/proc/device-tree/model").read_text(errors="ignore")
    except OSError:
        return False


class SilentOutput:
    """No buzzer: cues are only named on the simulator's status line."""

    def tone(self, freq: float) -> None:
        pass

    def silence(self) -> None:
        pass

    def close(self) -> None:
        pass


@dataclass
class Hardware:
    simulated: bool
    display: object
    sounder: Sounder
    keypad: Keypad | None
    camera: object | None
    pin_factory: object | None = None
    problems: list[str] = field(default_factory=list)
    found: dict[str, str] = field(default_factory=dict)

    def describe(self) -> list[str]:
        """One line per part, as About and the log show them; a panel that stopped
        answering says so."""
        lines = [f"{part}: {what}" for part, what in self.found.items()]
        fault = getattr(self.display, "fault", "")
        return lines + ([f"display fault: {fault}"] if fault else [])

    def close(self) -> None:
        """Clear and switch off the panel, silence the buzzer, free the pins and the camera."""
        for part in (self.display, self.keypad, self.sounder.output, self.camera):
            if part is None or not hasattr(part, "close"):
                continue  # luma's simulated displays keep their last frame for the tests
            try:
                part.close()
            except Exception:
                pass
        if self.pin_factory is not None:
            self.pin_factory.close()


def key_pins(settings: dict) -> dict[str, int]:
    return {key: settings[f"keys.{key.lower()}_pin"] for key in KEY_NAMES}


# keys.pin_factory -> (gpiozero module, class, the apt package that provides the library)
PIN_FACTORIES = {
    "lgpio": ("gpiozero.pins.lgpio", "LGPIOFactory", "python3-lgpio"),
    "rpigpio": ("gpiozero.pins.rpigpio", "RPiGPIOFactory", "python3-rpi.gpio"),
}


def open_pin_factory(name: str):
    """gpiozero's pin factory named by keys.pin_factory, or HardwareError saying what to install.
    Chosen here, once, and handed to every device as `pin_factory=`."""
    import importlib
    module, cls, package = PIN_FACTORIES[name]
    try:
        return getattr(importlib.import_module(module), cls)()
    except ImportError as exc:
        raise HardwareError(f"the {name} pin library is not installed ({exc.name}): "
                            f"`sudo apt install {package}`, or set keys.pin_factory.") from exc
    except Exception as exc:  # the libraries raise their own types off a Pi or without /dev/gpiochip*
        raise HardwareError(f"the {name} pin library could not start ({exc}).") from exc


def build(settings: dict, sink, clock, *, mode: str | None = None, display: str | None = None,
          camera: str | None = None, out=None) -> Hardware:
    """Open every port.  `mode`, `display` and `camera` come from the command line and win
    over the settings."""
    mode = mode or settings["hardware.mode"]
    simulated = mode == "simulated" or (mode == "auto" and not is_raspberry_pi())
    problems: list[str] = []
    found: dict[str, str] = {}

    factory = None
    if simulated:
        from gpiozero.pins.mock import MockFactory, MockPWMPin
        factory = MockFactory(pin_class=MockPWMPin)
        found["pins"] = "mock (simulated)"
    else:
        try:
            factory = open_pin_factory(settings["keys.pin_factory"])
            found["pins"] = settings["keys.pin_factory"]
        except HardwareError as exc:
            problems.append(f"Keys and buzzer: {exc}")
            found["pins"] = "missing"

    screen = _open_screen(display or settings["display.kind"], simulated, settings, out, problems, found)

    keypad = None
    found["keys"] = "missing"
    if factory is not None:  # without a pin library the problem is already said
        try:
            keypad = Keypad(key_pins(settings), sink, clock, pin_factory=factory)
            found["keys"] = "simulated (keyboard)" if simulated else "GPIO " + ", ".join(
                str(p) for p in key_pins(settings).values())
        except Exception as exc:  # gpiozero raises many types when GPIO is unreachable
            problems.append(f"Keys: could not open the GPIO pins ({exc}). Add the user to the gpio group "
                            f"(sudo usermod -aG gpio $USER) and check `tablemate doctor`.")

    output = SilentOutput()
    kind = settings["sound.buzzer"]
    found["buzzer"] = "none"
    if kind != "none" and factory is not None:
        try:
            output = (TonalOutput if kind == "tonal" else ActiveOutput)(settings["sound.pin"], pin_factory=factory)
            found["buzzer"] = "simulated" if simulated else f"{kind} on GPIO {settings['sound.pin']}"
        except Exception as exc:  # as with the keys, GPIO trouble comes in many types
            problems.append(f"Buzzer: could not open GPIO {settings['sound.pin']} ({exc}); playing silently.")
    sounder = Sounder(output, enabled=settings["sound.enabled"])

    source = camera_source(camera or settings["camera.source"], simulated)
    cam = None
    try:
        cam = open_camera(source, settings["camera.webcam_size"])
        found["camera"] = cam.description if cam else "none"
    except HardwareError as exc:
        problems.append(f"Camera: {exc} Letters can still be keyed in.")
        found["camera"] = "missing"
    except ImportError as exc:
        problems.append(f"Camera: OpenCV is not installed ({exc.name}); letters can still be keyed in.")
        found["camera"] = "missing"
    except Exception as exc:  # whatever a camera library raises, the game goes on without it
        problems.append(f"Camera: it could not be opened ({type(exc).__name__}: {exc}). "
                        f"Letters can still be keyed in.")
        found["camera"] = "missing"

    return Hardware(simulated, screen, sounder, keypad, cam, factory, problems, found)


def _open_screen(kind: str, simulated: bool, settings: dict, out, problems: list, found: dict):
    """The display the settings ask for.  When it fails: on a terminal the screen is drawn
    there instead; under systemd (no terminal) a real OLED keeps being retried, so a panel
    that answers late or is plugged back in comes on without a restart."""
    if kind == "auto":
        kind = "terminal" if simulated else "ssd1306"
    on_terminal = sys.stdout.isatty()
    try:
        screen = open_display(kind, port=settings["display.port"], address=settings["display.address"],
                              rotate=settings["display.rotate"], contrast=settings["display.contrast"], out=out,
                              keep_trying=kind in REAL_KINDS and not on_terminal)
    except HardwareError as exc:
        fallback = "Showing the screen in this terminal instead." if on_terminal else "Carrying on without a screen."
        problems.append(f"Display: {exc} {fallback}")
        found["display"] = "missing"
        return open_display("terminal" if on_terminal else "dummy", out=out)
    if getattr(screen, "fault", ""):
        problems.append(f"Display: {screen.fault} Trying again every {RETRY_S:g} s; keys and sounds still work.")
    found["display"] = kind
    return screen
