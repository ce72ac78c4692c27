"""Fig. 2, the error function: its config section, its (d, b) grid and what one job needs.

Panel (a) fixes d and puts b on a log grid, panel (b) fixes b and puts d on one; a (d, b, sigma)
point is shared where the panels meet. A job estimates `points_per_job` points one after the
other: one at paper scale (each its own cluster allocation, runtime and memory), all of a figure
where each takes less than a job's start-up (the quick and test configs). Designs above `large_b`
get fewer restarts and iterations and two BLAS threads (one b = 1e4 evaluation costs seconds,
and the differencing start is already close; two threads pay off only there: measured 1.8x at
b = 1e4, 1.1x at b = 2000, and slower than one thread on a busy node,
`bench/bench_error_function.py`).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from localbo.error_function import PAPER_BOUND_LEMMAS, ErrorFunctionSettings
from localbo.pipeline.files import sigma_label
from localbo.pipeline.resources import START_UP, JobCost
from localbo.pipeline.sections import as_config, kernel_params, more_than


def log_grid(low: float, high: float, num: int) -> list[int]:
    """`num` log-spaced values from `low` to `high`, rounded to integers, duplicates removed.

    Example:
        >>> log_grid(1, 100, 10)
        [1, 2, 3, 5, 8, 13, 22, 36, 60, 100]
    """
    if not 0 < low <= high or num < 1:
        raise ValueError(f"need 0 < low <= high and num >= 1, got {low}, {high}, {num}")
    values = np.rint(np.geomspace(low, high, num)).astype(int)
    return sorted({int(v) for v in values})


@dataclass(frozen=True)
class PanelA:
    """Panel (a): dimension d, `num` batch sizes log-spaced from b_min (paper: 2d) to b_max."""

    d: int = 10
    b_min: int = 20
    b_max: int = 10000
    num: int = 10


@dataclass(frozen=True)
class PanelB:
    """Panel (b): batch size b, `num` dimensions log-spaced from d_min to d_max."""

    b: int = 500
    d_min: int = 1
    d_max: int = 100
    num: int = 10


@dataclass(frozen=True)
class Fig2Settings:
    """The `fig2` config section (paper section 6.1: Matern-5/2, unit hyperparameters).

    Attributes:
        kernel, lengthscale, outputscale: the GP (the bounds assume unit hyperparameters).
        noise_levels: noise standard deviations, one line each (not listed in the paper).
        panel_a, panel_b: the two panels' grids.
        estimate: the L-BFGS estimate's knobs (`ErrorFunctionSettings`).
        large_b: designs with b above this use `large_restarts` and `large_max_iterations`.
        points_per_job: (d, b, sigma) points estimated one after the other in one job.
    """

    kernel: str = "matern52"
    lengthscale: float = 1.0
    outputscale: float = 1.0
    noise_levels: tuple[float, ...] = (0.01, 0.1, 1.0)
    panel_a: PanelA = field(default_factory=PanelA)
    panel_b: PanelB = field(default_factory=PanelB)
    estimate: ErrorFunctionSettings = field(default_factory=ErrorFunctionSettings)
    large_b: int = 3000
    large_restarts: int = 1
    large_max_iterations: int = 150
    points_per_job: int = 1

    @property
    def bound_lemma(self) -> str:
        """The lemma whose bound Fig. 2 draws beside the estimate (`paper_bound`)."""
        return PAPER_BOUND_LEMMAS[self.kernel]

    def check(self) -> list[str]:
        """Problems the schema cannot see, each starting with its dotted key."""
        a, b = self.panel_a, self.panel_b
        return more_than("fig2.panel_a.b_min", a.b_min, "fig2.panel_a.b_max", a.b_max) + more_than(
            "fig2.panel_b.d_min", b.d_min, "fig2.panel_b.d_max", b.d_max
        )

    def panels(self) -> dict[str, list[tuple[int, int]]]:
        """The (d, b) points of panel "a" (d fixed) and panel "b" (b fixed)."""
        a, b = self.panel_a, self.panel_b
        return {
            "a": [(a.d, bb) for bb in log_grid(a.b_min, a.b_max, a.num)],
            "b": [(dd, b.b) for dd in log_grid(b.d_min, b.d_max, b.num)],
        }

    def points(self) -> list[tuple[int, int]]:
        """Every (d, b) of both panels, deduplicated: a job is shared when the panels meet."""
        return sorted(set().union(*self.panels().values()))

    def is_large(self, b: int) -> bool:
        """Whether a batch size gets the large-design settings (restarts, iterations, threads)."""
        return b > self.large_b

    def blas_threads(self, b: int) -> int:
        """BLAS threads of the job at batch size b: two only for large designs."""
        return 2 if self.is_large(b) else 1

    def estimate_at(self, b: int) -> ErrorFunctionSettings:
        """The estimate's settings at batch size b (fewer restarts and iterations when large)."""
        if not self.is_large(b):
            return self.estimate
        return dataclasses.replace(
            self.estimate, restarts=self.large_restarts, max_iterations=self.large_max_iterations
        )


