"""Stand-ins for the parts of a Raspberry Pi that a PC does not have, each behaving as the
real library or driver does: an I2C bus under luma's own i2c interface, a V4L2 webcam as
OpenCV serves it, and the picamera2 module."""
from __future__ import annotations

import errno
import math
import sys
import types

import numpy as np

DISPLAY_OFF, DISPLAY_ON = 0xAE, 0xAF
COMMAND, DATA = 0x00, 0x40   # the SSD1306's control bytes on I2C


class FakeBus:
    """An smbus2.SMBus look-alike that records every block luma writes.  With `unplugged`
    set it fails as a loose wire does: errno 121, Remote I/O error."""

    def __init__(self):
        self.writes: list[tuple[int, list[int]]] = []
        self.unplugged = False

    def write_i2c_block_data(self, address, register, data):
        if self.unplugged:
            raise OSError(errno.EREMOTEIO, "Remote I/O error")
        self.writes.append((register, list(data)))

    def close(self):
        pass

    def commands(self) -> list[int]:
        return [b for register, block in self.writes if register == COMMAND for b in block]

    def data(self) -> bytes:
        return bytes(b for register, block in self.writes if register == DATA for b in block)

    def forget(self) -> None:
        self.writes.clear()


def luma_serial(bus: FakeBus, address: int = 0x3C):
    """luma's real I2C interface, writing on the fake bus."""
    from luma.core.interface.serial import i2c
    return i2c(bus=bus, address=address)


class FakeV4L2:
    """A webcam as OpenCV's V4L2 backend serves it.  The sensor makes a frame every 1/fps s;
    the driver queues the first `buffers` frames made after the last dequeue and drops the
    newer ones (it ignores a smaller CAP_PROP_BUFFERSIZE, as many drivers do).  `grab()`
    dequeues the oldest queued frame, or waits (moves the clock) for the next one.  Each
    frame is a 1x1 picture holding its own number; frame k is made at k/fps."""

    def __init__(self, clock, fps: float = 30.0, buffers: int = 4,
                 sizes: tuple[tuple[int, int], ...] = ((640, 480), (1280, 720), (1920, 1080))):
        self.clock, self.fps, self.buffers = clock, fps, buffers
        self.queue: list[int] = []
        self.seen = math.floor(clock() * fps)   # the newest frame the driver has looked at
        self.held = None
        self.released = False
        self.sizes, self.size, self.fourcc = sizes, sizes[0], None    # it opens at its first size
        self.asked = list(self.size)

    def isOpened(self):
        return True

    def set(self, prop, value):
        """The picture's size is the nearest the camera has to the width and height asked."""
        import cv2
        if prop == cv2.CAP_PROP_FOURCC:
            self.fourcc = int(value)
        elif prop in (cv2.CAP_PROP_FRAME_WIDTH, cv2.CAP_PROP_FRAME_HEIGHT):
            self.asked[prop == cv2.CAP_PROP_FRAME_HEIGHT] = int(value)
            self.size = min(self.sizes, key=lambda s: abs(s[0] - self.asked[0]) + abs(s[1] - self.asked[1]))
        return True

    def get(self, prop):
        import cv2
        return {cv2.CAP_PROP_FPS: self.fps, cv2.CAP_PROP_FRAME_WIDTH: self.size[0],
                cv2.CAP_PROP_FRAME_HEIGHT: self.size[1]}.get(prop, 0.0)

    def _fill(self):
        newest = math.floor(self.clock() * self.fps + 1e-9)
        for k in range(self.seen + 1, newest + 1):
            if len(self.queue) < self.buffers:
                self.queue.append(k)
        self.seen = max(self.seen, newest)

    def grab(self):
        self._fill()
        if not self.queue:
            self.clock.now = (self.seen + 1) / self.fps   # wait for the sensor
            self._fill()
        self.held = self.queue.pop(0)
        return True

    def retrieve(self):
        return True, np.array([[[self.held]]], dtype=np.int64)

    def read(self):
        self.grab()
        return self.retrieve()

    def release(self):
        self.released = True


def fake_picamera2(error: BaseException | None):
    """A `picamera2` module whose Picamera2() raises `error` (or works, taking black frames)."""
    module = types.ModuleType("picamera2")

    class Picamera2:
        closed = 0

        def __init__(self):
            if error is not None:
                raise error

        def create_still_configuration(self, main):
            return {"main": main}

        def configure(self, config):
            self.config = config

        def start(self):
            pass

        def autofocus_cycle(self):
            raise RuntimeError("this camera has no autofocus")

        def capture_array(self, name):
            return np.zeros((48, 64, 3), np.uint8)

        def close(self):
            Picamera2.closed += 1

    module.Picamera2 = Picamera2
    return module


def install(monkeypatch, module) -> None:
    monkeypatch.setitem(sys.modules, module.__name__, module)
