"""Figs. 4 and 5, gradient estimation of non-smooth functions: the config section, its cases.

Each case is (function, x, n, noise_std); cases with the same x and n share their queries and
noise draws (`localbo.gradient_estimation.run_case`). Fig. 4 draws the two-dimensional cases,
Fig. 5 the one-dimensional ones.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from localbo.designs import Design
from localbo.gradient_estimation import (
    TEST_FUNCTIONS,
    GradientEstimate,
    QueryDesignSettings,
    run_case,
)
from localbo.hyperparameters import FitSettings
from localbo.pipeline.resources import START_UP, JobCost
from localbo.pipeline.sections import as_config, build, build_each

# CPU seconds of one case: its design and its fit (a few points in one or two dimensions)
CASE_SECONDS = 0.5

# A case's ML-II fit: the section's `fit` (ours) or `paper_fit` (the paper code's procedure).
FITS = ("default", "paper")


@dataclass(frozen=True)
class Case:
    """One estimate: the function, the point, the number of queries, the noise."""

    function: str
    x: tuple[float, ...]
    n: int
    noise_std: float = 0.0
    fit: str = "default"  # one of FITS

    def __post_init__(self) -> None:
        if self.function not in TEST_FUNCTIONS:
            raise ValueError(f"unknown function {self.function!r}; known: {sorted(TEST_FUNCTIONS)}")
        if self.fit not in FITS:
            raise ValueError(f"unknown fit {self.fit!r}; known: {FITS}")


# The observation noise of every case: the paper states 0.01 for the ReLU; its code observes
# every case with it (plot_l1_norm.py line 37 and its commented lines 38-40, l2_vs_l1_norm.ipynb
# cell 0: ff and l1 with noise_std=0.01; gradient_estimation.py line 21: relu's default 1e-2)
PAPER_NOISE_STD = 0.01


def _paper_cases() -> dict[str, Case]:
    """The paper's cases: the quadratic and l1 at (0, 1), the ReLU at 0, each observed with
    noise std `PAPER_NOISE_STD`, as the paper's code does."""
    noise = PAPER_NOISE_STD
    return {
        "quadratic_n5": Case("quadratic", (0.0, 1.0), 5, noise),
        "l1_n5": Case("l1", (0.0, 1.0), 5, noise),
        "l1_n10": Case("l1", (0.0, 1.0), 10, noise),
        "relu_n2": Case("relu", (0.0,), 2, noise),
        "relu_n4": Case("relu", (0.0,), 4, noise),
        # Fig. 4 (b) again, fitted as the paper's code fits: the comparison shows both
        "l1_n5_paper_fit": Case("l1", (0.0, 1.0), 5, noise, fit="paper"),
    }


@dataclass(frozen=True)
class Cases:
    """The `gradient_estimation.cases` section: name -> case."""

    cases: dict[str, Case] = field(default_factory=_paper_cases)

    @classmethod
    def from_config(cls, mapping: dict[str, Any], where: str) -> tuple[Cases, list[str]]:
        cases, errors = build_each(mapping, where, lambda _, case, key: build(Case, case, key))
        return cls(cases), errors

    def as_config(self) -> dict[str, Any]:
        return {name: as_config(case) for name, case in self.cases.items()}


# The paper's code's fit (utils.update_model, lines 77-104): its full-batch L-BFGS for 50
# iterations from GPyTorch's initial values, in GPyTorch's parameters: lengthscale and
# outputscale softplus(raw) (Positive), the noise 1e-4 + softplus(raw) (GreaterThan(1e-4)).
PAPER_FIT = FitSettings(
    optimizer="full_batch_lbfgs",
    restarts=1,
    max_iterations=50,
    lengthscale_bounds=(0.0, math.inf),
    outputscale_bounds=(0.0, math.inf),
    noise_var_bounds=(1e-4, math.inf),
    start="gpytorch",
)


# The paper's code's design (utils.get_query_points, lines 24-74): the trace of the joint
# posterior covariance of (f(x), grad f(x)) (zoofoo/model.py lines 108-117 with no data), its
# full-batch L-BFGS for at most 200 iterations with its plateau stop, from one start
# x + 1e-4 / sqrt(d) * N(0, I).
PAPER_DESIGN = QueryDesignSettings(
    criterion="joint",
    optimizer="full_batch_lbfgs",
    restarts=1,
    start_std=1e-4,
    start_over_sqrt_d=True,
    max_iterations=200,
)
# The procedures a case's distribution is drawn by: the case's own settings, and the paper code's
PROCEDURES = ("ours", "paper")


