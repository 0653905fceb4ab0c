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
    field = box.mode.shown()[box.mode.cursor]
    while field.value != "Type...":
        box.press("K2")
    entry = box.mode
    box.press(*["K2"] * ("ABCDEFGHIJKLMNOPQRSTUVWXYZ".index("W") - entry.letter))
    box.press(*["K3"] * 9, *["K1"] * last, "K3", "K4")


def start_with_wide_names(box, game: str, extra=()) -> None:
    box.press(*["K2"] * MENU_POSITION[game], "K3")
    box.press(*extra)
    form = box.mode
    for i, field in enumerate(form.shown()):
        if field.names:
            while form.cursor != i:
                box.press("K1")
            type_name(box, last=i)
    box.press("K3")
    assert type(box.mode).__name__ == "PlayScreen", box.app.log[-3:]


def walk(box, steps: int, seed: int, found: dict, waits=(0.0, 0.0, 0.0, 0.0, 3.0, 31.0, 70.0)) -> None:
    """Random keys and waits; also checks that a key whose label is empty (it means
    nothing now) is answered with the low beep and a note, never silently."""
    rng = random.Random(seed)
    for _ in range(steps):
        key = rng.choice(KEYS)
        blank = "-" not in key and box.mode.softkeys(box.clock())[int(key[1]) - 1] == ""
        screen, notes = where(box), len(box.app.log)
        box.press(key)
        if blank and len(box.app.log) == notes:
            found.setdefault(f"{key} has no label but did not say why", screen)
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
    walk(box, 300, seed=len(game) + len(extra), found=found)
    box.close()
    assert not found, report(found)


def test_the_menus_and_settings_fit(clock):
    box = Box(clock)
    found: dict = {}
    walk(box, 300, seed=3, found=found, waits=(0.0, 0.0, 3.0))
    box.close()
    assert not found, report(found)


# --- every view of every state a game can reach, from seeded random play --------------
NAMES = ["Wwwwwwwwww", "Wwwwwwwwwv", "Wwwwwwwwwu", "Wwwwwwwwwt", "Wwwwwwwwws", "Wwwwwwwwwr"]


def random_event(game: str, rng: random.Random, at: float) -> dict:
    """One thing the players might do, right or wrong (the rules refuse what does not fit)."""
    if game == "password":
        return rng.choice([{"kind": "missed"}, {"kind": "guessed", "who": rng.choice(["R1", "R2", "both"])},
                           {"kind": "guessed"}, {"kind": "form", "who": rng.choice(["R1", "R2"])},
                           {"kind": "challenge", "one_word": rng.random() < 0.5}])
    if game == "taboo":
        return rng.choice([{"kind": "start"}, {"kind": "correct"}, {"kind": "correct"}, {"kind": "pass"},
                           {"kind": "buzz"}, {"kind": "end_round"}, {"kind": "end_round"}, {"kind": "refuse"},
                           {"kind": "overtime"}, {"kind": "co_winners"}, {"kind": "pause"}]) | {"at": at}
    if game == "perquackey":
        counts = {str(n): rng.choice([0, 1, 5]) for n in range(3, 11) if rng.random() < 0.4}
        return rng.choice([{"kind": "start", "at": at}, {"kind": "score", "counts": counts},
                           {"kind": "score", "counts": {}}, {"kind": "illegal", "side": 0},
                           {"kind": "pause", "at": at}])
    return rng.choice([{"kind": "roll", "dice": [rng.randint(1, 6), rng.randint(1, 6)]},
                       {"kind": "roll", "dice": [rng.randint(1, 3)] * 2},
                       {"kind": "reroll", "dice": [rng.randint(1, 6), rng.randint(1, 6)]},
                       {"kind": "choose", "action": rng.randint(1, 6)}, {"kind": "question"},
                       {"kind": "guess", "player": rng.randint(0, 1), "correct": rng.random() < 0.4,
                        "length": rng.randint(3, 8)}, {"kind": "end_round"}])


def game_settings(game: str, variant: int) -> dict:
    if game == "password":
        roles = ("A1", "B1", "A2", "B2") if variant % 2 else ("G", "R1", "R2")
        return {"players": len(roles), "names": dict(zip(roles, NAMES))}
    if game == "perquackey":
        return {"names": NAMES[:1 + variant % 6], "partners": variant % 2 == 1}
    if game == "taboo":
        return {"names": NAMES[:3], "skunk_rule": variant % 2 == 1}
    return {"names": NAMES[:2]}


@pytest.mark.parametrize("game", list(MENU_POSITION))
def test_every_view_of_every_state_fits(game):
    from firmware.modes import menu
    from firmware.session import Session
    found: dict = {}
    for variant in range(4):
        rng = random.Random(variant)
        session = Session.new(game, game_settings(game, variant), wall=1_800_000_000.0)
        screen = menu.play_screen(session)
        at = 1000.0
        for _ in range(400):
            at += rng.choice([1.0, 30.0, 200.0])
            try:
                session.submit(random_event(game, rng, at))
            except Exception as exc:   # a refusal: the rules said no, nothing changed
                assert type(exc).__name__ == "RuleError", exc
                continue
            for view in screen.views:
                screen.view = view
                p = Painter()
                screen.draw(p, at + 0.5)
                p.softkeys(screen.softkeys(at + 0.5))
                for problem in p.problems:
                    found.setdefault(problem, f"{game} {view} after {session.journal.events[-1]}")
            if session.outcome is not None:
                break
        screen.view = screen.home_view
    assert not found, report(found)


def test_a_long_message_scrolls_and_a_long_name_is_shortened_not_cut():
    from device.keys import KeyPress
    from firmware.actions import Home
    from firmware.modes.base import MessageScreen
    text = "Something went wrong: " + "the camera answered with nonsense " * 4 + "Your game is saved."
    screen = MessageScreen("Sorry", text, [Home()], "Menu")
    p = Painter()
    screen.draw(p, 0.0)
    p.softkeys(screen.softkeys(0.0))
    assert p.problems == [] and screen.softkeys(0.0)[:2] == ("Up", "Down")
    first = [placed.text for placed in p.placed]
    assert screen.on_key(KeyPress("K2"), 0.0) == []
    p = Painter()
    screen.draw(p, 0.0)
    assert [placed.text for placed in p.placed] != first and p.problems == []
    assert Painter().shorten("Christopher", 30) == "Christo." and Painter().shorten("Al", 30) == "Al"
