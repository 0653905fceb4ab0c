import json

import pytest

from firmware.journal import Journal, JournalError

EVENTS = [{"kind": "missed"}, {"kind": "guessed"}, {"kind": "missed", "n": 3}]


def make(tmp_path):
    j = Journal.create(tmp_path / "g.jsonl", "password", {"players": 4}, started=100.0)
    for e in EVENTS:
        j.append(e)
    return j


def test_events_round_trip(tmp_path):
    j = make(tmp_path)
    again = Journal.load(j.path)
    assert again.events == EVENTS and again.game == "password" and again.settings == {"players": 4}
    assert again.warnings == []


def test_a_crash_at_any_byte_loses_only_the_unfinished_event(tmp_path):
    """Cut the file at every byte, as a power cut between write and fsync could: every
    event whose line was complete survives, the torn one is skipped with a warning."""
    j = make(tmp_path)
    data = j.path.read_bytes()
    header_end = data.index(b"\n") + 1
    line_ends = [i + 1 for i, b in enumerate(data) if b == ord("\n")]
    for cut in range(header_end, len(data) + 1):
        path = tmp_path / "cut.jsonl"
        path.write_bytes(data[:cut])
        loaded = Journal.load(path)
        complete = sum(1 for end in line_ends[1:] if end <= cut)
        assert loaded.events == EVENTS[:complete]
        assert bool(loaded.warnings) == (cut not in line_ends)
        # the damage is cut out, so the next append starts on a clean line
        loaded.append({"kind": "after"})
        assert Journal.load(path).events == EVENTS[:complete] + [{"kind": "after"}]


def test_a_corrupt_middle_line_is_skipped_with_a_warning(tmp_path):
    j = make(tmp_path)
    lines = j.path.read_bytes().split(b"\n")
    lines[2] = b'{"kind": "gues'
    j.path.write_bytes(b"\n".join(lines))
    loaded = Journal.load(j.path)
    assert loaded.events == [EVENTS[0], EVENTS[2]]
    assert "line 3" in loaded.warnings[0]


def test_an_unreadable_header_is_a_clear_error(tmp_path):
    path = tmp_path / "x.jsonl"
    path.write_text("hello\n")
    with pytest.raises(JournalError, match="not a TableMate journal"):
        Journal.load(path)


def test_dropped_events_are_gone_durably(tmp_path):
    j = make(tmp_path)
    j.drop([len(EVENTS) - 1])
    assert Journal.load(j.path).events == EVENTS[:-1]


def test_a_draft_is_replaced_whole_and_removed_when_done(tmp_path):
    from firmware.journal import Draft
    draft = Draft(tmp_path / "draft.json")
    assert draft.load() is None
    draft.save({"screens": [{"screen": "play", "view": "count"}]})
    assert Draft(tmp_path / "draft.json").load() == {"screens": [{"screen": "play", "view": "count"}]}
    assert not (tmp_path / "draft.json.tmp").exists()
    draft.save(None)
    assert not (tmp_path / "draft.json").exists()
