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
    Setting("display.rotate", 0, "Half turns of the picture: 2 = upside down (the layout is landscape, so "
            "quarter turns do not fit).", (0, 2)),
    Setting("display.contrast", 200, "OLED brightness.", (50, 100, 150, 200, 255), menu="Contrast"),
    _pins("k1", 5), _pins("k2", 6), _pins("k3", 13), _pins("k4", 19),
    Setting("keys.long_press_ms", 800, "How long a key is held to count as a long press.", low=300, high=3000),
    Setting("keys.debounce_ms", 30, "Contact bounce shorter than this is ignored.", low=0, high=200),
    Setting("keys.pin_factory", "lgpio", "How gpiozero reaches the pins: lgpio (every Pi, the only one on a "
            "Pi 5), or rpigpio (RPi.GPIO, Pi 4 and older, where it is installed).", ("lgpio", "rpigpio")),
    Setting("sound.enabled", True, "Cues on the buzzer.", (True, False), menu="Sound"),
    Setting("sound.buzzer", "tonal", "tonal: passive buzzer (TonalBuzzer); active: fixed-pitch buzzer.",
            ("tonal", "active", "none")),
    Setting("sound.pin", 18, "GPIO (BCM) number of the buzzer (any free pin: the tone is timed in software).",
            low=0, high=27),
    Setting("camera.source", "auto", "auto (Pi camera on a Pi; on a PC the first webcam, or else the sample "
            "photos that ship with TableMate), picamera, webcam:N, none, or a path to an image file or a folder "
            "of images (taken in turn)."),
    Setting("camera.webcam_size", "1920x1080", "The picture size asked of a webcam (it gives the nearest it has): "
            "the 640x480 most webcams start at makes the cubes too small to read well.",
            ("640x480", "1280x720", "1920x1080", "2560x1440")),
    Setting("watch.enabled", True, "In a Perquackey turn, watch the table with a live camera: when the cubes "
            "come to rest, read them without a key.", (True, False), menu="Watch throws"),
    Setting("watch.auto_start", True, "When a throw is read at rest, start the timer too (K3 on the timer takes "
            "a wrong start back). Off: the letters are shown and K3 starts the timer.", (True, False),
            menu="Auto timer"),
    Setting("watch.rest_ms", 800, "How long nothing may move before the cubes count as at rest.",
            (500, 800, 1200, 2000), menu="Rest time"),
    Setting("watch.looks_per_s", 5, "Small frames looked at each second while watching.", low=2, high=10),
    Setting("words.family_friendly", True, "Hide offensive words (the glin-profanity package's English list) "
            "from the solver and `tablemate words`; a house word the players added always shows.", (True, False),
            menu="Family words"),
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


def validate(raw: dict) -> tuple[dict[str, object], list[str]]:
    """Flatten a parsed TOML document and check every key and value against the table.
    A bad entry costs only itself: its default stands in, and a sentence says why."""
    values, problems, given = defaults(), [], set()
    for section, table in raw.items():
        if not isinstance(table, dict):
            problems.append(_outside_a_section(section, table))
            continue
        for name, value in table.items():
            key = f"{section}.{name}"
            setting = BY_KEY.get(key)
            if setting is None:
                problems.append(f"{key} is not a TableMate setting (`tablemate config --defaults` lists them); "
                                "it is ignored.")
                continue
            try:
                values[key] = check(setting, value)
                given.add(key)
            except ConfigError as exc:
                problems.append(f"{exc} Using {_toml_value(setting.default, key)} until it is fixed.")
    return values, problems + _separate_pins(values, given)


def _outside_a_section(name: str, value) -> str:
    sections = [s.section for s in SETTINGS if s.key.split(".", 1)[1] == name]
    if not sections:
        return (f"{name} is not a TableMate setting (`tablemate config --defaults` lists them, each under "
                "its [section]); it is ignored.")
    where = " or ".join(f"[{section}]" for section in sections)
    return f"{name} = {_toml_value(value)} is outside any section: put {name} under {where}. It is ignored until then."


