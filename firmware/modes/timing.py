"""What every timed game shows and sounds: m:ss, a warning, ticks in the last seconds, time-up."""
from __future__ import annotations

import math

from firmware.actions import Cue


def mmss(seconds: float) -> str:
    whole = math.ceil(max(0.0, seconds))
    return f"{whole // 60}:{whole % 60:02d}"


class TimerCues:
    """Turns the seconds left into cues as they pass: `warning` when `warn_at` is crossed,
    a `tick` each second of the last `ticks_from`, and `time-up` at zero."""

    def __init__(self, warn_at: int | None = 30, ticks_from: int = 10):
        self.warn_at, self.ticks_from = warn_at, ticks_from
        self._shown: int | None = None

    def update(self, timer, now: float) -> list:
        if timer is None or not timer.running:
            self._shown = None
            return []
        second = math.ceil(timer.remaining(now))
        last, self._shown = self._shown, second
        if last is None or second >= last:
            return []
        if second == 0:
            return [Cue("time-up")]
        if second <= self.ticks_from:
            return [Cue("tick")]
        if self.warn_at is not None and last > self.warn_at >= second:
            return [Cue("warning")]
        return []
