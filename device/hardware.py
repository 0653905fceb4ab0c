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
from .display import open_display
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

    def close(self) -> None:
        for part in (self.keypad, self.sounder.output, self.camera):
            if part is not None:
                try:
                    part.close()
                except Exception:
                    pass
        if self.pin_factory is not None:
            self.pin_factory.close()


def key_pins(settings: dict) -> dict[str, int]:
    return {key: settings[f"keys.{key.lower()}_pin"] for key in KEY_NAMES}


def build(settings: dict, sink, clock, *, mode: str | None = None, display: str | None = None,
          camera: str | None = None, out=None) -> Hardware:
    """Open every port.  `mode`, `display` and `camera` come from the command line and win
    over the settings."""
    mode = mode or settings["hardware.mode"]
    simulated = mode == "simulated" or (mode == "auto" and not is_raspberry_pi())
    problems: list[str] = []
    found: dict[str, str] = {}

    if simulated:
        from gpiozero.pins.mock import MockFactory, MockPWMPin
        factory = MockFactory(pin_class=MockPWMPin)
    else:
        factory = None  # gpiozero's default: lgpio, the only one that works on a Pi 5

    display_kind = display or settings["display.kind"]
    if display_kind == "auto":
        display_kind = "terminal" if simulated else "ssd1306"
    try:
        screen = open_display(display_kind, port=settings["display.port"], address=settings["display.address"],
                              rotate=settings["display.rotate"], contrast=settings["display.contrast"], out=out)
        found["display"] = display_kind
    except HardwareError as exc:
        problems.append(f"Display: {exc} Showing the screen in this terminal instead.")
        screen = open_display("terminal" if sys.stdout.isatty() else "dummy", out=out)
        found["display"] = "missing"

    keypad = None
    try:
        keypad = Keypad(key_pins(settings), sink, clock, pin_factory=factory)
        found["keys"] = "simulated (keyboard)" if simulated else "GPIO " + ", ".join(
            str(p) for p in key_pins(settings).values())
    except Exception as exc:  # gpiozero raises many types when GPIO is unreachable
        problems.append(f"Keys: could not open the GPIO pins ({exc}). Add the user to the gpio group "
                        f"(sudo usermod -aG gpio $USER) and check `tablemate doctor`.")
        found["keys"] = "missing"

    output = SilentOutput()
    kind = settings["sound.buzzer"]
    found["buzzer"] = "none"
    if kind != "none":
        try:
            output = (TonalOutput if kind == "tonal" else ActiveOutput)(settings["sound.pin"], pin_factory=factory)
            found["buzzer"] = "simulated" if simulated else f"{kind} on GPIO {settings['sound.pin']}"
        except Exception as exc:  # as with the keys, GPIO trouble comes in many types
            problems.append(f"Buzzer: could not open GPIO {settings['sound.pin']} ({exc}); playing silently.")
    sounder = Sounder(output, enabled=settings["sound.enabled"])

    source = camera_source(camera or settings["camera.source"], simulated)
    cam = None
    try:
        cam = open_camera(source)
        found["camera"] = cam.description if cam else "none"
    except HardwareError as exc:
        problems.append(f"Camera: {exc} Letters can still be keyed in.")
        found["camera"] = "missing"
    except ImportError as exc:
        problems.append(f"Camera: OpenCV is not installed ({exc.name}); letters can still be keyed in.")
        found["camera"] = "missing"

    return Hardware(simulated, screen, sounder, keypad, cam, factory, problems, found)
