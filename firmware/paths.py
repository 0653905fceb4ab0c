"""Where TableMate keeps its config and journals.

Under systemd the unit's StateDirectory= (given as $STATE_DIRECTORY) holds both; on a PC
the XDG directories do.  $TABLEMATE_HOME overrides everything (tests use it)."""
from __future__ import annotations

import os
from pathlib import Path


def state_dir() -> Path:
    if os.environ.get("TABLEMATE_HOME"):
        return Path(os.environ["TABLEMATE_HOME"])
    if os.environ.get("STATE_DIRECTORY"):
        return Path(os.environ["STATE_DIRECTORY"].split(":")[0])
    base = os.environ.get("XDG_STATE_HOME") or Path.home() / ".local" / "state"
    return Path(base) / "tablemate"


def config_path() -> Path:
    if os.environ.get("TABLEMATE_CONFIG"):
        return Path(os.environ["TABLEMATE_CONFIG"])
    if os.environ.get("TABLEMATE_HOME") or os.environ.get("STATE_DIRECTORY"):
        return state_dir() / "config.toml"
    base = os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config"
    return Path(base) / "tablemate" / "config.toml"


def current_journal() -> Path:
    return state_dir() / "current.jsonl"


def history_dir() -> Path:
    return state_dir() / "history"


def heartbeat_path() -> Path:
    return state_dir() / "alive"


def draft_path() -> Path:
    return state_dir() / "draft.json"
