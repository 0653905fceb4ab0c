"""The cheapest one-to-one assignment of readings to cubes (the Hungarian method), so the
known cube set settles look-alikes and shows what no cube could have shown."""
from __future__ import annotations

import numpy as np


def assign(cost: np.ndarray) -> list[int]:
    """For an n x m cost matrix with n <= m: the column given to each row, minimising the
    total (Kuhn-Munkres with potentials, O(n^2 m))."""
    n, m = cost.shape
    if n > m:
        raise ValueError("more readings than cubes")
    u, v = np.zeros(n + 1), np.zeros(m + 1)
    row_of = np.zeros(m + 1, dtype=np.int64)      # row_of[j]: the row (1-based) in column j
    way = np.zeros(m + 1, dtype=np.int64)
    for i in range(1, n + 1):
        row_of[0] = i
        j0 = 0
        minv = np.full(m + 1, np.inf)
        used = np.zeros(m + 1, dtype=bool)
        while True:
            used[j0] = True
            i0 = row_of[j0]
            free = ~used[1:]
            current = cost[i0 - 1] - u[i0] - v[1:]
            better = free & (current < minv[1:])
            minv[1:][better] = current[better]
            way[1:][better] = j0
            candidates = np.where(free, minv[1:], np.inf)
            j1 = int(np.argmin(candidates)) + 1
            delta = candidates[j1 - 1]
            u[row_of[used]] += delta
            v[used] -= delta
            minv[1:][free] -= delta
            j0 = j1
            if row_of[j0] == 0:
                break
        while j0:
            j1 = way[j0]
            row_of[j0] = row_of[j1]
            j0 = j1
    result = [0] * n
    for j in range(1, m + 1):
        if row_of[j]:
            result[row_of[j] - 1] = j - 1
    return result
