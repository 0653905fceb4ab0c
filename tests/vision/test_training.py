"""The trainers' data: every tenth throw kept for validation, and the cache reused."""
import numpy as np

from vision.training import arguments, training_sets


def test_the_training_data_keeps_every_tenth_throw_apart_and_is_cached(tmp_path, capsys):
    asked = []

    def make(seeds, workers):
        asked.append(seeds)
        return np.array(seeds, np.float32)[:, None], np.array(seeds) % 2

    args = arguments("", 30, 1, tmp_path, "data").parse_args(["--cache", str(tmp_path / "data.npz")])
    tx, ty, vx, vy = training_sets(args, 100, make, lambda sets: f"{len(sets[0])} + {len(sets[2])}")
    assert vx[:, 0].tolist() == [100, 110, 120] and len(tx) == 27 and not set(tx[:, 0]) & set(vx[:, 0])
    assert "data: 27 + 3" in capsys.readouterr().out
    again = training_sets(args, 100, make, str)
    assert len(asked) == 2 and all(np.array_equal(a, b) for a, b in zip(again, (tx, ty, vx, vy)))
