"""The 128x64 OLED: luma.oled on I2C on the box, inside `Oled`, which keeps a game going
through a loose wire; a terminal, a pygame window or luma's dummy device when simulated.
Every variant takes a PIL image in `display(image)`, a level in `contrast(level)`, and
keeps the last frame in `.image` (not the pygame window)."""
from __future__ import annotations

import errno
import sys
import threading

from .errors import DisplayError

WIDTH, HEIGHT = 128, 64
REAL_KINDS = ("ssd1306", "sh1106")
SIM_KINDS = ("terminal", "pygame", "dummy")
# The screens are laid out landscape: a quarter turn would ask for a 64x128 picture, which
# luma refuses with an AssertionError.  Upside down (2) is the only other way that fits.
ROTATIONS = (0, 2)
RETRY_S = 5.0


def open_display(kind: str, *, port: int = 1, address: int = 0x3C, rotate: int = 0,
                 contrast: int = 200, out=None, serial=None, keep_trying: bool = False):
    """Open the display named by `kind`; raise DisplayError with a plain fix on failure.

    `serial` replaces the I2C bus with another luma interface (tests pass a recording one).
    With `keep_trying`, an OLED that does not answer yet is returned anyway, reporting its
    `fault` and trying again in the background, instead of raising."""
    if rotate not in ROTATIONS:
        raise DisplayError(f"display.rotate = {rotate} does not fit the landscape screens: use 0, "
                           f"or 2 for upside down.")
    if kind in REAL_KINDS:
        oled = Oled(lambda: _open_oled(kind, port, address, rotate, serial), contrast, port=port,
                    address=address, retry_from_start=keep_trying)
        if oled.fault and not keep_trying:
            oled.close()
            raise DisplayError(oled.fault)
        return oled
    if kind == "terminal":
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


def _open_oled(kind: str, port: int, address: int, rotate: int, serial=None):
    """A luma device on the panel and the wire it speaks through, or DisplayError saying
    what to fix."""
    try:
        from luma.core.interface.serial import i2c
        from luma.oled import device as oled
    except ImportError as exc:
        raise DisplayError(f"The OLED driver is not installed ({exc.name}): run `make run` again to install it.") from exc
    try:
        wire = SetupRecorder(serial or i2c(port=port, address=address))
    except Exception as exc:
        raise DisplayError(explain(exc, port, address)) from exc
    try:
        wire.probe()   # before luma's driver exists: each one registers an exit hook for good
        panel = getattr(oled, kind)(wire, width=WIDTH, height=HEIGHT, rotate=rotate)
    except Exception as exc:
        _quietly(wire.cleanup)   # a retry every few seconds must not leak an open bus each time
        raise DisplayError(explain(exc, port, address)) from exc
    wire.recording = False
    # luma switches the panel off from an exit hook unless `persist` is set: `tablemate
    # doctor` would then blank the running service's panel.  Oled.close() switches it off
    # when TableMate itself stops.
    panel.persist = True
    return panel, wire


NOP = 0xE3   # the same "no operation" command on the SSD1306 and the SH1106


class SetupRecorder:
    """luma's serial interface, keeping the commands the driver sends while it sets the
    panel up.  A panel that lost power is set up again by sending them anew, with the same
    driver: luma never removes the exit hook of a driver, so one per reconnect would pile up."""

    def __init__(self, serial):
        self._serial = serial
        self.recording = True
        self.setup: list[tuple[int, ...]] = []

    def probe(self) -> None:
        self._serial.command(NOP)

    def command(self, *cmd) -> None:
        if self.recording:
            self.setup.append(cmd)
        self._serial.command(*cmd)

    def data(self, data) -> None:
        self._serial.data(data)

    def set_up_again(self) -> None:
        for cmd in self.setup:
            self._serial.command(*cmd)

    def cleanup(self) -> None:
        self._serial.cleanup()


