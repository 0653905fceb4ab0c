"""Shared fixtures: a fake clock, a private state folder, and the whole app on simulated
hardware (gpiozero MockFactory pins, luma's dummy display)."""
from __future__ import annotations

import pytest
from hypothesis import settings

# The same examples on every run: a property test that fails once fails every time.
settings.register_profile("tablemate", derandomize=True)
settings.load_profile("tablemate")

from firmware.harness import FakeClock, SimulatedBox


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


Box = SimulatedBox


@pytest.fixture
def box(clock):
    b = Box(clock)
    yield b
    b.close()
