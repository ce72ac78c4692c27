"""Empirical convergence rates (issue 12, paper Corollaries 1 and 2): config section and jobs.

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

from localbo.convergence import NOISELESS_SCHEDULE
from localbo.local_bo import BATCH_SCHEDULES, NOISY_KNOBS, STEP_RULES, LocalBOSettings
from localbo.pipeline.fig1 import Fig1Jobs
from localbo.pipeline.fig2 import log_grid
from localbo.pipeline.files import sigma_label
from localbo.pipeline.sections import as_config, knobs

# The local-BO knobs a rates run does not take from Fig. 1: those it sets itself, the schedule's
# batch and data window (`localbo.convergence.schedule_settings`) and the step
# (scripts/rates_run.py), and bfgs_gtol, which its driver (`run_noisy`, at every sigma) never reads.
SET_BY_RATES = (*NOISY_KNOBS, "data_window", "bfgs_gtol")
TAKEN_FROM_FIG1 = tuple(f.name for f in fields(LocalBOSettings) if f.name not in SET_BY_RATES)


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

    def run_runtime(self, wildcards: Any) -> int:
        """Minutes: twice the measured CPU per path and 1e5 evaluations, plus 5 minutes.

        The paper-scale run's d = 1 runs with b_t <= 2 (the most iterations) took 10-25 s a path,
        its 30 jobs 68 s each on average (figures/paper/provenance.json); on three paths of each
        job of config/config.yaml (one core, beside two other jobs) at most 20 s a path, at d = 1
        with b_t = d and sigma = 0.1.
        """
        per_path = 25.0 * self.settings.budget / 1e5
        seconds = 2 * per_path * self.settings.num_paths
        return int(5 + math.ceil(seconds / 60))

    def smoothness_runtime(self, wildcards: Any) -> int:
        """Minutes: about 2 s per 1e4 Hessians at d = 5 with M = 4096 (one core), d^2 growth."""
        d = int(wildcards.d)
        per_path = 2.0 * self.settings.smoothness_points / 1e4 * max(1.0, (d / 5) ** 2)
        return int(5 + math.ceil(2 * self.settings.num_paths * per_path / 60))
