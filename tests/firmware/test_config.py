import tomllib

import pytest

from firmware import config
from firmware.games import GAME_NAMES, rules


def test_the_documented_defaults_read_back_as_the_defaults(tmp_path):
    text = config.to_toml(config.defaults())
    assert config.validate(tomllib.loads(text)) == (config.defaults(), [])
    for s in config.SETTINGS:
        assert s.doc in text


@pytest.mark.parametrize("toml, words", [
    ("[display]\ncontrast = 'bright'\n", ["display.contrast", "'bright'", "int", "Using 200"]),
    ("[display]\nkind = 'crt'\n", ["display.kind", '"crt"', "choose one of", 'Using "auto"']),
    ("[keys]\nk1_pin = 99\n", ["keys.k1_pin", "99", "0 to 27", "Using 5"]),
    ("[display]\nsize = 3\n", ["display.size", "not a TableMate setting", "ignored"]),
])
def test_bad_values_are_named_and_fall_back_alone(toml, words):
    values, problems = config.validate(tomllib.loads(toml))
    assert values == config.defaults() and len(problems) == 1
    for w in words:
        assert w in problems[0]


def test_one_bad_setting_costs_only_that_setting(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text('[perquackey]\ntimer_s = "abc"\nwinning_score = 3000\n[taboo]\nskunk_rule = true\n')
    values, problems = config.load(path)
    assert values["perquackey.timer_s"] == 180
    assert values["perquackey.winning_score"] == 3000 and values["taboo.skunk_rule"] is True
    assert len(problems) == 1 and "perquackey.timer_s = 'abc'" in problems[0] and str(path) in problems[0]


@pytest.mark.parametrize("toml, hint", [
    ("timer_s = 90\n[display]\ncontrast = 100\n", "put timer_s under [perquackey]"),
    ("k1_pin = 6\n", "put k1_pin under [keys]"),
    ("skunk_rule = true\n", "put skunk_rule under [taboo]"),
])
def test_a_key_outside_any_section_is_told_its_section(toml, hint):
    values, problems = config.validate(tomllib.loads(toml))
    assert len(problems) == 1 and hint in problems[0] and "e.g. [" not in problems[0]
    assert values["display.contrast"] == (100 if "contrast" in toml else 200)


def test_an_unknown_key_outside_any_section_is_named():
    values, problems = config.validate(tomllib.loads("colour = 'red'\n"))
    assert values == config.defaults() and "colour is not a TableMate setting" in problems[0]


def test_a_pin_used_twice_names_the_conflict_and_falls_back():
    values, problems = config.validate(tomllib.loads("[keys]\nk1_pin = 6\n"))   # K2 is 6 by default
    assert values["keys.k1_pin"] == 5 and values["keys.k2_pin"] == 6
    assert len(problems) == 1 and "keys.k1_pin = 6" in problems[0] and "K2 (keys.k2_pin)" in problems[0]
    assert "gpio group" not in problems[0].lower()
    values, problems = config.validate(tomllib.loads("[keys]\nk1_pin = 6\nk2_pin = 6\n"))
    assert (values["keys.k1_pin"], values["keys.k2_pin"]) == (5, 6) and len(problems) == 1
    values, problems = config.validate(tomllib.loads("[sound]\npin = 13\n"))             # K3's pin
    assert values["sound.pin"] == 18 and "K3" in problems[0] and "Using 18 for the buzzer" in problems[0]
    values, problems = config.validate(tomllib.loads("[sound]\npin = 13\nbuzzer = 'none'\n"))
    assert values["sound.pin"] == 13 and problems == []                               # no buzzer, no clash
    values, problems = config.validate(tomllib.loads("[keys]\nk1_pin = 6\nk2_pin = 5\n"))  # a swap is fine
    assert (values["keys.k1_pin"], values["keys.k2_pin"]) == (6, 5) and problems == []


def test_a_broken_file_falls_back_to_defaults_with_a_message(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text("[display\n")
    values, problems = config.load(path)
    assert values == config.defaults() and "not valid TOML" in problems[0]
    assert config.load(tmp_path / "missing.toml") == (config.defaults(), [])


def test_save_writes_only_changes_and_loads_back(tmp_path):
    values = config.defaults()
    values["sound.enabled"] = False
    values["display.address"] = 0x3D
    path = tmp_path / "c.toml"
    config.save(path, values)
    text = path.read_text()
    assert "enabled = false" in text and "address = 0x3d" in text and "contrast" not in text
    assert config.load(path) == (values, [])


FAMILY_FILE = """# the Smiths' box
[perquackey]
timer_s = "abc"      # to fix later
winning_score = 3000 # short evenings

[display]
rotate = 2
"""


def test_saving_keeps_the_files_other_keys_comments_and_bad_values(tmp_path):
    # a change in Settings after a bad value once erased the whole file but the changed key
    path = tmp_path / "c.toml"
    path.write_text(FAMILY_FILE)
    values, _ = config.load(path)
    values["display.contrast"] = 100
    values["taboo.skunk_rule"] = True
    config.save(path, values)
    text = path.read_text()
    assert text.startswith(FAMILY_FILE.rstrip("\n")) and "contrast = 100" in text and "skunk_rule = true" in text
    again, problems = config.load(path)
    assert again == values and len(problems) == 1 and "timer_s" in problems[0]
    values["perquackey.timer_s"] = 120                  # changing the bad key itself mends it
    config.save(path, values)
    assert config.load(path) == (values, []) and "# to fix later" in path.read_text()


def test_saving_over_a_file_that_is_not_toml_keeps_it_aside(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text("[display\ncontrast = 100\n")
    values = config.defaults()
    values["sound.enabled"] = False
    config.save(path, values)
    assert (tmp_path / "config.toml.broken").read_text() == "[display\ncontrast = 100\n"
    assert config.load(path) == (values, []) and "config.toml.broken" in path.read_text()


@pytest.mark.parametrize("game", GAME_NAMES)
def test_the_config_defaults_are_the_rules_defaults(game):
    # a rule default lives in the rules module and in the settings table: they must agree
    module = rules(game)
    assert module.new_game(config.game_settings(config.defaults(), game)) == module.new_game({})
