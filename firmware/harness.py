"""TableMate on simulated hardware driven as a person would: press keys, let time pass,
look at the screen.  The tests, `tablemate screens` and `tablemate bench` all use it."""
from __future__ import annotations

from device import hardware
from device.keys import KeyPress
from firmware import config
from firmware.app import App


class FakeClock:
    """A clock that only moves when told: no test or render ever sleeps."""

    def __init__(self, start: float = 1_800_000_000.0):
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> float:
        self.now += seconds
        return self.now


class SimulatedBox:
    """The whole app with gpiozero MockFactory pins and luma's dummy display."""

    def __init__(self, clock=None, settings=None, camera: str = "none", wall=None):
        self.clock = clock or FakeClock()
        self.settings = settings or config.defaults()
        # slow work runs at once (deterministic), its result still arriving through the queue
        self.app = App(self.settings, clock=self.clock, wall=wall or self.clock, threaded_effects=False)
        self.hw = hardware.build(self.settings, self.app.queue.put, self.clock, mode="simulated",
                                 display="dummy", camera=camera)
        self.app.attach(self.hw)
        self.app.start()

    def press(self, *keys: str, settle: float = 0.05) -> None:
        """Press each key in turn ("K2", "K1-long"), letting the debounce window pass."""
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

    def close(self) -> None:
        self.app.close()
        self.hw.close()
