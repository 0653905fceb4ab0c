"""The bright faces' helpers: a fast percentile that gives numpy's own values."""
import numpy as np
import pytest

from vision.bright import percentile


@pytest.mark.parametrize("share", [0, 35, 50, 99.5, 100])
def test_the_fast_percentile_is_numpys_to_the_last_bit(share):
    rng = np.random.default_rng(7)
    for trial in range(40):
        shape = tuple(int(n) for n in rng.integers(1, 30, 3))
        values = rng.integers(0, 256, shape).astype(np.float32) if trial % 2 else \
            rng.random(shape, dtype=np.float32) * 3
        for axis in (None, 2):
            ours, theirs = percentile(values, share, axis), np.percentile(values, share, axis=axis)
            assert np.array_equal(ours, theirs) and np.asarray(ours).dtype == np.asarray(theirs).dtype


@pytest.mark.parametrize("share", [90, 99.5, 100])
def test_a_top_percentile_of_a_whole_photos_values_is_numpys_too(share):
    rng = np.random.default_rng(11)
    shade = np.maximum(rng.normal(0, 0.1, 300_000), 0).astype(np.float32)    # mostly zeros: many ties
    for values in (rng.random(300_000, dtype=np.float32), shade, np.zeros(200_001, np.float32),
                   np.sort(rng.random(150_000, dtype=np.float32))):         # sorted: the sample sees every part
        assert percentile(values, share) == np.percentile(values, share)
