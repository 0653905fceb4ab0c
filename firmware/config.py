"""One table of settings: its defaults produce the documented config file
(`tablemate config --defaults`), the validation at start and the Settings menu."""
from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path


class ConfigError(ValueError):
    """A config file that cannot be used; the message names the key and the bad value."""


@dataclass(frozen=True)
class Setting:
    key: str                 # "section.name"
    default: object
    doc: str
    choices: tuple = ()      # allowed values (also what the Settings menu cycles through)
    low: int | None = None   # bounds for numbers without a fixed list of choices
    high: int | None = None
    menu: str = ""           # label in the Settings menu; empty: file only

    @property
    def section(self) -> str:
        return self.key.split(".")[0]


def _pins(name, default):
    return Setting(f"keys.{name}_pin", default, f"GPIO (BCM) number of soft key {name.upper()}, wired to ground.", low=0, high=27)


def _game_settings() -> list[Setting]:
    """Each game's rule options, as their rules module declares them (section = the game)."""
    from firmware.games import GAMES
    return [Setting(f"{game.NAME}.{o.name}", o.default, o.doc, o.choices, o.low, o.high, o.menu)
            for game in GAMES for o in game.OPTIONS]


SETTINGS: tuple[Setting, ...] = (
    Setting("hardware.mode", "auto", "auto: the real hardware on a Raspberry Pi, simulated elsewhere.",
            ("auto", "real", "simulated")),
    Setting("display.kind", "auto", "auto: ssd1306 on a Pi, terminal on a PC. sh1106 panels need sh1106.",
            ("auto", "ssd1306", "sh1106", "terminal", "pygame", "dummy")),
    Setting("display.port", 1, "I2C bus number (/dev/i2c-N).", low=0, high=20),
    Setting("display.address", 0x3C, "I2C address of the OLED: 0x3C, or 0x3D on some boards.", (0x3C, 0x3D)),
    Setting("display.rotate", 0, "Quarter turns of the picture (2 = upside down).", (0, 1, 2, 3)),
    Setting("display.contrast", 200, "OLED brightness.", (50, 100, 150, 200, 255), menu="Contrast"),
    _pins("k1", 5), _pins("k2", 6), _pins("k3", 13), _pins("k4", 19),
    Setting("keys.long_press_ms", 800, "How long a key is held to count as a long press.", low=300, high=3000),
    Setting("keys.debounce_ms", 30, "Contact bounce shorter than this is ignored.", low=0, high=200),
    Setting("sound.enabled", True, "Cues on the buzzer.", (True, False), menu="Sound"),
    Setting("sound.buzzer", "tonal", "tonal: passive buzzer (TonalBuzzer); active: fixed-pitch buzzer.",
            ("tonal", "active", "none")),
    Setting("sound.pin", 18, "GPIO (BCM) number of the buzzer (18 is hardware PWM).", low=0, high=27),
    Setting("camera.source", "auto", "auto (Pi camera on a Pi; on a PC the first webcam, or else the sample "
            "photos that ship with TableMate), picamera, webcam:N, none, or a path to an image file or a folder "
            "of images (taken in turn)."),
    *_game_settings(),
)
BY_KEY = {s.key: s for s in SETTINGS}


def defaults() -> dict[str, object]:
    return {s.key: s.default for s in SETTINGS}


def _toml_value(value, key: str = "") -> str:
    if key == "display.address":
        return f"{value:#04x}"  # I2C addresses are written in hex everywhere else
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return str(value)


def to_toml(values: dict[str, object], documented: bool = True, only_changed: bool = False) -> str:
    """The config as TOML, section by section; with `documented`, every key has its doc."""
    lines, section = [], None
    for s in SETTINGS:
        value = values.get(s.key, s.default)
        if only_changed and value == s.default:
            continue
        if s.section != section:
            section = s.section
            lines += (["", f"[{section}]"] if lines else [f"[{section}]"])
        if documented:
            allowed = f" Choices: {', '.join(_toml_value(c, s.key) for c in s.choices)}." if s.choices else ""
            lines.append(f"# {s.doc}{allowed}")
        lines.append(f"{s.key.split('.', 1)[1]} = {_toml_value(value, s.key)}")
    return "\n".join(lines) + "\n"


def validate(raw: dict) -> dict[str, object]:
    """Flatten a parsed TOML document and check every key and value against the table."""
    values = defaults()
    for section, table in raw.items():
        if not isinstance(table, dict):
            raise ConfigError(f"{section} = {table!r}: settings live in sections, e.g. [{section}].")
        for name, value in table.items():
            key = f"{section}.{name}"
            setting = BY_KEY.get(key)
            if setting is None:
                raise ConfigError(f"{key} is not a TableMate setting (`tablemate config --defaults` lists them).")
            values[key] = check(setting, value)
    return values


def check(setting: Setting, value):
    expected = type(setting.default)
    if expected is str and isinstance(value, int) and not isinstance(value, bool):
        value = str(value)  # `first_team = 1` means "1"
    if type(value) is not expected:
        raise ConfigError(f"{setting.key} = {value!r}: expected {expected.__name__}, like {_toml_value(setting.default)}.")
    if setting.choices and value not in setting.choices:
        if setting.key != "camera.source":
            raise ConfigError(f"{setting.key} = {_toml_value(value)}: choose one of "
                              f"{', '.join(_toml_value(c) for c in setting.choices)}.")
    if setting.low is not None and not setting.low <= value <= setting.high:
        raise ConfigError(f"{setting.key} = {value}: must be from {setting.low} to {setting.high}.")
    return value


def load(path: Path) -> tuple[dict[str, object], list[str]]:
    """The settings from `path` and the problems found; a problem never stops TableMate:
    it says what is wrong and the defaults stand in."""
    if not path.exists():
        return defaults(), []
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
        return validate(raw), []
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        return defaults(), [f"The config file {path} is not valid TOML ({exc}); using the defaults until it is fixed."]
    except ConfigError as exc:
        return defaults(), [f"In {path}: {exc} Using the defaults until it is fixed."]
    except OSError as exc:
        return defaults(), [f"Cannot read {path} ({exc.strerror}); using the defaults."]


def save(path: Path, values: dict[str, object]) -> None:
    """Write the settings that differ from the defaults (atomically: a power cut leaves the old file)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text("# TableMate settings; `tablemate config --defaults` lists them all.\n"
                   + to_toml(values, documented=False, only_changed=True), encoding="utf-8")
    tmp.replace(path)


def game_settings(values: dict[str, object], game: str) -> dict[str, object]:
    """The rule options of one game, keyed without the section name."""
    prefix = game + "."
    return {k[len(prefix):]: v for k, v in values.items() if k.startswith(prefix)}
