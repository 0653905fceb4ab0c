"""The solver against a brute-force reference on random throws of the real cubes."""
import json
import random
from collections import Counter
from itertools import combinations

import pytest

from firmware.games import perquackey as pq
from firmware.games import words


@pytest.fixture(scope="module")
def wordlist():
    return words.WordList.load()


def throw(rng, vulnerable):
    return "".join(rng.choice(cube) for cube in pq.cubes(vulnerable))


def reference_words(all_words, letters):
    have = Counter(letters.lower())
    return sorted(w for w in all_words if not Counter(w) - have)


def reference_best(found, vulnerable, limit=200_000):
    """Exhaustive best score: free words (no plural link) are interchangeable, so take as
    many as fit; then try every set of linked words for the places left."""
    low = pq.shortest(vulnerable)
    levels = [n for n in range(low, 11)]
    by = {n: [w for w in found if len(w) == n] for n in levels}
    allw = set(found)
    linked = {w for w in allw if (w + "s" in allw) or (w.endswith("s") and w[:-1] in allw)}
    options, total = [], 1
    for n in levels:
        free = [w for w in by[n] if w not in linked]
        link = [w for w in by[n] if w in linked]
        room = 5 - min(5, len(free))
        combos = [c for k in range(0, min(room, len(link)) + 1) for c in combinations(link, k)]
        total *= len(combos)
        options.append((n, min(5, len(free)), combos))
    if total > limit:
        return None
    best = 0

    def walk(i, chosen, counts):
        nonlocal best
        if i == len(options):
            best = max(best, pq.throw_points(counts, vulnerable))
            return
        n, free, combos = options[i]
        for c in combos:
            if any(w.endswith("s") and w[:-1] in chosen for w in c):
                continue
            walk(i + 1, chosen | set(c), {**counts, n: free + len(c)})
    walk(0, set(), {})
    return best


def test_the_list_is_whole_and_checked(wordlist):
    assert "quack" in wordlist and "zax" in wordlist and "xq" not in wordlist
    assert len(wordlist) == 160_133   # ENABLE's 172,820 words less those over 13 letters or under 3


def test_same_words_and_best_score_as_brute_force(wordlist):
    rng = random.Random(2024)
    everything = list(wordlist.words)
    checked_best = 0
    for i in range(12):
        vulnerable = i % 3 == 0
        letters = throw(rng, vulnerable)
        solution = words.solve(wordlist, letters)
        assert sorted(w for ws in solution.words.values() for w in ws) == reference_words(everything, letters)
        found = [w for ws in solution.words.values() for w in ws if len(w) <= 10]
        ref = reference_best(found, vulnerable)
        if ref is not None:
            assert solution.best_score == ref, letters
            checked_best += 1
    assert checked_best >= 10


def test_best_score_on_many_random_throws(wordlist):
    rng = random.Random(7)
    checked = 0
    for i in range(150):
        vulnerable = i % 2 == 0
        solution = words.solve(wordlist, throw(rng, vulnerable))
        chosen = [w for ws in solution.best_words.values() for w in ws]
        assert all(len(ws) <= 5 for ws in solution.best_words.values())
        assert not any(w.endswith("s") and w[:-1] in chosen for w in chosen)
        assert not (vulnerable and 3 in solution.best_words)
        found = [w for ws in solution.words.values() for w in ws if len(w) <= 10]
        ref = reference_best(found, vulnerable)
        if ref is not None:
            assert solution.best_score == ref
            checked += 1
    assert checked >= 140


def test_plural_beside_its_singular_is_not_counted():
    wl = words.WordList(["cat", "cats", "dog", "dogs", "eel", "eels", "rat", "rats", "tar", "tars", "art", "arts"])
    solution = words.solve(wl, "CATSDOGELR")
    chosen = [w for ws in solution.best_words.values() for w in ws]
    assert not any(w + "s" in chosen for w in chosen)


@pytest.mark.parametrize("bad, message", [("abc", "has 3 letters"), ("abcdefghi1", "only the letters"),
                                          ("abcdefghijkl", "has 12 letters")])
def test_bad_letters_are_explained(wordlist, bad, message):
    with pytest.raises(ValueError, match=message):
        words.solve(wordlist, bad)


def test_house_words_can_be_added_and_removed():
    wl = words.WordList.load(added=["podcast"], removed=["quack"])
    assert "podcast" in wl and "quack" not in wl


def test_json_shape(wordlist):
    data = words.solve(wordlist, "aaeeebhirs").as_json()
    assert set(data) == {"letters", "vulnerable", "words", "best_score", "best_words"}
    assert data["letters"] == "AAEEEBHIRS" and data["vulnerable"] is False
    json.dumps(data)
