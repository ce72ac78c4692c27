"""Fig. 3, random restarts: its config section and what one job needs.

One RBF sample path in d = 100 and many noiseless local-BO runs on it from uniform random starts in
the Fig. 1 box; then `other_paths` more paths with `other_restarts` runs each, whose spread is how
far another path's curve (the paper's) may lie from ours. Kernel, Fourier features, budget, box and
local-BO knobs are those of Fig. 1 ("same settings as Fig. 1", paper section 6.2); the sigma = 0
BFGS variant is used.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from localbo.methods.local_bo import LocalBO, LocalBOSettings, run_noiseless_local_bo
from localbo.objective import Box
from localbo.pipeline.fig1 import Fig1Jobs, Fig1Settings
from localbo.pipeline.resources import START_UP, JobCost
from localbo.pipeline.sections import as_config, build, kernel_of, knobs, more_than

# CPU seconds of the d = 100 path with its design, and of one noiseless local-BO run on it at
# Fig. 1's default budget and features
PATH_SECONDS = 0.5
RUN_SECONDS = 0.1


@dataclass(frozen=True)
class Fig3Settings:
    """The `fig3` config section.

    Attributes:
        d: dimension of the path (paper: 100). path_index: which path of the stream.
        num_restarts: local-BO runs (paper: 10 000), in jobs of `chunk_size` runs.
        max_restarts: best value after k = 1..max_restarts restarts (paper: 100).
        band: central band of that best value (paper: 90%).
        orderings: random orders of the runs behind the median and band (not in the paper).
        other_paths: more paths of the stream (path_index + 1, ...), each with
            `other_restarts` runs, for the spread of the curve between paths (not in the paper).
        num_features: the paths' random Fourier features (None: Fig. 1's). Not stated in the
            paper; 16384, where Fig. 1 has 4096 (docs/figures.md, the sensitivity study).
    """

    d: int = 100
    path_index: int = 0
    num_restarts: int = 10000
    chunk_size: int = 250
    max_restarts: int = 100
    band: float = 0.9
    orderings: int = 5000
    other_paths: int = 18
    other_restarts: int = 1000
    num_features: int | None = 16384

    @property
    def comparable_to_paper(self) -> bool:
        """The published curve is for d = 100 only."""
        return self.d == 100


class Fig3Jobs:
    """What the Fig. 3 rules ask: chunk files, per-job parameters and resources.

    Args:
        settings: the `fig3` section. fig1: the Fig. 1 jobs whose settings Fig. 3 shares.
    """

    def __init__(self, settings: Fig3Settings, fig1: Fig1Jobs) -> None:
        self.settings, self.fig1 = settings, fig1

    def check(self) -> list[str]:
        """Fig. 3 runs local BO with its Fig. 1 budget in its own dimension, and has runs for
        the best of max_restarts."""
        errors = []
        budget, key = self.fig1.settings.local_bo_budget()
        needed = LocalBO(self.fig1.settings.local_bo_settings()).min_budget(self.settings.d)
        if budget < needed:
            errors.append(
                f"{key}: {budget} evaluations cannot pay for one local-BO gradient in fig3.d = "
                f"{self.settings.d} (needs {needed})"
            )
        s = self.settings
        errors += more_than(
            "fig3.max_restarts", s.max_restarts, "fig3.num_restarts", s.num_restarts
        )
        if s.other_paths:
            errors += more_than(
                "fig3.max_restarts", s.max_restarts, "fig3.other_restarts", s.other_restarts
            )
        return errors

    @property
    def budget(self) -> int:
        return self.fig1.settings.local_bo_budget()[0]

    def other_files(self, pattern: str) -> list[str]:
        """The files of the other paths (1, ..., other_paths), from a rule's output pattern."""
        return [pattern.format(path=p) for p in range(1, self.settings.other_paths + 1)]

    def other_params(self, wildcards: Any) -> dict[str, Any]:
        """What the runs on another path depend on: the model, budget and box of a chunk's, the
        path's index in the stream and its number of runs."""
        p = int(wildcards.path)
        return {
            **self.model_params(),
            "path_index": self.settings.path_index + p,
            "budget": self.budget,
            "box": as_config(self.fig1.settings.box),
            "runs": self.settings.other_restarts,
        }

    def other_cost(self, wildcards: Any) -> JobCost:
        """Its path drawn, then `other_restarts` runs at the main path's cost per run."""
        runs = self.chunk_cost(wildcards).cpu_seconds - START_UP.cpu_seconds
        runs *= self.settings.other_restarts / self.settings.chunk_size
        return START_UP + JobCost(PATH_SECONDS + runs, START_UP.mem_mb + self.path_mb())

    @property
    def num_features(self) -> int:
        """The paths' random Fourier features: the section's, else Fig. 1's."""
        return self.settings.num_features or self.fig1.settings.num_features

    def chunk_files(self, pattern: str) -> list[str]:
        count = -(-self.settings.num_restarts // self.settings.chunk_size)
        return [pattern.format(chunk=c) for c in range(count)]

    def model_params(self, wildcards: Any = None) -> dict[str, Any]:
        """Kernel, features and local-BO knobs shared with Fig. 1 (the paper: same settings)."""
        local_bo = self.fig1.settings.local_bo_settings()
        return {
            **self.fig1.path_params(),
            "num_features": self.num_features,
            "d": self.settings.d,
            "path_index": self.settings.path_index,
            "local_bo": knobs(local_bo, local_bo.read_at(0.0)),  # Fig. 3's runs are noiseless
        }

    def chunk_params(self, wildcards: Any) -> dict[str, Any]:
        start = int(wildcards.chunk) * self.settings.chunk_size
        return {
            **self.model_params(),
            "budget": self.budget,
            "box": as_config(self.fig1.settings.box),
            "runs": [start, min(start + self.settings.chunk_size, self.settings.num_restarts)],
        }

    def table_params(self) -> dict[str, Any]:
        s = self.settings
        return {
            "seed": self.fig1.seed,
            "max_restarts": s.max_restarts,
            "band": s.band,
            "orderings": s.orderings,
        }

    def path_mb(self) -> float:
        """The d = 100 path and its translated-design tables (M x d floats each)."""
        return 3 * self.num_features * (self.settings.d + 2) * 8 / 2**20

    def path_cost(self, wildcards: Any = None) -> JobCost:
        """The path drawn and the design optimized once."""
        return START_UP + JobCost(PATH_SECONDS, START_UP.mem_mb + self.path_mb())

    def chunk_cost(self, wildcards: Any) -> JobCost:
        """`RUN_SECONDS` per noiseless run at d = 100 with Fig. 1's default budget and features
        (5000, 4096), scaled linearly in d, the budget and the features (the runs' steps grow
        with the budget, each path evaluation is O(M d))."""
        measured = Fig1Settings()
        scale = (self.settings.d / 100) * (self.budget / measured.budget)
        scale *= self.num_features / measured.num_features
        seconds = self.settings.chunk_size * RUN_SECONDS * scale
        return START_UP + JobCost(seconds, START_UP.mem_mb + self.path_mb())


def start_point(params: dict[str, Any], d: int, rng: np.random.Generator) -> np.ndarray:
    """A run's (d,) start: uniform in Fig. 1's box (Fig. 3's), or, with params["start_box"] of
    the sensitivity study, uniform in the unit cube ("unit") or in the ball of radius
    params["ball_radius"] around 0 ("ball")."""
    where = params.get("start_box", "fig1")
    if where == "fig1":
        return Box(params["box"]["lower"], params["box"]["upper"], d).uniform(1, rng)[0]
    if where == "unit":
        return rng.uniform(0.0, 1.0, d)
    direction = rng.standard_normal(d)
    return params["ball_radius"] * rng.uniform() ** (1 / d) * direction / np.linalg.norm(direction)


def restart_runs(
    params: dict[str, Any], path: Any, design: Any, runs: range, start: Callable[[int], Any]
) -> dict[str, np.ndarray]:
    """Noiseless local-BO runs on `path` with the shared `design`, run i from a uniform point of
    the box drawn from the stream `start(i)`, so a run's result does not depend on the chunking.

    Args:
        params: a job's parameters (`chunk_params`, `other_params`; the sensitivity study's may
            also name the start's box, `start_point`, and the step rule, "minimizer" with its
            "gradient_step").
        path: the `FourierSamplePath`. design: the local-BO `Design` (the same for every run).
        runs: the run indices. start: run index -> its start's generator.

    Returns:
        Per run (arrays of len(runs)): its index, the returned point's true value and gradient
        norm, the evaluations used and the wall seconds.
    """
    d = params["d"]
    kernel = kernel_of(params)
    settings = build(LocalBOSettings, params["local_bo"], "fig1.methods.local_bo")
    minimizer = params.get("minimizer", "bfgs")
    options = {"step": params["gradient_step"]} if minimizer == "gradient" else {}
    columns: dict[str, list[float]] = {
        "run": [], "value": [], "gradient_norm": [], "evaluations": [], "seconds": [],
    }  # fmt: skip
    for i in runs:
        x0 = start_point(params, d, start(i))
        result = run_noiseless_local_bo(
            path, kernel, x0, params["budget"], design, settings, None, minimizer, **options
        )
        columns["run"].append(i)
        columns["value"].append(result.value)
        columns["gradient_norm"].append(result.gradient_norm)
        columns["evaluations"].append(result.evaluations)
        columns["seconds"].append(result.seconds)
    integer = ("run", "evaluations")
    return {k: np.array(v, dtype=np.int64 if k in integer else float) for k, v in columns.items()}
