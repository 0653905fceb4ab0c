"""Set-up forms show only the lines that apply, remember the last game's names and
choices, and the name entry never traps the players."""
from device.keys import KeyPress
from firmware import config
from firmware.actions import Back, Go, RememberSetup, StartGame
from firmware.modes import menu
from firmware.modes.setup import NameEntry, recall, setup_file
from tests.conftest import Box

K1, K2, K3, K4 = (KeyPress(k) for k in ("K1", "K2", "K3", "K4"))
NOW = 100.0


def labels(form):
    return [f.label for f in form.shown()]


def test_three_player_password_asks_for_the_giver_and_two_receivers():
    form = menu.setup_screen("password", config.defaults())
    assert labels(form) == ["Players", "Team 1 A", "Team 1 B", "Team 2 A", "Team 2 B", "First clue"]
    form.on_key(K2, NOW)                                   # Players: 3
    assert labels(form) == ["Players", "Giver", "Receiver 1", "Receiver 2"]
    remember, start = form.on_key(K3, NOW)
    assert isinstance(remember, RememberSetup)
    assert start == StartGame("password", {"players": 3, "names": {"G": "Alice", "R1": "Bob", "R2": "Chris"}})


def test_perquackey_lists_as_many_names_as_players():
    form = menu.setup_screen("perquackey", config.defaults())
    assert [label for label in labels(form) if label.startswith("Player ")] == ["Player 1", "Player 2"]
    form.on_key(K2, NOW)                                   # 3 players
    assert [label for label in labels(form) if label.startswith("Player ")] == ["Player 1", "Player 2",
                                                                                "Player 3"]
    for _ in range(4):                                     # round to solo: no partners, nobody to choose
        form.on_key(K2, NOW)
    assert form.fields[0].value == "1 (solo)"
    assert "Partners" not in labels(form) and "Starts" not in labels(form) and "Player 2" not in labels(form)


def test_perquackey_offers_only_the_players_chosen_to_start():
    form = menu.setup_screen("perquackey", config.defaults())      # 2 players
    starts = next(f for f in form.fields if f.label == "Starts")
    form.cursor = labels(form).index("Starts")
    seen = set()
    for _ in range(4):
        form.on_key(K2, NOW)
        seen.add(starts.value)
    assert seen == {"Player 1", "Player 2"}
    form.cursor = 0
    for _ in range(2):
        form.on_key(K2, NOW)                                       # 4 players
    form.cursor = labels(form).index("Starts")
    for _ in range(3):
        form.on_key(K2, NOW)
    assert starts.value == "Player 4"
    form.cursor = 0
    for _ in range(4):
        form.on_key(K2, NOW)                                       # round to 2 players again
    assert form.fields[0].value == 2 and starts.value == "Player 1"


def test_the_name_entry_goes_back_to_the_presets():
    form = menu.setup_screen("taboo", config.defaults())
    field = form.shown()[0]
    while field.value != "Type...":
        actions = form.on_key(K2, NOW)
    [go] = actions
    entry = go.screen
    assert isinstance(entry, NameEntry) and entry.softkeys(NOW)[3] == "Back"
    entry.on_key(K3, NOW)                                  # an "A" typed, then a change of mind
    assert entry.softkeys(NOW)[3] == "Done"
    assert entry.on_key(KeyPress("K4", long=True), NOW) == [Back()]
    assert field.value == "Jake"                           # the last preset, as before "Type..."
    form.on_key(K2, NOW)                                   # on round: the presets again
    form.on_key(K2, NOW)
    assert field.value == "Alice"


def test_the_last_names_and_choices_come_back_for_the_next_game(box):
    box.press("K2", "K2", "K3")                            # Taboo's form
    box.press("K2", "K2", "K2")                            # Player 1: Dana
    box.press("K1", "K1", "K1", "K1", "K2")                # the Skunk rule changed
    chosen = box.mode.values()
    box.press("K3")                                        # start
    assert recall("taboo")["Player 1"] == "Dana" and setup_file().exists()
    box.press("K4-long")                                   # to the menu
    box.press("K2", "K2", "K2", "K3", "K2", "K3")          # Taboo again: set the game aside
    form = box.mode
    assert type(form).__name__ == "FormScreen" and form.values() == chosen


def test_a_damaged_memory_of_the_last_game_starts_from_the_presets():
    setup_file().parent.mkdir(parents=True, exist_ok=True)
    setup_file().write_text("{not json", encoding="utf-8")
    form = menu.setup_screen("cryptic", config.defaults())
    assert form.values()["Player 1"] == "Alice"
