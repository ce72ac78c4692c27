"""MPD's acquisition optimization against the oracle (its implementation before the O(n d)
rewrite), on the same states.

A default MPD run at d on the bench's path follows the oracle (`tests/unit/mpd_oracle.py`); at
every point it samples, the library's `sample_point` is given the same GP, iterate, gradient mean
and a copy of the same stream, and both are timed (process CPU, one BLAS thread, interleaved).
Counted: points where the two choices differ by more than 1e-6 (max norm), the largest
difference, and at those points the oracle's alpha at the library's choice relative to its own
(alpha' / alpha - 1: > 0 where the library's is better, ~0 at a near-tie); beside the same for
the oracle against itself with the gradient mean one ulp off (the null: how far rounding alone
moves the choice, L-BFGS-B's path being sensitive to it). Appends one JSON line per d to --out.

    nice -n 5 python bench/mpd_acquisition.py --dims 1 5 10 20 30 50 --budget 600
"""

from __future__ import annotations

import copy
import sys
import time
from pathlib import Path
from unittest.mock import patch

import numpy as np
from full_run import bench_path, one_core, paper_run  # bench/, the script's folder
from same_states import Choices, main

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the oracle lives in tests/

import localbo.methods.mpd as mpd_module
from localbo.optimizers import optimizer_class
from tests.unit.mpd_oracle import DenseDownhillQuadratic


def compare(d: int, budget: int) -> dict:
    """The run of `budget` evaluations at d, both ways at every sampled point."""
    library = mpd_module.sample_point
    choices = Choices()
    seconds = choices.seconds

    def both(gp, x, mean, box, rng, settings):
        twin, null_twin = copy.deepcopy(rng), copy.deepcopy(rng)
        start = time.process_time()
        point = library(gp, x, mean, box, rng, settings, DenseDownhillQuadratic)
        middle = time.process_time()
        other = library(gp, x, mean, box, twin, settings)
        seconds["oracle"] += middle - start
        seconds["library"] += time.process_time() - middle
        dense = DenseDownhillQuadratic(gp, x, mean)
        alpha = lambda z: dense(z, with_grad=False)[0]  # noqa: E731
        choices.record("library", alpha, point, other)
        off = library(
            gp, x, np.nextafter(mean, np.inf), box, null_twin, settings, DenseDownhillQuadratic
        )
        choices.record("null", alpha, point, off)
        return point

    with one_core(), patch.object(mpd_module, "sample_point", both):
        paper_run(optimizer_class("mpd")(), bench_path(d), budget)
    return choices.row(d, budget)


if __name__ == "__main__":
    main(compare, __doc__, [1, 5, 10, 20, 30, 50], 600, "bench/results/mpd_acquisition.jsonl")
