"""The word list and the Perquackey solver.

The list is ENABLE (public domain, shipped gzipped beside this file, its hash checked)
plus the players' own house words, minus the ones they removed and, for a family table,
minus the words an offensive-word list names (unless the players added them themselves):
a hidden word is neither shown nor counted in the best score.  For speed every word
is kept as a row of 26 letter counts and a 26-bit letter set: a throw's words are the
rows whose letter set fits the throw and whose counts do not exceed it."""
from __future__ import annotations

import gzip
import hashlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from firmware.games import perquackey as pq

LIST_FILE = Path(__file__).with_name("enable1.txt.gz")
LIST_SHA256 = "f32e6fbdc4cf9c8ec1d992193d7ac33e773fc850ba47ebe2c791ab9d61913d49"
MIN_LEN, MAX_LEN = 3, 13          # no throw has more than 13 cubes


class WordListError(ValueError):
    pass


def normalise(word: str) -> str:
    return word.strip().lower()


class WordList:
    def __init__(self, words):
        words = sorted({w for w in map(normalise, words) if MIN_LEN <= len(w) <= MAX_LEN and w.isalpha()
                        and w.isascii()})
        self.words = np.array(words, dtype=object)
        lengths = np.fromiter((len(w) for w in words), dtype=np.int64, count=len(words))
        self.lengths = lengths.astype(np.uint8)
        letters = np.frombuffer("".join(words).encode("ascii"), dtype=np.uint8) - ord("a")
        owner = np.repeat(np.arange(len(words)), lengths)
        self.counts = np.bincount(owner * 26 + letters, minlength=len(words) * 26) \
            .reshape(len(words), 26).astype(np.uint8)
        self.masks = (self.counts > 0).astype(np.int64) @ (1 << np.arange(26, dtype=np.int64))
        self._set = set(words)

    def __contains__(self, word: str) -> bool:
        return normalise(word) in self._set

    def __len__(self) -> int:
        return len(self.words)

    @classmethod
    def load(cls, added=(), removed=(), hidden=(), path: Path = LIST_FILE, check: bool = True) -> "WordList":
        data = gzip.decompress(path.read_bytes())
        if check and hashlib.sha256(data).hexdigest() != LIST_SHA256:
            raise WordListError(f"{path} is not the whole ENABLE list (its checksum differs): reinstall TableMate.")
        added = {normalise(w) for w in added}
        gone = {normalise(w) for w in removed} | ({normalise(w) for w in hidden} - added)
        words = [w for w in data.decode("ascii").split() if w not in gone]
        return cls(words + [w for w in added if w not in gone])

    def formable(self, letters: str) -> list[str]:
        """Every listed word that the letters can spell (each letter used at most as often as thrown)."""
        have = letter_counts(letters)
        mask = int((have > 0).astype(np.int64) @ (1 << np.arange(26, dtype=np.int64)))
        fits = ((self.masks & ~mask) == 0) & (self.lengths <= len(letters))
        rows = np.nonzero(fits)[0]
        rows = rows[(self.counts[rows] <= have).all(axis=1)]
        return list(self.words[rows])


def letter_counts(letters: str) -> np.ndarray:
    have = np.zeros(26, dtype=np.uint8)
    for ch in letters.lower():
        have[ord(ch) - ord("a")] += 1
    return have


@dataclass(frozen=True)
class Solution:
    letters: str
    vulnerable: bool
    words: dict[int, list[str]]        # every formable word, by length
    best_words: dict[int, list[str]]   # a best choice under the rules
    best_score: int

    def longest(self, n: int = 3) -> list[str]:
        return sorted((w for ws in self.words.values() for w in ws), key=lambda w: (-len(w), w))[:n]

    def as_json(self) -> dict:
        return {"letters": self.letters.upper(), "vulnerable": self.vulnerable,
                "words": {str(n): ws for n, ws in sorted(self.words.items())},
                "best_score": self.best_score,
                "best_words": [w for n in sorted(self.best_words) for w in self.best_words[n]]}


def check_letters(letters: str) -> tuple[str, bool]:
    """The letters of a throw and whether it is a vulnerable one (13 cubes)."""
    cleaned = "".join(letters.split()).upper()
    if not cleaned.isalpha() or not cleaned.isascii():
        raise ValueError(f"{letters!r}: use only the letters A to Z.")
    if len(cleaned) not in (10, 13):
        raise ValueError(f"{letters!r} has {len(cleaned)} letters: a throw has 10 cubes, or 13 when vulnerable.")
    return cleaned, len(cleaned) == 13


def solve(wordlist: WordList, letters: str, vulnerable: bool | None = None, rules: dict | None = None) -> Solution:
    letters, thirteen = check_letters(letters)
    vulnerable = thirteen if vulnerable is None else vulnerable
    by_length: dict[int, list[str]] = {}
    for w in wordlist.formable(letters):
        by_length.setdefault(len(w), []).append(w)
    for ws in by_length.values():
        ws.sort()
    best = best_choice(by_length, vulnerable, rules)
    score = pq.throw_points({n: len(ws) for n, ws in best.items()}, vulnerable, rules)
    return Solution(letters, vulnerable, by_length, best, score)


def best_choice(by_length: dict[int, list[str]], vulnerable: bool, rules: dict | None = None) -> dict[int, list[str]]:
    """Up to five words a length that score the most, never a plural made with S beside its
    singular.  Words that block nothing are taken first; where the plural rule makes two
    lengths compete, a small search over how many words each length takes decides."""
    low = pq.shortest(vulnerable)
    levels = range(low, pq.LONGEST + 1)
    words = {n: set(by_length.get(n, ())) for n in levels}
    # a singular at n blocks its plural at n+1 (when both are chosen, the plural does not count)
    plural_of = {n: {w for w in words[n] if w + "s" in words.get(n + 1, ())} for n in levels}

    def choose(n: int, blocked: set[str], take: int) -> list[str]:
        free = sorted(words[n] - blocked - plural_of[n])
        singulars = sorted(plural_of[n] - blocked)
        return (free + singulars)[:take]

    # search over how many words each level takes, carrying what the chosen singulars block
    best: tuple[int, dict[int, list[str]]] = (-1, {})

    def search(i: int, blocked: set[str], chosen: dict[int, list[str]]) -> None:
        nonlocal best
        if i == len(levels):
            score = pq.throw_points({n: len(ws) for n, ws in chosen.items()}, vulnerable, rules)
            if score > best[0]:
                best = (score, dict(chosen))
            return
        n = levels[i]
        most = min(pq.WORDS_PER_GROUP, len(words[n] - blocked))
        free_count = len(words[n] - blocked - plural_of[n])
        # taking fewer than `most` only helps by blocking less above: try those counts only then
        options = [most] if most <= free_count else range(most, free_count - 1, -1)
        for take in options:
            picked = choose(n, blocked, take)
            chosen[n] = picked
            search(i + 1, {w + "s" for w in picked if w in plural_of[n]}, chosen)
        del chosen[n]

    search(0, set(), {})
    return {n: ws for n, ws in best[1].items() if ws}
