"""Empirical convergence rates (paper Corollaries 1 and 2): config section and jobs.

Algorithm 1 from x = 0 with step 1 / L on Fig. 1's own sample paths (the same files: kernel,
features and seed streams are Fig. 1's, so the paths need no redrawing), one job per (d, sigma,
schedule, step rule) over all paths: the designs depend on the batch size only, so one job
computes each once. Local BO's nugget and design knobs are those of `fig1.methods.local_bo`.
sigma = 0 runs Corollary 1's b_t = d + 1; sigma > 0 runs each of `schedules`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from typing import Any

import numpy as np

from localbo.convergence import NOISELESS_SCHEDULE, schedule_settings
from localbo.methods.local_bo import (
    BATCH_SCHEDULES,
    NOISY_KNOBS,
    STEP_RULES,
    LocalBOSettings,
    batch_size,
)
from localbo.pipeline.fig1 import Fig1Jobs
from localbo.pipeline.fig2 import log_grid
from localbo.pipeline.files import sigma_label
from localbo.pipeline.resources import START_UP, JobCost
from localbo.pipeline.sections import as_config, knobs

# The local-BO knobs a rates run does not take from Fig. 1: those it sets itself, the schedule's
# batch and data window (`localbo.convergence.schedule_settings`) and the step
# (scripts/rates_run.py), and bfgs_gtol, which its driver (`run_noisy`, at every sigma) never reads.
SET_BY_RATES = (*NOISY_KNOBS, "data_window", "bfgs_gtol")
TAKEN_FROM_FIG1 = tuple(f.name for f in fields(LocalBOSettings) if f.name not in SET_BY_RATES)

# CPU seconds of a run's iteration (a gradient estimate and a step) and of an evaluation per
# dimension (M = 4096 features), and of 1e4 Hessians at d = 5 (L of a path), one core
STEP_SECONDS = 5e-4
EVALUATION_SECONDS = 2.5e-6
HESSIAN_SECONDS = 1.4


@dataclass(frozen=True)
class RatesSettings:
    """The `rates` config section.

    Attributes:
        dims: dimensions (the theorems' regime: a long budget per d).
        num_paths: Fig. 1 paths per d (the first ones).
        noise_levels: sigma; 0 runs b_t = d + 1, each positive level runs every schedule.
        schedules: the batch schedules of the noisy runs (local BO's names; "constant" is
            b_t = d).
        step_rules: "fixed" is eta = 1 / L (the theorems); "normalized" is GIBO's step of
            length `normalized_step_size`, for comparison.
        normalized_step_size: length of GIBO's normalized step (Fig. 1's local BO step).
        budget: evaluations per run.
        smoothness_points: uniform points of the Fig. 1 box (plus the start) over which each
            path's L, the largest Hessian spectral norm, is taken.
        smoothness_polish: L-BFGS-B maximizations of the norm from the best of those points.
        grid_per_decade: evaluation counts per decade at which the running minimum is kept.
    """

    dims: tuple[int, ...] = (1, 5, 10)
    num_paths: int = 20
    noise_levels: tuple[float, ...] = (0.0, 0.1)
    schedules: tuple[str, ...] = ("d_log2_t", "d_t", "d_t2", "constant")
    step_rules: tuple[str, ...] = ("fixed", "normalized")
    normalized_step_size: float = LocalBOSettings.step_size
    budget: int = 100000
    smoothness_points: int = 10000
    smoothness_polish: int = 10
    grid_per_decade: int = 20

    def check(self) -> list[str]:
        """Problems the schema cannot see, each starting with its dotted key."""
        errors = [
            f"rates.schedules: unknown schedule {s!r}; known: {list(BATCH_SCHEDULES)}"
            for s in self.schedules
            if s not in BATCH_SCHEDULES
        ]
        errors += [
            f"rates.step_rules: unknown step rule {s!r}; known: {list(STEP_RULES)}"
            for s in self.step_rules
            if s not in STEP_RULES
        ]
        if self.budget < 100 * (max(self.dims) + 1):
            errors.append(
                f"rates.budget: {self.budget} evaluations are under 100 gradients in "
                f"d = {max(self.dims)}: no decade of n to fit a slope over"
            )
        return errors

    def cases(self) -> list[tuple[int, float, str, str]]:
        """Every (d, sigma, schedule, step rule) job."""
        return [
            (d, sigma, schedule, rule)
            for d in self.dims
            for sigma in self.noise_levels
            for schedule in ((NOISELESS_SCHEDULE,) if sigma == 0 else self.schedules)
            for rule in self.step_rules
        ]


def iterations(schedule: str, d: int, budget: int) -> int:
    """The iterations of Algorithm 1 a budget of evaluations pays for: b_1 + ... + b_T <= budget
    (the rates' schedules: `NOISELESS_SCHEDULE` is b_t = d + 1).

    Example:
        >>> iterations("d_t", 2, 20), iterations(NOISELESS_SCHEDULE, 1, 100)
        (4, 50)
    """
    settings = schedule_settings(schedule, d, LocalBOSettings())
    spent = steps = 0
    while True:
        b = batch_size(settings.schedule, d, steps + 1, settings.batch_factor)
        if spent + b > budget:
            return steps
        spent, steps = spent + b, steps + 1


def evaluation_grid(low: float, high: float, per_decade: int) -> np.ndarray:
    """Evaluation counts from low to high, about per_decade per decade (`log_grid`), at which
    the running minimum is kept.

    Returns:
        (k,) increasing int64 array that starts at round(low) and ends at round(high).
    """
    num = max(2, math.ceil(per_decade * math.log10(high / low)) + 1)
    return np.asarray(log_grid(low, high, num), dtype=np.int64)


class RatesJobs:
    """What the rates rules ask: files, per-job parameters and resources.

    Args:
        settings: the `rates` section. fig1: the Fig. 1 jobs whose paths and local BO it uses.
    """

    schedule_names = (NOISELESS_SCHEDULE, *BATCH_SCHEDULES)
    step_names = STEP_RULES

    def __init__(self, settings: RatesSettings, fig1: Fig1Jobs) -> None:
        self.settings, self.fig1 = settings, fig1

    def path_files(self, pattern: str, wildcards: Any) -> list[str]:
        """The Fig. 1 path files of one d, from the path rule's output pattern."""
        return [pattern.format(d=wildcards.d, i=i) for i in range(self.settings.num_paths)]

    def smoothness_params(self, wildcards: Any = None) -> dict[str, Any]:
        return {
            "seed": self.fig1.seed,
            "box": as_config(self.fig1.settings.box),
            "points": self.settings.smoothness_points,
            "polish": self.settings.smoothness_polish,
        }

    def run_files(self, pattern: str) -> list[str]:
        return [
            pattern.format(d=d, sigma=sigma_label(sigma), schedule=schedule, step=rule)
            for d, sigma, schedule, rule in self.settings.cases()
        ]

    def run_params(self, wildcards: Any = None) -> dict[str, Any]:
        s = self.settings
        return {
            **self.fig1.path_params(),
            "budget": s.budget,
            "box": as_config(self.fig1.settings.box),
            "grid_per_decade": s.grid_per_decade,
            "normalized_step_size": s.normalized_step_size,
            "local_bo": knobs(self.fig1.settings.local_bo_settings(), TAKEN_FROM_FIG1),
        }

    def run_cost(self, wildcards: Any) -> JobCost:
        """Per path `STEP_SECONDS` an iteration (a gradient estimate and a step; the schedule
        sets how many the budget pays for) and `EVALUATION_SECONDS` per evaluation and
        dimension (the path's M features); one path and its trace in memory."""
        d, schedule = int(wildcards.d), wildcards.schedule
        budget = self.settings.budget
        steps = iterations(schedule, d, budget)
        per_path = STEP_SECONDS * steps + EVALUATION_SECONDS * budget * d
        memory = self.fig1.path_mb(d) + 8 * budget * (d + 4) / 2**20
        return START_UP + JobCost(self.settings.num_paths * per_path, START_UP.mem_mb + memory)

    def smoothness_cost(self, wildcards: Any) -> JobCost:
        """`HESSIAN_SECONDS` per 1e4 Hessians at d = 5 with M = 4096 (one core), growing with d^2;
        one path and the points' Hessians (d x d each) at a time."""
        d, s = int(wildcards.d), self.settings
        per_path = HESSIAN_SECONDS * s.smoothness_points / 1e4 * max(1.0, (d / 5) ** 2)
        memory = self.fig1.path_mb(d) + 8 * s.smoothness_points * (d * d + d) / 2**20
        return START_UP + JobCost(s.num_paths * per_path, START_UP.mem_mb + memory)