PIN_OWNERS = {"keys.k1_pin": "K1", "keys.k2_pin": "K2", "keys.k3_pin": "K3", "keys.k4_pin": "K4",
              "sound.pin": "the buzzer"}


def _separate_pins(values: dict[str, object], given: set[str]) -> list[str]:
    """Two parts on one GPIO would read one button as two, or beep on a key: a pin set in
    the file that another part already uses falls back to its default.  The defaults are
    all different, so this ends after at most one step per pin."""
    problems = []
    while True:
        wired = [k for k in PIN_OWNERS if k != "sound.pin" or values["sound.buzzer"] != "none"]
        owner, clash = {}, None
        for key in wired:
            if values[key] in owner:
                clash = (owner[values[key]], key)
                break
            owner[values[key]] = key
        if clash is None:
            return problems
        # the pin to give up is one the file set, preferably one whose default is free
        set_here = [k for k in clash[::-1] if k in given]
        free = [k for k in set_here if BY_KEY[k].default not in {values[o] for o in wired if o != k}]
        key = (free or set_here)[0]
        other = clash[0] if key == clash[1] else clash[1]
        default = BY_KEY[key].default
        problems.append(f"{key} = {values[key]} is also the GPIO of {PIN_OWNERS[other]} ({other}): each key and "
                        f"the buzzer need a pin of their own. Using {default} for {PIN_OWNERS[key]} until it is fixed.")
        values[key] = default
        given.discard(key)


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
    """The settings from `path` and the problems found, as sentences for the console and
    the screen.  A problem never stops TableMate: a bad entry falls back to its default
    alone, and only a file that cannot be read at all falls back whole."""
    if not path.exists():
        return defaults(), []
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        return defaults(), [f"The config file {path} is not valid TOML ({exc}); using the defaults until it is fixed."]
    except OSError as exc:
        return defaults(), [f"Cannot read {path} ({exc.strerror}); using the defaults."]
    values, problems = validate(raw)
    return values, [f"In {path}: {problem}" for problem in problems]


HEADER = "# TableMate settings; `tablemate config --defaults` lists them all."


def save(path: Path, values: dict[str, object]) -> None:
    """Write the settings that differ from what the file says, and nothing else: the file's
    other keys, its comments and a bad value not changed here stay as they were (tomlkit
    edits the document in place).  Atomic: a power cut leaves the old file."""
    import tomlkit   # only the Settings menu saves; start-up reads with tomllib
    document, before = _document(path)
    for s in SETTINGS:
        value = values.get(s.key, s.default)
        if value == before[s.key]:
            continue
        section, name = s.key.split(".", 1)
        if not isinstance(document.get(section), dict):
            document[section] = tomlkit.table()
        document[section][name] = tomlkit.value(_toml_value(value, s.key))
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(tomlkit.dumps(document), encoding="utf-8")
    tmp.replace(path)


def _document(path: Path):
    """The file as an editable document and the settings it gives.  A file that is not TOML
    cannot be edited in place: it is kept beside the new one as `<name>.broken`."""
    import tomlkit
    from tomlkit.exceptions import ParseError
    try:
        document = tomlkit.parse(path.read_text(encoding="utf-8"))
        return document, validate(document.unwrap())[0]
    except FileNotFoundError:
        note = ""
    except (ParseError, UnicodeDecodeError):
        kept = path.with_name(path.name + ".broken")
        path.replace(kept)
        note = f"\n# The previous file was not valid TOML: it is kept as {kept.name}."
    return tomlkit.parse(HEADER + note + "\n"), defaults()


def game_settings(values: dict[str, object], game: str) -> dict[str, object]:
    """The rule options of one game, keyed without the section name."""
    prefix = game + "."
    return {k[len(prefix):]: v for k, v in values.items() if k.startswith(prefix)}
