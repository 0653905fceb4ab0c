"""The 128x64 OLED: luma.oled on I2C on the box; a terminal, a pygame window or luma's
dummy device when simulated.  Every variant is a luma device: draw into a PIL image and
call `display(image)`; `.image` keeps the last frame on the simulated ones."""
from __future__ import annotations

import sys

from .errors import DisplayError

WIDTH, HEIGHT = 128, 64
REAL_KINDS = ("ssd1306", "sh1106")
SIM_KINDS = ("terminal", "pygame", "dummy")


def open_display(kind: str, *, port: int = 1, address: int = 0x3C, rotate: int = 0,
                 contrast: int = 200, out=None):
    """Open the display named by `kind`; raise DisplayError with a plain fix on failure."""
    if kind in REAL_KINDS:
        device = _open_oled(kind, port, address, rotate)
    elif kind == "terminal":
        device = TerminalDisplay(out or sys.stdout, rotate=rotate)
    elif kind == "pygame":
        device = _open_pygame(rotate)
    elif kind == "dummy":
        from luma.core.device import dummy
        device = dummy(width=WIDTH, height=HEIGHT, rotate=rotate, mode="1")
    else:
        raise DisplayError(f"Unknown display {kind!r}: choose one of {', '.join(REAL_KINDS + SIM_KINDS)}.")
    device.contrast(contrast)
    return device


def _open_oled(kind: str, port: int, address: int, rotate: int):
    try:
        from luma.core.error import DeviceNotFoundError, DevicePermissionError
        from luma.core.interface.serial import i2c
        from luma.oled import device as oled
    except ImportError as exc:
        raise DisplayError(f"The OLED driver is not installed ({exc.name}): run `make run` again to install it.") from exc
    bus = f"/dev/i2c-{port}"
    try:
        serial = i2c(port=port, address=address)
        return getattr(oled, kind)(serial, width=WIDTH, height=HEIGHT, rotate=rotate)
    except DevicePermissionError as exc:
        raise DisplayError(f"No permission to open {bus}: add the user to the i2c group "
                           f"(sudo usermod -aG i2c $USER) and log in again.") from exc
    except DeviceNotFoundError as exc:
        if "address" in str(exc):
            raise DisplayError(f"Nothing answers at I2C address {address:#04x} on {bus}: check the OLED's "
                               f"wiring (SDA pin 3, SCL pin 5, 3.3V, GND) or set display.address to 0x3D; "
                               f"`i2cdetect -y {port}` lists what answers.") from exc
        raise DisplayError(f"{bus} is missing, so I2C is off: enable it with "
                           f"`sudo raspi-config nonint do_i2c 0` and reboot.") from exc
    except OSError as exc:
        raise DisplayError(f"The OLED on {bus} at {address:#04x} failed ({exc.strerror or exc}): "
                           f"check its wiring and power.") from exc


def _open_pygame(rotate: int):
    try:
        from luma.emulator.device import pygame
        return pygame(width=WIDTH, height=HEIGHT, rotate=rotate, mode="1", transform="identity", scale=5,
                      frame_rate=60)
    except ImportError as exc:
        raise DisplayError("The window display needs pygame and luma.emulator: "
                           "install them with `pip install 'tablemate[pc]'`, or use --display terminal.") from exc
    except Exception as exc:  # pygame raises its own error type when no video device exists
        raise DisplayError(f"Could not open a window ({exc}): use --display terminal, "
                           f"or set SDL_VIDEODRIVER for your desktop.") from exc


# Braille cells hold 2x4 dots, so the whole 128x64 panel fits in 64x16 characters:
# small enough for an 80x24 terminal over SSH, with no pixel lost.
_BRAILLE_BITS = ((0, 0, 0x01), (0, 1, 0x02), (0, 2, 0x04), (1, 0, 0x08),
                 (1, 1, 0x10), (1, 2, 0x20), (0, 3, 0x40), (1, 3, 0x80))


def braille_lines(image) -> list[str]:
    """The 1-bit image as lines of Unicode braille characters."""
    img = image.convert("1")
    w, h = img.size
    px = img.load()
    lines = []
    for y in range(0, h, 4):
        row = []
        for x in range(0, w, 2):
            bits = 0
            for dx, dy, bit in _BRAILLE_BITS:
                if x + dx < w and y + dy < h and px[x + dx, y + dy]:
                    bits |= bit
            row.append(chr(0x2800 + bits))
        lines.append("".join(row))
    return lines


def _dummy_base():
    from luma.core.device import dummy
    return dummy


class TerminalDisplay(_dummy_base()):
    """luma's dummy device that also paints each frame in the terminal, in braille,
    framed, at the top of the screen; a status line below shows the last message."""

    def __init__(self, out, rotate: int = 0):
        super().__init__(width=WIDTH, height=HEIGHT, rotate=rotate, mode="1")
        self._out = out
        self.status = ""

    def display(self, image) -> None:
        super().display(image)
        self.paint()

    def paint(self) -> None:
        if self.image is None:
            return
        rows = braille_lines(self.image)
        text = ["\x1b[H┌" + "─" * len(rows[0]) + "┐"]
        text += ["│" + r + "│" for r in rows]
        text += ["└" + "─" * len(rows[0]) + "┘",
                 "keys 1 2 3 4 = K1..K4   q w e r = hold K1..K4   Ctrl-C = quit",
                 (self.status[:79]).ljust(79)]
        self._out.write("\r\n".join(text) + "\x1b[J")
        self._out.flush()
