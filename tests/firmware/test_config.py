import tomllib

import pytest

from firmware import config
from firmware.games import GAME_NAMES, rules


def test_the_documented_defaults_read_back_as_the_defaults(tmp_path):
    text = config.to_toml(config.defaults())
    assert config.validate(tomllib.loads(text)) == config.defaults()
    for s in config.SETTINGS:
        assert s.doc in text


@pytest.mark.parametrize("toml, words", [
    ("[display]\ncontrast = 'bright'\n", ["display.contrast", "'bright'", "int"]),
    ("[display]\nkind = 'crt'\n", ["display.kind", '"crt"', "choose one of"]),
    ("[keys]\nk1_pin = 99\n", ["keys.k1_pin", "99", "0 to 27"]),
    ("[display]\nsize = 3\n", ["display.size", "not a TableMate setting"]),
])
def test_bad_values_are_named(toml, words):
    with pytest.raises(config.ConfigError) as err:
        config.validate(tomllib.loads(toml))
    for w in words:
        assert w in str(err.value)


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


@pytest.mark.parametrize("game", GAME_NAMES)
def test_the_config_defaults_are_the_rules_defaults(game):
    # a rule default lives in the rules module and in the settings table: they must agree
    module = rules(game)
    assert module.new_game(config.game_settings(config.defaults(), game)) == module.new_game({})
