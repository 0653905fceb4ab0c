"""No text is ever cut off or drawn over other text: the Painter's own check, and walks
through every screen the keys reach in each game, with the widest names the keys can type."""
import random

import pytest

from firmware.modes import cryptic as cryptic_mode
from firmware.screen import Painter
from tests.conftest import Box

MENU_POSITION = {"password": 0, "perquackey": 1, "taboo": 2, "cryptic": 3}
KEYS = ["K1", "K2", "K3", "K4", "K1", "K2", "K3", "K1-long", "K2-long", "K3-long", "K4-long"]
WIDE = "Wwwwwwwwww"          # the widest name the name entry can spell (10 letters)


@pytest.fixture(autouse=True)
def seeded_dice(monkeypatch):
    monkeypatch.setattr(cryptic_mode.PlayScreen, "rng", random.Random(7))


def problems_now(box, where: str, found: dict) -> None:
    painter = box.app.paint(box.clock())
    for problem in painter.problems:
        found.setdefault(problem, where)


def where(box) -> str:
    mode = box.mode
    return f"{type(mode).__name__}:{getattr(mode, 'view', '')}"


def type_name(box, last: int = 0) -> None:
    """On a form line with names: choose "Type..." and spell a 10-letter name of Ws, its
    last letter `last` letters before W (so that every player's name differs)."""
    field = box.mode.fields[box.mode.cursor]
    while field.value != "Type...":
        box.press("K2")
    entry = box.mode
    box.press(*["K2"] * ("ABCDEFGHIJKLMNOPQRSTUVWXYZ".index("W") - entry.letter))
    box.press(*["K3"] * 9, *["K1"] * last, "K3", "K4")


def start_with_wide_names(box, game: str, extra=()) -> None:
    box.press(*["K2"] * MENU_POSITION[game], "K3")
    box.press(*extra)
    form = box.mode
    for i, field in enumerate(form.fields):
        if field.names:
            while form.cursor != i:
                box.press("K1")
            type_name(box, last=i)
    box.press("K3")
    assert type(box.mode).__name__ == "PlayScreen", box.app.log[-3:]


def walk(box, steps: int, seed: int, found: dict, waits=(0.0, 0.0, 0.0, 0.0, 3.0, 31.0, 70.0)) -> None:
    rng = random.Random(seed)
    for _ in range(steps):
        box.press(rng.choice(KEYS))
        problems_now(box, where(box), found)
        wait = rng.choice(waits)
        if wait:
            box.wait(wait, step=1.0)
            problems_now(box, where(box), found)


def report(found: dict) -> str:
    return "\n".join(f"{screen}: {problem}" for problem, screen in sorted(found.items(), key=lambda kv: kv[1]))


def test_the_painter_finds_text_past_the_panel_and_text_over_text():
    p = Painter()
    p.text((100, 20), "far too long", 10)
    assert p.problems and "runs past" in p.problems[0]
    p = Painter()
    p.text((2, 20), "one", 10)
    p.text((8, 22), "two", 10)
    assert p.problems == ["'two' is drawn over 'one'"]
    p = Painter()
    p.centre("a label much wider than a key", 54, 9, 1, 32)
    assert p.problems


def test_a_note_never_hides_the_timer_and_shows_a_long_text_a_line_at_a_time():
    p = Painter()
    p.title("Round 1/12")
    p.big("1:00", y=11, size=28)
    p.note("Hold K1: undo, K2: scores, K3: end the round, K4: menu.", shown_for=0.0)
    assert p.problems == []
    first = p.image.crop((0, 0, 128, 11)).tobytes()
    later = Painter()
    later.note("Hold K1: undo, K2: scores, K3: end the round, K4: menu.", shown_for=2.0)
    assert later.image.crop((0, 0, 128, 11)).tobytes() != first


@pytest.mark.parametrize("game, extra", [("password", ()), ("password", ("K2",)), ("perquackey", ()),
                                         ("perquackey", ("K2", "K2", "K2", "K2")), ("taboo", ()),
                                         ("cryptic", ())])
def test_every_screen_of_a_game_fits_with_the_widest_names(clock, game, extra):
    box = Box(clock)
    found: dict = {}
    start_with_wide_names(box, game, extra)
    walk(box, 500, seed=len(game) + len(extra), found=found)
    box.close()
    assert not found, report(found)


def test_the_menus_and_settings_fit(clock):
    box = Box(clock)
    found: dict = {}
    walk(box, 300, seed=3, found=found, waits=(0.0, 0.0, 3.0))
    box.close()
    assert not found, report(found)
