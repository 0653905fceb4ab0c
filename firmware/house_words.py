"""The players' own word list: words added to ENABLE and words taken out of it, one per
line as "+word" or "-word", in the state folder."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from firmware import paths


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


@lru_cache(maxsize=1)
def load_wordlist():
    """ENABLE with the house words, loaded once (about a third of a second on a PC)."""
    from firmware.games.words import WordList
    added, removed = read()
    return WordList.load(added=added, removed=removed)
