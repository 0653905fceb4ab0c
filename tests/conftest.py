"""Shared fixtures: a fake clock, a private state folder, and the whole app on simulated
hardware (gpiozero MockFactory pins, luma's dummy display)."""
from __future__ import annotations

import pytest

from device import hardware
from firmware import config
from firmware.app import App


class FakeClock:
    def __init__(self, start: float = 1_800_000_000.0):
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> float:
        self.now += seconds
        return self.now


@pytest.fixture(autouse=True)
def state_home(tmp_path, monkeypatch):
    """Every test gets its own state folder: journals never leak between tests."""
    home = tmp_path / "state"
    monkeypatch.setenv("TABLEMATE_HOME", str(home))
    home.mkdir()
    return home


@pytest.fixture
def clock():
    return FakeClock()


class Box:
    """The app on simulated hardware, driven as a person would: press, let time pass, look."""

    def __init__(self, clock, settings=None):
        self.clock = clock
        self.settings = settings or config.defaults()
        self.app = App(self.settings, clock=clock)
        self.hw = hardware.build(self.settings, self.app.queue.put, clock, mode="simulated",
                                 display="dummy", camera="none")
        self.app.attach(self.hw)
        self.app.start()

    def press(self, *keys: str, settle: float = 0.05) -> None:
        from device.keys import KeyPress
        for key in keys:
            press = KeyPress.parse(key)
            self.app.press(press, self.clock())
            if press.long:
                self.clock.advance(self.app.gestures.long_s + 0.01)
                self.app.step()
            self.clock.advance(settle)
            self.app.step()
            self.clock.advance(0.1)
            self.app.step()

    def wait(self, seconds: float, step: float = 0.25) -> None:
        end = self.clock() + seconds
        while self.clock() < end:
            self.clock.advance(min(step, end - self.clock()))
            self.app.step()

    @property
    def frame(self):
        return self.hw.display.image

    @property
    def mode(self):
        return self.app.mode

    def close(self):
        self.hw.close()


@pytest.fixture
def box(clock):
    b = Box(clock)
    yield b
    b.close()
