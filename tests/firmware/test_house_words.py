"""The words the box shows: family-friendly by default, from the glin-profanity list."""
import json

import pytest

from firmware import house_words
from firmware.games import perquackey as pq
from firmware.games import words


def spell_on_black_cubes(word: str) -> str | None:
    """A 10-cube throw whose top faces spell `word` (then letters of the other cubes), or None."""
    cubes = list(pq.BLACK_CUBES)
    owner: dict[int, int] = {}          # cube -> letter position

    def place(i: int, seen: set) -> bool:
        for c, faces in enumerate(cubes):
            if word[i].upper() in faces and c not in seen:
                seen.add(c)
                if c not in owner or place(owner[c], seen):
                    owner[c] = i
                    return True
        return False

    if not all(place(i, set()) for i in range(len(word))):
        return None
    top = {c: word[i].upper() for c, i in owner.items()}
    return "".join(top.get(c, faces[0]) for c, faces in enumerate(cubes))


@pytest.fixture(scope="module")
def hidden_throw():
    """An offensive 6- or 7-letter ENABLE word the black cubes can show, and such a throw: the
    kind of throw where the solver once listed a slur."""
    full = words.WordList.load()
    for word in sorted(house_words.offensive_words(), key=lambda w: (-len(w), w)):
        if len(word) in (6, 7) and word in full:
            letters = spell_on_black_cubes(word)
            if letters:
                return word, letters
    pytest.fail("no offensive 6- or 7-letter word fits the black cubes")


def test_the_list_comes_from_the_package_and_covers_plurals():
    listed = json.loads(house_words.offensive_list_file().read_text())["words"]
    assert len(listed) > 100
    single = sorted(w.lower() for w in listed if w.isalpha() and w.isascii())
    hidden = house_words.offensive_words()
    assert all(w in hidden and house_words.plural(w) in hidden for w in single)
    assert house_words.plural("spic") == "spics" and house_words.plural("ass") == "asses"
    assert "spices" not in hidden and "buttes" not in hidden   # no plain word hidden by a wrong plural


def test_the_solver_hides_offensive_words_and_does_not_count_them(hidden_throw):
    word, letters = hidden_throw
    family = words.solve(words.WordList.load(hidden=house_words.offensive_words()), letters)
    everything = words.solve(words.WordList.load(), letters)
    assert word in everything.words[len(word)] and word not in family.words.get(len(word), [])
    assert not {w for ws in family.words.values() for w in ws} & house_words.offensive_words()
    assert not {w for ws in family.best_words.values() for w in ws} & house_words.offensive_words()
    assert family.best_score <= everything.best_score
    assert family.best_score == pq.throw_points({n: len(ws) for n, ws in family.best_words.items()})


def test_a_word_the_players_added_shows_even_if_listed(hidden_throw):
    word, letters = hidden_throw
    mine = words.WordList.load(added=[word], hidden=house_words.offensive_words())
    assert word in mine and word in words.solve(mine, letters).words[len(word)]


def test_the_box_list_is_family_friendly_by_default(state_home, hidden_throw):
    word, _ = hidden_throw
    house_words.load_wordlist.cache_clear()
    assert word not in house_words.load_wordlist() and word in house_words.load_wordlist(family=False)
    house_words.load_wordlist.cache_clear()          # the cached lists read this test's house words


def test_a_missing_list_is_said_plainly(monkeypatch):
    monkeypatch.setattr(house_words, "OFFENSIVE_PACKAGE", "no_such_package_here")
    with pytest.raises(words.WordListError, match="glin-profanity.*family_friendly = false"):
        house_words.offensive_list_file()


def test_the_words_command_follows_the_setting(state_home, tmp_path, capsys, hidden_throw):
    from firmware.cli import main
    word, letters = hidden_throw
    house_words.load_wordlist.cache_clear()
    assert main(["words", "--json", letters]) == 0
    family = json.loads(capsys.readouterr().out)
    assert word not in family["words"][str(len(word))]
    cfg = tmp_path / "c.toml"
    cfg.write_text("[words]\nfamily_friendly = false\n")
    assert main(["--config", str(cfg), "words", "--json", letters]) == 0
    everything = json.loads(capsys.readouterr().out)
    assert word in everything["words"][str(len(word))] and everything["best_score"] >= family["best_score"]
    house_words.load_wordlist.cache_clear()
