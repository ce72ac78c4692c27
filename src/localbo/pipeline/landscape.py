"""Landscape or algorithm? (the paper's open question 1): config section and jobs.

On Fig. 1's own sample paths (the same files, not redrawn) and beside Fig. 1's own runs (read,
not rerun), each job takes one d and a chunk of paths and computes, per path, the population of
local minima (exact-gradient L-BFGS-B from `starts` uniform points of the Fig. 1 box, with the
stopping rule of Fig. 1's `exact_gradient` method, so the method from x = 0 is one member of the
same population) and local BO's step rule with the exact gradient from x = 0 (local BO's
`bfgs_gtol` and budget). Fig. 1 must therefore run `local_bo` at sigma = 0 and `exact_gradient`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from localbo.methods.exact_gradient import ExactGradient, ExactGradientSettings
from localbo.methods.local_bo import LocalBO
from localbo.pipeline.fig1 import Fig1Jobs
from localbo.pipeline.files import path_chunks, sigma_label
from localbo.pipeline.resources import START_UP, JobCost
from localbo.pipeline.sections import as_config

# The Fig. 1 runs each job reads, all at sigma = 0.
FIG1_METHODS = (LocalBO.name, ExactGradient.name)
# Method 3, computed here: local BO's sigma = 0 BFGS with the exact gradient.
EXACT_BFGS = "exact_bfgs"
EXACT_BFGS_LABEL = "exact-gradient BFGS"


def fig1_input(method: str, kind: str) -> str:
    """The name of a landscape job's input holding `method`'s Fig. 1 run files of `kind`
    ("summary" or "traces")."""
    return f"{method}_{kind}"


@dataclass(frozen=True)
class LandscapeSettings:
    """The `landscape` config section.

    Attributes:
        dims: dimensions (each one of fig1.dims).
        num_paths: the first Fig. 1 paths of each d (at most fig1.num_paths).
        starts: R, uniform starts per path; the population of local minima.
        paths_per_job: paths one job runs one after the other.
    """

    dims: tuple[int, ...] = (5, 10, 20, 50)
    num_paths: int = 50
    starts: int = 200
    paths_per_job: int = 25


class LandscapeJobs:
    """What the landscape rules ask: files, per-job parameters and resources.

    Args:
        settings: the `landscape` section. fig1: the Fig. 1 jobs whose paths and runs it reads.
    """

    def __init__(self, settings: LandscapeSettings, fig1: Fig1Jobs) -> None:
        self.settings, self.fig1 = settings, fig1

    def check(self) -> list[str]:
        """The paths and runs the section reads must be Fig. 1's."""
        s, fig1 = self.settings, self.fig1.settings
        errors = [
            f"landscape.dims: d = {d} is not one of fig1.dims {list(fig1.dims)}"
            for d in s.dims
            if d not in fig1.dims
        ]
        if s.num_paths > fig1.num_paths:
            errors.append(
                f"landscape.num_paths: {s.num_paths} paths, but Fig. 1 draws only "
                f"fig1.num_paths = {fig1.num_paths}"
            )
        for name in FIG1_METHODS:
            method = fig1.methods.methods.get(name)
            if method is None:
                errors.append(
                    f"fig1.methods.{name}: the landscape section compares with its Fig. 1 runs; "
                    f"add the method (or drop the landscape figure)"
                )
            elif 0 not in method.jobs.noise_levels:
                errors.append(
                    f"fig1.methods.{name}.noise_levels: must contain 0 (the landscape section "
                    f"reads the sigma = 0 runs)"
                )
            elif missing := sorted(set(s.dims) & set(fig1.dims) - set(fig1.dims_of(name))):
                errors.append(
                    f"fig1.methods.{name}.dims: the landscape section reads its runs at "
                    f"d = {missing}; add them (or drop them from landscape.dims)"
                )
            elif not set(range(min(s.num_paths, fig1.num_paths))) <= set(fig1.paths_of(name)):
                errors.append(
                    f"fig1.methods.{name}.path_range: the landscape section reads its runs on "
                    f"paths 0 to {s.num_paths - 1}; cover them (or lower landscape.num_paths)"
                )
        return errors

    def chunks(self) -> list[list[int]]:
        """Path indices of each job: consecutive blocks of paths_per_job."""
        return path_chunks(self.settings.num_paths, self.settings.paths_per_job)

    def run_files(self, pattern: str) -> list[str]:
        """Every job's file, from the rule's output pattern."""
        return [
            pattern.format(d=d, chunk=c)
            for d in self.settings.dims
            for c in range(len(self.chunks()))
        ]

    def chunk_paths(self, pattern: str, wildcards: Any) -> list[str]:
        """The Fig. 1 path files of one job, from the path rule's output pattern."""
        return [pattern.format(d=wildcards.d, i=i) for i in self.chunks()[int(wildcards.chunk)]]

    def fig1_inputs(self, run_output: Any) -> dict[str, Callable[[Any], list[str]]]:
        """The job's named inputs from the Fig. 1 run rule's outputs (`rules.fig1_run.output`):
        each FIG1_METHODS method's summaries and traces (`fig1_input`)."""
        return {
            fig1_input(method, kind): partial(self.fig1_runs, method, getattr(run_output, kind))
            for method in FIG1_METHODS
            for kind in ("summary", "traces")
        }

    def fig1_runs(self, method: str, pattern: str, wildcards: Any) -> list[str]:
        """The Fig. 1 run files (sigma = 0) of `method` that hold the job's paths, from the Fig. 1
        run rule's output pattern (its summary or its traces)."""
        paths = set(self.chunks()[int(wildcards.chunk)])
        return [
            pattern.format(method=method, d=wildcards.d, sigma=sigma_label(0.0), chunk=c)
            for c, chunk in enumerate(self.fig1.chunks(method))
            if paths & set(chunk)
        ]

    def run_params(self, wildcards: Any) -> dict[str, Any]:
        """What one job depends on: the box, the starts, the stopping rules, its paths."""
        fig1 = self.fig1.settings
        return {
            "seed": self.fig1.seed,
            "box": as_config(fig1.box),
            "starts": self.settings.starts,
            "paths": self.chunks()[int(wildcards.chunk)],
            "minimizer": as_config(self.minimizer()),
            "bfgs_gtol": fig1.local_bo_settings().bfgs_gtol,
            # as many exact gradients as local BO's budget pays for (one of d + 1 evaluations)
            "exact_bfgs_max_calls": fig1.local_bo_budget()[0]
            // LocalBO(fig1.local_bo_settings()).min_budget(int(wildcards.d)),
        }

    def labels(self) -> dict[str, str]:
        """Each method's name in the figure, in the tables' order."""
        fig1 = self.fig1.labels()
        return {**{m: fig1[m] for m in FIG1_METHODS}, EXACT_BFGS: EXACT_BFGS_LABEL}

    def minimizer(self) -> ExactGradientSettings:
        """L-BFGS-B's stopping rule: Fig. 1's exact_gradient method's (its defaults if absent)."""
        method = self.fig1.settings.methods.methods.get(ExactGradient.name)
        return method.optimizer.settings if method is not None else ExactGradientSettings()

    def seconds_per_path(self, d: int) -> float:
        """CPU seconds of one path: R L-BFGS-B runs plus the BFGS descent (one BLAS thread).

        Measured with M = 4096 and R = 200: 0.9, 1.4, 2.2, 4.0 s per path at d = 5, 10, 20, 50,
        about 0.25 ms per value-and-gradient call, 15 + 1.3 d calls per start (median). Model:
        15 + 1.3 d calls of 0.2 ms + 1e-9 M d s (1.6 times the measurement at d = 50).
        """
        calls = 15 + 1.3 * d
        per_call = 2e-4 + 1e-9 * self.fig1.settings.num_features * d
        return (self.settings.starts + 1) * calls * per_call

    def cost(self, wildcards: Any) -> JobCost:
        """Its paths one after the other; one path (M x (d + 2) floats) at a time in memory, with
        its R starts and minima."""
        d, paths = int(wildcards.d), len(self.chunks()[int(wildcards.chunk)])
        memory = self.fig1.path_mb(d) + 2 * self.settings.starts * d * 8 / 2**20
        return START_UP + JobCost(paths * self.seconds_per_path(d), START_UP.mem_mb + memory)