def estimates_by_panel(
    estimates: list[dict[str, Any]], panels: dict[str, list[list[int]]]
) -> list[tuple[str, dict[str, Any]]]:
    """(panel, estimate) for every estimate summary (with "d" and "b") in every panel whose
    (d, b) points hold it: a job shared by both panels appears once in each.

    Args:
        estimates: the jobs' JSON summaries. panels: `Fig2Settings.panels()` as job parameters.
    """
    points = {panel: set(map(tuple, pts)) for panel, pts in panels.items()}
    return [
        (panel, est)
        for est in estimates
        for panel, pts in points.items()
        if (est["d"], est["b"]) in pts
    ]


# The share of its iteration cap an L-BFGS restart over a design takes on average
ITERATIONS_USED = 1.0


def eval_seconds(b: int) -> float:
    """CPU seconds of one alpha_trace evaluation with its gradient at d = 10, one thread: kernel
    and slope blocks about 1.5e-8 b^2, the Cholesky about 1e-11 b^3, fitted to the jobs' logged
    CPU with both cores busy (bench/results/forecast_check.jsonl); alone on an idle core
    (bench/bench_error_function.py) an evaluation takes about 0.7 times that."""
    return 1.5e-8 * b**2 + 1e-11 * b**3


Point = tuple[int, int, float]  # (d, b, sigma)


def point_label(d: int, b: int, sigma: float) -> str:
    """A point's name in file names and kept runs.

    Example:
        >>> point_label(10, 20, 0.1)
        'd10_b20_sigma0.1'
    """
    return f"d{d}_b{b}_sigma{sigma_label(sigma)}"


class Fig2Jobs:
    """What the Fig. 2 rules ask: output files, per-job parameters and resources.

    A job is named by its `points` wildcard: the point's label (`point_label`) when it holds one,
    `points<k>` for the k-th of `points_per_job` points.

    Args:
        seed: the config's base seed. settings: the `fig2` section.
    """

    def __init__(self, seed: int, settings: Fig2Settings) -> None:
        self.seed, self.settings = seed, settings
        self.jobs: dict[str, list[Point]]  # each job's name -> its points, in order
        points = [(d, b, s) for d, b in settings.points() for s in settings.noise_levels]
        size = settings.points_per_job
        if size == 1:
            self.jobs = {point_label(*point): [point] for point in points}
        else:
            starts = range(0, len(points), size)
            self.jobs = {f"points{k}": points[i : i + size] for k, i in enumerate(starts)}

    def estimates(self, pattern: str) -> list[str]:
        """The estimate files of every job, from the rule's output pattern."""
        return [pattern.format(points=name) for name in self.jobs]

    def params(self, wildcards: Any) -> dict[str, Any]:
        """What one job depends on, and nothing else (a new noise level or panel point never
        reruns a job of one point): the seed, the kernel and each point with its estimate's
        settings."""
        return {
            "seed": self.seed,
            **kernel_params(self.settings),
            "points": [
                {"d": d, "b": b, "sigma": s, "estimate": as_config(self.settings.estimate_at(b))}
                for d, b, s in self.jobs[wildcards.points]
            ],
        }

    def threads(self, wildcards: Any) -> int:
        return max(self.settings.blas_threads(b) for _, b, _ in self.jobs[wildcards.points])

    def cost(self, wildcards: Any) -> JobCost:
        """Per point, `ITERATIONS_USED` of the restarts' iteration caps (plus 10 evaluations
        each) at the measured cost of an evaluation; the peak of one evaluation at the job's
        largest b, K (b x b) and the slope matrix's upper blocks, about 1.5 b x b matrices
        (1.22 GB measured at b = 1e4)."""
        seconds, largest = 0.0, 0
        for _, b, _ in self.jobs[wildcards.points]:
            estimate = self.settings.estimate_at(b)
            iterations = ITERATIONS_USED * estimate.max_iterations + 10
            seconds += estimate.restarts * iterations * eval_seconds(b)
            largest = max(largest, b)
        return START_UP + JobCost(seconds, START_UP.mem_mb + 1.5 * 8 * largest**2 / 2**20)