@dataclass(frozen=True)
class GradientEstimationSettings:
    """The `gradient_estimation` config section (paper section 6.3 and appendix).

    Attributes:
        kernel: kernel family of the design GP and of the fitted GP (paper: Matern-5/2).
        design: the design GP and its optimizer. fit: the ML-II fit (ours).
        paper_fit: the ML-II fit of the paper's code, for cases with `fit: paper`.
        cases: the estimates. fig4, fig5: the cases each figure draws, left to right.
        draws: draws of each case's random parts (the design's starts, the noise, the fit's
            starts) for its distribution, by our procedure and the paper's; draw 0 is the
            figures' (the config's `seed`).
        paper_design: the design optimizer of the paper's code, its procedure's (with
            `paper_fit`).
    """

    kernel: str = "matern52"
    design: QueryDesignSettings = field(default_factory=QueryDesignSettings)
    fit: FitSettings = field(default_factory=FitSettings)
    paper_fit: FitSettings = field(default_factory=lambda: PAPER_FIT)
    cases: Cases = field(default_factory=Cases)
    fig4: tuple[str, ...] = ("quadratic_n5", "l1_n5", "l1_n10")
    fig5: tuple[str, ...] = ("relu_n2", "relu_n4")
    draws: int = 200
    paper_design: QueryDesignSettings = field(default_factory=lambda: PAPER_DESIGN)

    def departures(self) -> str:
        """How our procedure departs from the paper code's: the keys of `design` and `fit` that
        differ from `paper_design` and `paper_fit`, each with ours and (the code's)."""
        from localbo.pipeline.paper_code import departures

        parts = [
            f"{name} ({keys})"
            for name, keys in (
                ("design", departures(self.design, self.paper_design)),
                ("fit", departures(self.fit, self.paper_fit)),
            )
            if keys
        ]
        return " and ".join(parts) or "no setting"

    def check(self) -> list[str]:
        """Panels name existing cases of the right dimension (Fig. 4: 2, Fig. 5: 1); the fits'
        boxes check themselves (`FitSettings`)."""
        section, cases, errors = "gradient_estimation", self.cases.cases, []
        for figure, dim in (("fig4", 2), ("fig5", 1)):
            for name in getattr(self, figure):
                if name not in cases:
                    errors.append(
                        f"{section}.{figure}: unknown case {name!r}; known: {sorted(cases)}"
                    )
                elif len(cases[name].x) != dim:
                    errors.append(
                        f"{section}.{figure}: case {name!r} has dimension {len(cases[name].x)}, "
                        f"the figure draws dimension {dim}"
                    )
        return errors


class GradientEstimationJobs:
    """What the Figs. 4 and 5 rules ask: case files and per-case parameters.

    Args:
        seed: the config's base seed. settings: the `gradient_estimation` section.
    """

    def __init__(self, seed: int, settings: GradientEstimationSettings) -> None:
        self.seed, self.settings = seed, settings
        self.cases = list(settings.cases.cases)

    @staticmethod
    def files(cases: tuple[str, ...] | list[str], pattern: str) -> list[str]:
        """The files of some cases, from a rule's output pattern."""
        return [pattern.format(case=case) for case in cases]

    def params(self, wildcards: Any) -> dict[str, Any]:
        """The knobs one case depends on, and nothing else (a new case never reruns others)."""
        s = self.settings
        case = s.cases.cases[wildcards.case]
        return {
            "seed": self.seed,
            "kernel": s.kernel,
            "design": as_config(s.design),
            "fit": as_config(s.fit if case.fit == "default" else s.paper_fit),
            "case": as_config(case),
        }

    @staticmethod
    def cost(wildcards: Any = None) -> JobCost:
        """A design of a few points and an ML-II fit to them: well under a second."""
        return START_UP + JobCost(CASE_SECONDS, START_UP.mem_mb)

    @property
    def distributed(self) -> list[str]:
        """The cases drawn many times: those fitted by our procedure (a `fit: paper` case is
        the paper's procedure on our design, which the paper's procedure covers)."""
        return [n for n, c in self.settings.cases.cases.items() if c.fit == "default"]

    def code_cases(self) -> dict[str, dict[str, Any]]:
        """The drawn cases the paper's code ran (`localbo.pipeline.paper_code`): those named and
        set as the paper's, name -> the case's config."""
        paper = _paper_cases()
        return {
            name: as_config(case)
            for name, case in self.settings.cases.cases.items()
            if name in self.distributed and paper.get(name) == case
        }

    def draw_files(self, pattern: str) -> list[str]:
        """Every (case, procedure) job's file, from the rule's output pattern."""
        return [
            pattern.format(case=case, procedure=procedure)
            for case in self.distributed
            for procedure in PROCEDURES
        ]

    @staticmethod
    def draw_key(path: str | Path) -> tuple[str, str]:
        """The (case, procedure) of a draws file, in a run directory ("l1_n5_ours.csv") or in a
        gallery ("gradient_estimation-draws-l1_n5_ours.csv").

        Example:
            >>> GradientEstimationJobs.draw_key("gradient_estimation-draws-l1_n5_ours.csv")
            ('l1_n5', 'ours')
        """
        case, _, procedure = Path(path).stem.split("-")[-1].rpartition("_")
        return case, procedure

    def draw_params(self, wildcards: Any) -> dict[str, Any]:
        """A case's knobs by one procedure (ours: the case's; the paper's: its design and fit)
        and the draws."""
        s, paper = self.settings, wildcards.procedure == "paper"
        return {
            **self.params(wildcards),
            "design": as_config(s.paper_design if paper else s.design),
            "fit": as_config(s.paper_fit) if paper else self.params(wildcards)["fit"],
            "draws": s.draws,
        }

    def draw_cost(self, wildcards: Any) -> JobCost:
        """`draws` estimates one after the other."""
        return START_UP + JobCost(self.settings.draws * CASE_SECONDS, START_UP.mem_mb)


