"""The OLED on the box, driven by the real luma.oled driver over a fake I2C bus that records
every byte (and can be unplugged)."""
import subprocess
import sys
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin
from PIL import Image, ImageDraw

from device import display as display_port
from device.buzzer import Sounder, TonalOutput
from device.errors import DisplayError
from device.hardware import Hardware
from device.keys import Keypad
from firmware import config
from pi_fakes import DISPLAY_OFF, DISPLAY_ON, FakeBus, luma_serial

ROOT = Path(__file__).resolve().parents[2]


def picture(text="K2") -> Image.Image:
    image = Image.new("1", (128, 64))
    ImageDraw.Draw(image).text((10, 10), text, fill=1)
    return image


class Later:
    """The retry timer, run by hand."""

    def __init__(self):
        self.pending = []

    def __call__(self, delay, action):
        self.pending.append((delay, action))

    def run(self):
        due, self.pending = self.pending, []
        for _, action in due:
            action()


def oled_on(bus, later=None, log=None, drivers=None):
    """The adapter on a fake bus; `drivers` collects each luma driver made."""
    def open_panel():
        panel, wire = display_port._open_oled("ssd1306", 1, 0x3C, 0, luma_serial(bus))
        (drivers if drivers is not None else []).append(panel)
        return panel, wire
    return display_port.Oled(open_panel, 200, schedule=Later() if later is None else later,
                             log=[].append if log is None else log.append)


def test_the_exit_hook_of_luma_leaves_the_panel_on():
    """luma switches the panel off from an exit hook; `tablemate doctor` exiting would so
    blank the running service's panel.  The hook (registered first, so it runs last) prints
    what was sent after the panel was switched on."""
    script = """
import atexit
from pi_fakes import FakeBus, luma_serial, DISPLAY_ON
bus = FakeBus()
atexit.register(lambda: print(bus.commands()[bus.commands().index(DISPLAY_ON):]))
from device.display import open_display
open_display("ssd1306", serial=luma_serial(bus))
"""
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT,
                            env={"PYTHONPATH": f"{ROOT}:{ROOT / 'tests'}"})
    assert result.returncode == 0, result.stderr
    after_on = eval(result.stdout)
    assert after_on[0] == DISPLAY_ON and DISPLAY_OFF not in after_on


def test_a_quarter_turn_is_refused_in_a_sentence_not_an_assertion():
    for rotate in (1, 3):
        with pytest.raises(DisplayError, match="landscape.*use 0, or 2"):
            display_port.open_display("ssd1306", rotate=rotate, serial=luma_serial(FakeBus()))
    upside_down = display_port.open_display("ssd1306", rotate=2, serial=luma_serial(FakeBus()))
    upside_down.display(picture())
    assert upside_down.fault == ""


def test_the_settings_offer_only_the_rotations_that_fit(tmp_path):
    assert config.BY_KEY["display.rotate"].choices == display_port.ROTATIONS
    cfg = tmp_path / "c.toml"
    cfg.write_text("[display]\nrotate = 1\n")
    values, problems = config.load(cfg)
    assert values["display.rotate"] == 0 and "display.rotate = 1" in problems[0]


def test_a_loose_wire_mid_game_keeps_the_frame_and_the_panel_comes_back():
    bus, later, log, drivers = FakeBus(), Later(), [], []
    oled = oled_on(bus, later, log, drivers)
    oled.display(picture("before"))
    bus.unplugged = True
    oled.display(picture("during"))             # luma raises; nothing reaches the caller
    assert "Nothing answers at I2C address 0x3c" in oled.fault and len(log) == 1
    assert oled.image.tobytes() == picture("during").tobytes()
    oled.display(picture("still during"))        # no new attempt, no new log line
    later.run()                                  # the retry fails too: tried again later
    assert oled.fault and len(log) == 1 and len(later.pending) == 1
    bus.unplugged = False
    bus.forget()
    later.run()
    assert oled.fault == "" and "answers again" in log[-1] and not later.pending
    # the panel was set up afresh (its init switches it on) and shows the last frame
    assert DISPLAY_ON in bus.commands()
    fresh = FakeBus()
    oled_on(fresh).display(picture("still during"))
    assert bus.data()[-1024:] == fresh.data()[-1024:]
    assert bus.commands() == fresh.commands()[1:]     # the same set-up as a new panel gets, but its probe
    # the same luma driver throughout: each new one would leave an exit hook behind for good
    assert len(drivers) == 1


def test_a_panel_that_answers_late_at_boot_comes_on_by_itself():
    bus, later, drivers = FakeBus(), Later(), []
    bus.unplugged = True
    oled = oled_on(bus, later, drivers=drivers)
    later.run()
    assert oled.fault and later.pending and drivers == []    # no driver made while nothing answers
    oled.display(picture())
    bus.unplugged = False
    later.run()
    assert oled.fault == "" and DISPLAY_ON in bus.commands() and len(bus.data()) >= 1024
    bus.unplugged = True
    with pytest.raises(DisplayError, match="Nothing answers"):   # without keep_trying: said at once
        display_port.open_display("ssd1306", serial=luma_serial(bus))


def test_the_game_goes_on_with_sounds_when_the_panel_fails(box):
    bus = FakeBus()
    box.hw.display = oled_on(bus)
    bus.unplugged = True
    box.press("K3", "K3")                        # the first game's set-up, then start it
    box.wait(1.0)
    assert type(box.mode).__name__ == "PlayScreen" and box.hw.sounder.last_cue == "start"
    assert box.hw.describe()[-1].startswith("display fault: Nothing answers")


def test_closing_clears_and_switches_off_the_panel_and_frees_the_pins(clock):
    bus = FakeBus()
    factory = MockFactory(pin_class=MockPWMPin)
    keypad = Keypad({"K1": 5, "K2": 6, "K3": 13, "K4": 19}, lambda edge: None, clock, pin_factory=factory)
    buzzer = TonalOutput(18, pin_factory=factory)
    oled = oled_on(bus)
    oled.display(picture())
    bus.forget()
    Hardware(False, oled, Sounder(buzzer), keypad, None, factory).close()
    assert bus.data() == bytes(1024) and bus.commands()[-1] == DISPLAY_OFF
    assert all(button.closed for button in keypad.buttons.values()) and buzzer.device.closed
