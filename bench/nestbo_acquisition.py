"""NeST-BO's acquisition searches against the oracle (its implementation before
`NewtonInformation.extend`), on the same states.

A default NeST-BO run at d on the bench's path (`full_run.paper_run`); at every point its batch
samples, the oracle (`tests/unit/nestbo_oracle.py`: B built anew for the point, K^-1 B kept for
the gradient) is given the same GP, iterate, box and a copy of the same stream, and both are
timed (process CPU, one BLAS thread, interleaved): the library's share is its builds (one an
iteration) and `extend`s (one a point) and its searches, the oracle's its build and search a
point. Counted: points where the two choices differ by more than 1e-6 (max norm), the largest
difference, and at those points the oracle's alpha at the library's choice relative to its own
(alpha' / alpha - 1: > 0 where the library's is better, ~0 at a near-tie); beside the same for
the oracle against itself at the iterate one ulp off (the null: how far rounding alone moves the
choice). Appends one JSON line per d to --out.

    nice -n 5 python bench/nestbo_acquisition.py --dims 5 10 20 --budget 1000
"""

from __future__ import annotations

import copy
import sys
import time
from collections.abc import Callable
from pathlib import Path
from unittest.mock import patch

import numpy as np
from full_run import bench_path, one_core, paper_run  # bench/, the script's folder
from same_states import Choices, main

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the oracle lives in tests/

import localbo.methods.nestbo as nestbo_module
from localbo.optimizers import optimizer_class
from tests.unit.nestbo_oracle import RebuiltNewtonInformation


def compare(d: int, budget: int) -> dict:
    """The run of `budget` evaluations at d, both ways at every sampled point."""
    search = nestbo_module.maximize
    choices = Choices()
    seconds = choices.seconds

    class Timed(nestbo_module.NewtonInformation):
        """The library's acquisition, its builds and extends counted as the library's time."""

        def __init__(self, gp, x, room=0):
            start = time.process_time()
            super().__init__(gp, x, room)
            seconds["library"] += time.process_time() - start

        def extend(self):
            start = time.process_time()
            super().extend()
            seconds["library"] += time.process_time() - start

    def alpha(oracle: RebuiltNewtonInformation) -> Callable[[np.ndarray], float]:
        return lambda z: float(oracle.values(z[None, :])[0])

    def both(acquisition, lower, upper, rng, *args):
        twin, null_twin = copy.deepcopy(rng), copy.deepcopy(rng)
        start = time.process_time()
        oracle = RebuiltNewtonInformation(acquisition.gp, acquisition.x)
        point = search(oracle, lower, upper, rng, *args)
        middle = time.process_time()
        other = search(acquisition, lower, upper, twin, *args)
        seconds["oracle"] += middle - start
        seconds["library"] += time.process_time() - middle
        choices.record("library", alpha(oracle), point, other)
        nudged = RebuiltNewtonInformation(acquisition.gp, np.nextafter(acquisition.x, np.inf))
        choices.record("null", alpha(oracle), point, search(nudged, lower, upper, null_twin, *args))
        return point

    with (
        one_core(),
        patch.object(nestbo_module, "maximize", both),
        patch.object(nestbo_module, "NewtonInformation", Timed),
    ):
        paper_run(optimizer_class("nestbo")(), bench_path(d), budget)
    return choices.row(d, budget)


if __name__ == "__main__":
    main(compare, __doc__, [5, 10, 20], 1000, "bench/results/nestbo_acquisition.jsonl")