def run_job(params: dict[str, Any], draw: int = 0) -> tuple[Design, np.ndarray, GradientEstimate]:
    """One case from the parameters `GradientEstimationJobs.params` (or `draw_params`) gave
    its job, at one draw of its random parts."""
    case = build(Case, params["case"], "case")
    return run_case(
        case.function,
        np.asarray(case.x, dtype=float),
        case.n,
        case.noise_std,
        params["seed"],
        params["kernel"],
        build(QueryDesignSettings, params["design"], "design"),
        build(FitSettings, params["fit"], "fit"),
        draw,
    )


def completed(draws: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rows of a draws table whose fit did not fail (`failed` empty; a table written before
    the column existed has none that failed)."""
    return [r for r in draws if not r.get("failed")]


# An estimate agrees with the paper's when it lies within this (Euclidean) distance of it
PAPER_DISTANCE = 0.1
DISTRIBUTION_COLUMNS = [
    "case", "procedure", "component", "draws", "paper", "median", "low", "high",
    "share_near_paper", "share_in_subdifferential", "failed",
]  # fmt: skip


def distribution(
    case: str, procedure: str, draws: list[dict[str, str]], band: float = 0.9
) -> list[dict[str, Any]]:
    """A (case, procedure)'s distribution over its completed draws (rows of its draws table), a
    row per component of the estimate: the paper's value, the median, the central `band` (5 %
    and 95 % for 0.9), the share of draws within `PAPER_DISTANCE` of the paper's estimate (all
    components), the share in the subdifferential, and how many draws failed (`completed`)."""
    failed = len(draws) - len(completed(draws))
    draws = completed(draws)
    components = sorted(k for k in draws[0] if k.startswith("grad_"))
    near = [
        r["paper_distance"] != "" and float(r["paper_distance"]) <= PAPER_DISTANCE for r in draws
    ]
    inside = [float(r["error"]) <= 1e-12 for r in draws]
    rows = []
    for k in components:
        values = np.array([float(r[k]) for r in draws])
        low, high = np.quantile(values, [(1 - band) / 2, (1 + band) / 2])
        paper = draws[0]["paper_" + k]
        rows.append(
            {
                "case": case,
                "procedure": procedure,
                "component": int(k.removeprefix("grad_")),
                "draws": len(draws),
                "paper": float(paper) if paper != "" else "",
                "median": float(np.median(values)),
                "low": float(low),
                "high": float(high),
                "share_near_paper": float(np.mean(near)) if paper != "" else "",
                "share_in_subdifferential": float(np.mean(inside)),
                "failed": failed,
            }
        )
    return rows


def share_closer(first: list[dict[str, str]], second: list[dict[str, str]]) -> float:
    """The share of draws in which the first case's estimate is closer to its subdifferential
    than the second's at the same draw (the paper's "n = 10 beats n = 5"), over the draws both
    completed."""
    pairs = [
        (a, b)
        for a, b in zip(first, second, strict=False)
        if not (a.get("failed") or b.get("failed"))
    ]
    return float(np.mean([float(a["error"]) < float(b["error"]) for a, b in pairs]))
