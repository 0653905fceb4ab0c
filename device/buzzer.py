"""The buzzer: short, distinct cues played note by note from the app loop's tick, so
nothing ever sleeps.  On the box a gpiozero TonalBuzzer (passive) or Buzzer (active);
simulated, the cue's name shows on the status line."""
from __future__ import annotations

# name -> notes of (frequency in Hz, or None for a rest; seconds)
CUES: dict[str, tuple[tuple[float | None, float], ...]] = {
    "click": ((1760, 0.02),),
    "start": ((880, 0.08), (1320, 0.12)),
    "warning": ((1320, 0.10), (None, 0.08), (1320, 0.10)),
    "tick": ((1760, 0.04),),
    "time-up": ((440, 0.30), (None, 0.10), (440, 0.30), (None, 0.10), (330, 0.70)),
    "error": ((220, 0.18),),
    "score": ((1320, 0.06), (1760, 0.10)),
    "roll": ((660, 0.03), (None, 0.03), (880, 0.03), (None, 0.03), (1100, 0.05)),
    "win": ((880, 0.12), (1100, 0.12), (1320, 0.12), (1760, 0.30)),
}


class Sounder:
    """Plays one cue at a time on `output` (an object with tone(freq) and silence())."""

    def __init__(self, output, enabled: bool = True):
        self.output = output
        self.enabled = enabled
        self._notes: list[tuple[float | None, float]] = []
        self._note_ends = 0.0
        self.last_cue = ""

    def play(self, cue: str, now: float) -> None:
        if cue not in CUES:
            raise KeyError(f"no cue named {cue!r}")
        self.last_cue = cue
        if not self.enabled:
            return
        self._notes = list(CUES[cue])
        self._note_ends = now
        self.tick(now)

    def tick(self, now: float) -> None:
        if now < self._note_ends:
            return
        if not self._notes:
            if self._note_ends:
                self.output.silence()
                self._note_ends = 0.0
            return
        freq, seconds = self._notes.pop(0)
        if freq is None:
            self.output.silence()
        else:
            self.output.tone(freq)
        self._note_ends = now + seconds

    @property
    def busy(self) -> bool:
        return bool(self._notes) or bool(self._note_ends)


class TonalOutput:
    """A passive buzzer (gpiozero TonalBuzzer) on any free pin: lgpio and RPi.GPIO time the
    tone in software, so no hardware PWM pin is needed."""

    def __init__(self, pin: int, pin_factory=None):
        from gpiozero import TonalBuzzer
        from gpiozero.tones import Tone
        self._tone = Tone
        self.device = TonalBuzzer(pin, mid_tone=Tone(880.0), octaves=2, pin_factory=pin_factory)

    def tone(self, freq: float) -> None:
        low, high = self.device.min_tone.frequency, self.device.max_tone.frequency
        self.device.play(self._tone(min(max(freq, low), high)))

    def silence(self) -> None:
        self.device.stop()

    def close(self) -> None:
        self.device.close()


class ActiveOutput:
    """An active buzzer (one fixed pitch): on for a note, off for a rest."""

    def __init__(self, pin: int, pin_factory=None):
        from gpiozero import Buzzer
        self.device = Buzzer(pin, pin_factory=pin_factory)

    def tone(self, freq: float) -> None:
        self.device.on()

    def silence(self) -> None:
        self.device.off()

    def close(self) -> None:
        self.device.close()