def explain(exc: Exception, port: int, address: int) -> str:
    """luma's and the bus's errors as one sentence saying what to do."""
    from luma.core.error import DeviceNotFoundError, DevicePermissionError
    bus = f"/dev/i2c-{port}"
    if isinstance(exc, DisplayError):
        return str(exc)
    if isinstance(exc, (DevicePermissionError, PermissionError)):
        return (f"No permission to open {bus}: add the user to the i2c group "
                f"(sudo usermod -aG i2c $USER) and log in again.")
    nothing_answers = (isinstance(exc, DeviceNotFoundError) and "address" in str(exc)
                       or isinstance(exc, OSError) and exc.errno in (errno.EIO, errno.EREMOTEIO))
    if nothing_answers:
        return (f"Nothing answers at I2C address {address:#04x} on {bus}: check the OLED's "
                f"wiring (SDA pin 3, SCL pin 5, 3.3V, GND) or set display.address to 0x3D; "
                f"`i2cdetect -y {port}` lists what answers.")
    if isinstance(exc, (DeviceNotFoundError, FileNotFoundError)):
        return f"{bus} is missing, so I2C is off: enable it with `sudo raspi-config nonint do_i2c 0` and reboot."
    if isinstance(exc, OSError):
        return f"The OLED on {bus} at {address:#04x} failed ({exc.strerror or exc}): check its wiring and power."
    return f"The OLED on {bus} at {address:#04x} failed ({type(exc).__name__}: {exc}): check its wiring and power."


def _log(text: str) -> None:
    print(f"tablemate: {text}", file=sys.stderr, flush=True)


def _every(delay: float, action) -> None:
    timer = threading.Timer(delay, action)
    timer.daemon = True
    timer.start()


class Oled:
    """The panel on the box, kept going through a loose wire.

    A failed frame never reaches the app loop: the adapter keeps the last frame, reports a
    plain sentence in `fault`, and tries the panel again every `retry_s` seconds (from a
    timer, so a screen that does not change still comes back); the panel is set up afresh,
    which switches it on, and the last frame is sent again.  `open_panel` returns a luma
    device and its SetupRecorder, or raises; `schedule(delay, action)` runs an action later
    (tests run it by hand)."""

    def __init__(self, open_panel, contrast: int, *, port: int = 1, address: int = 0x3C,
                 retry_from_start: bool = True, retry_s: float = RETRY_S, schedule=_every, log=_log):
        self._open, self._contrast, self._port, self._address = open_panel, contrast, port, address
        self._retry_s, self._schedule, self._log = retry_s, schedule, log
        self._lock = threading.Lock()
        self._panel = self._wire = None
        self._working = False
        self._closed = False
        self.image = None
        self.fault = ""
        self.width, self.height, self.mode = WIDTH, HEIGHT, "1"
        self.size = (WIDTH, HEIGHT)
        with self._lock:
            self._send(retry=retry_from_start, announce=False)  # the caller reports a start-up fault

    def display(self, image) -> None:
        with self._lock:
            self.image = image
            if self._working:
                self._send()

    def contrast(self, level: int) -> None:
        with self._lock:
            self._contrast = level
            if self._working:
                self._send(set_up=True)

    def retry(self) -> None:
        """Try the panel again after a fault; the timer calls this."""
        with self._lock:
            if not self._working and not self._closed:
                self._send()

    def _send(self, retry: bool = True, announce: bool = True, set_up: bool = False) -> None:
        """Set the panel up if it is new or was lost, then send the last frame."""
        try:
            if self._panel is None:
                self._panel, self._wire = self._open()
                set_up = True
            elif not self._working:
                self._wire.set_up_again()
                set_up = True
            if set_up:
                self._panel.contrast(self._contrast)
            if self.image is not None:
                self._panel.display(self.image)
        except Exception as exc:  # luma's errors are not OSErrors; a loose wire must not end the game
            self._lost(exc, retry, announce)
            return
        self._working = True
        if self.fault:
            self._log(f"The display at {self._address:#04x} on /dev/i2c-{self._port} answers again.")
            self.fault = ""

    def _lost(self, exc: Exception, retry: bool, announce: bool) -> None:
        self._working = False
        sentence = explain(exc, self._port, self._address)
        if announce and sentence != self.fault:
            self._log(f"Display: {sentence} Trying again every {self._retry_s:g} s; keys and sounds still work.")
        self.fault = sentence
        if retry:
            self._schedule(self._retry_s, self.retry)

    def close(self) -> None:
        """Clear the panel and switch it off (TableMate stops), then free the bus."""
        with self._lock:
            self._closed = True
            if self._panel is not None:
                _quietly(self._panel.clear)
                _quietly(self._panel.hide)
            self._free_bus()

    def release(self) -> None:
        """Free the bus and leave the panel as it is (`tablemate doctor`)."""
        with self._lock:
            self._closed = True
            self._free_bus()

    def _free_bus(self) -> None:
        if self._panel is not None:
            _quietly(self._panel.cleanup)   # persist is set: this only closes the bus
            self._panel = self._wire = None
            self._working = False


def _quietly(action) -> None:
    try:
        action()
    except Exception:
        pass


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
