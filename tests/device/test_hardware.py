"""Choosing the parts on a real box: the pin factory the settings name, and a start under
systemd with no terminal to fall back on."""
import types

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from device import hardware
from firmware import config


def settings(**changes):
    values = config.defaults()
    values.update({k.replace("__", "."): v for k, v in changes.items()})
    return values


@pytest.fixture
def fake_lgpio(monkeypatch):
    """gpiozero's lgpio module as on a Pi, its factory backed by mock pins."""
    made = []

    class LGPIOFactory(MockFactory):
        def __init__(self):
            super().__init__(pin_class=MockPWMPin)
            made.append(self)
    module = types.ModuleType("gpiozero.pins.lgpio")
    module.LGPIOFactory = LGPIOFactory
    monkeypatch.setitem(__import__("sys").modules, "gpiozero.pins.lgpio", module)
    return made


def test_the_pin_factory_setting_reaches_every_gpio_device(fake_lgpio, clock):
    hw = hardware.build(settings(), lambda edge: None, clock, mode="real", display="dummy", camera="none")
    try:
        factory = fake_lgpio[0]
        assert hw.pin_factory is factory and hw.found["pins"] == "lgpio"
        assert all(b.pin_factory is factory for b in hw.keypad.buttons.values())
        assert hw.sounder.output.device.pin_factory is factory
        assert "pins: lgpio" in hw.describe()
    finally:
        hw.close()


def test_a_missing_pin_library_is_named_with_its_package_and_the_box_still_starts(clock):
    hw = hardware.build(settings(keys__pin_factory="rpigpio"), lambda edge: None, clock, mode="real",
                        display="dummy", camera="none")
    try:
        assert hw.keypad is None and hw.found["pins"] == "missing" and hw.found["buzzer"] == "none"
        assert hw.problems == ["Keys and buzzer: the rpigpio pin library is not installed (RPi): "
                               "`sudo apt install python3-rpi.gpio`, or set keys.pin_factory."]
    finally:
        hw.close()


def test_without_a_terminal_a_missing_oled_is_not_said_to_be_shown_in_the_terminal(clock, monkeypatch):
    monkeypatch.setattr("sys.stdout.isatty", lambda: False)
    hw = hardware.build(settings(display__port=19), lambda edge: None, clock, mode="simulated",
                        display="ssd1306", camera="none")
    try:
        (problem,) = hw.problems
        assert "this terminal" not in problem and "Trying again every 5 s" in problem
        assert hw.display.fault and "I2C is off" in hw.describe()[-1]
    finally:
        hw.close()
