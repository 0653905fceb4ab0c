"""The words the box knows: ENABLE with the players' own changes (words added and words
taken out, one per line as "+word" or "-word", in the state folder) and, for a family
table, without offensive words.

The offensive words come from a maintained list rather than one typed here: the English
dictionary of the glin-profanity package (MIT licence).  Its entries are singular, so
their plurals are hidden too.  A word the players add to the house list is theirs to
see even if the list names it."""
from __future__ import annotations

import importlib.util
import json
from functools import lru_cache
from pathlib import Path

from firmware import paths

OFFENSIVE_PACKAGE = "glin_profanity"
OFFENSIVE_FILE = ("data", "dictionaries", "english.json")   # {"words": [...]} inside the package


def house_file() -> Path:
    return paths.state_dir() / "house-words.txt"


def read(path: Path | None = None) -> tuple[set[str], set[str]]:
    path = path or house_file()
    added, removed = set(), set()
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            line = line.strip().lower()
            if line[:1] == "+" and line[1:].isalpha():
                added.add(line[1:])
                removed.discard(line[1:])
            elif line[:1] == "-" and line[1:].isalpha():
                removed.add(line[1:])
                added.discard(line[1:])
    return added, removed


def change(word: str, add: bool, path: Path | None = None) -> None:
    word = word.strip().lower()
    if not word.isalpha() or not word.isascii():
        raise ValueError(f"{word!r}: a house word is letters A to Z only.")
    path = path or house_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a", encoding="utf-8") as f:
        f.write(("+" if add else "-") + word + "\n")
    load_wordlist.cache_clear()


def offensive_list_file() -> Path:
    """Where the package keeps its English list; found without importing the package (whose
    filters and scanners the box does not need)."""
    from firmware.games.words import WordListError
    spec = importlib.util.find_spec(OFFENSIVE_PACKAGE)
    path = Path(spec.origin).parent.joinpath(*OFFENSIVE_FILE) if spec and spec.origin else None
    if path is None or not path.is_file():
        raise WordListError("The offensive-word list (Python package glin-profanity) is missing, so family words "
                            "cannot be kept: reinstall TableMate (`make run`), or set words.family_friendly = false.")
    return path


@lru_cache(maxsize=1)
def offensive_words() -> frozenset[str]:
    """The single words of the list in lower case, with their regular plurals."""
    entries = json.loads(offensive_list_file().read_text(encoding="utf-8"))["words"]
    words = {w.strip().lower() for w in entries if isinstance(w, str)}
    words = {w for w in words if w.isalpha() and w.isascii()}
    return frozenset(words | {plural(w) for w in words})


def plural(word: str) -> str:
    """The regular English plural ("spic" -> "spics", "ass" -> "asses"), so that no plain
    word like "buttes" or "spices" is hidden by accident."""
    return word + ("es" if word.endswith(("s", "x", "z", "ch", "sh")) else "s")


@lru_cache(maxsize=2)
def load_wordlist(family: bool = True):
    """ENABLE with the house words, without offensive words unless `family` is False
    (the setting words.family_friendly); loaded once (about a third of a second on a PC)."""
    from firmware.games.words import WordList
    added, removed = read()
    return WordList.load(added=added, removed=removed, hidden=offensive_words() if family else ())
