"""The sensitivity study: the choices the paper leaves open, varied one at a time from ours, on
the rows of the paper comparison they may explain.

Each choice takes each of its values with every other choice at our default, on the same path
indices, starts and draws as the row it explains (a path drawn with another number of features
is drawn from the same stream: its index and stream stay), and each setting is judged by the
row's rule (`localbo.pipeline.paper_comparison`):

- Fig. 3 (`fig3_best_of_1`; k = 10 as information): `runs` noiseless local-BO runs on each of
  `paths` paths of Fig. 3's stream (the main path and the other paths), for each value of the
  number of features, the budget, the sigma = 0 step rule (`localbo.methods.local_bo.noiseless.
  MINIMIZERS`) and the box the starts are drawn from; run i on a path starts where Fig. 3's does
  (`rng_for(seed, "fig3", "start", index, i)`, and the main path's `rng_for(seed, "fig3",
  "start", i)`), mapped into the box. Each path's amplitude (the root mean square of its
  feature weights w_i ~ N(0, 1), the overall scale its features happen to give it) is kept.
- Fig. 1 (`fig1_median`): local BO at sigma = 0 in d = 50 on Fig. 1's paths, for each number of
  features.
- Figs. 4 and 5 (`draws:CASE:PROCEDURE`): each procedure (ours, the paper code's) with one of
  its knobs changed: the design (ours or the paper code's), the fit's start (our random starts
  or GPyTorch's initial values, with each one's restarts and iterations), the noise variance's
  and the lengthscale's lower bounds; `draws` draws each.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from localbo.hyperparameters import FIT_STARTS
from localbo.pipeline.fig1 import Fig1Jobs
from localbo.pipeline.fig3 import RUN_SECONDS, Fig3Jobs
from localbo.pipeline.gradient_estimation import (
    CASE_SECONDS,
    PROCEDURES,
    GradientEstimationJobs,
)
from localbo.pipeline.resources import START_UP, JobCost
from localbo.pipeline.sections import as_config

DEFAULT = "default"
START_BOXES = ("fig1", "unit", "ball")
# CPU seconds of one noiseless local-BO run at d = 50 with Fig. 1's budget: a part that does not
# grow with the features (the design, the BFGS steps) and one that does, per 16384 features
# (measured: 0.20 s at M = 4096, 0.30 s at 16384)
FIG1_RUN_SECONDS, FIG1_FEATURE_SECONDS = 0.15, 0.15
# Evaluations after which a noiseless local-BO run in d = 100 has stopped by itself (BFGS's own
# stop: 15 000-23 000 on Fig. 3's main path)
FIG3_SELF_STOP = 25000
TABLE_COLUMNS = [
    "explains", "quantity", "choice", "value", "default", "procedure", "ours", "ours_low",
    "ours_high", "paper", "p_value", "verdict",
]  # fmt: skip
PATH_COLUMNS = ["choice", "value", "path", "amplitude", "k1", "k10"]


@dataclass(frozen=True)
class Fig3Choices:
    """Fig. 3's choices and their values (each list holds our default).

    Attributes:
        paths: Fig. 3's paths 0 (the main one) to paths - 1, in one job per setting. runs:
            runs on each path.
        num_features: M of the paths. budget: evaluations of a run. minimizer: the sigma = 0
            step rule. start_box: where starts are drawn: "fig1" (Fig. 1's box), "unit" (the
            unit cube [0, 1]^d), "ball" (the ball of radius ball_radius around 0).
        gradient_step: the fixed step of the "gradient" rule. ball_radius: of "ball".
    """

    paths: int = 19
    runs: int = 100
    num_features: tuple[int, ...] = (1024, 4096, 16384, 65536)
    budget: tuple[int, ...] = (5000, 10000, 100000)
    minimizer: tuple[str, ...] = ("bfgs", "lbfgs", "gradient")
    start_box: tuple[str, ...] = START_BOXES
    gradient_step: float = 0.1
    ball_radius: float = 1.0

    def __post_init__(self) -> None:
        from localbo.methods.local_bo.noiseless import MINIMIZERS

        for name, known in (("minimizer", tuple(MINIMIZERS)), ("start_box", START_BOXES)):
            unknown = sorted(set(getattr(self, name)) - set(known))
            if unknown:
                raise ValueError(f"{name}: unknown {unknown}; known: {list(known)}")


@dataclass(frozen=True)
class Fig1Choices:
    """Fig. 1's choices at one d: the number of features (each list holds our default)."""

    d: int = 50
    num_features: tuple[int, ...] = (1024, 4096, 16384, 65536)
    paths_per_job: int = 10


@dataclass(frozen=True)
class GradientChoices:
    """Figs. 4 and 5's choices (each list holds both procedures' values).

    Attributes:
        draws: draws of each case by each setting.
        design: the design, "ours" or "paper" (the section's `design` or `paper_design`).
        fit_start: the fit's starts, "random" (`fit`'s) or "gpytorch" (`paper_fit`'s), each with
            its restarts and iterations.
        noise_floor, lengthscale_floor: the lower bounds of the fit's noise variance and
            lengthscale.
    """

    draws: int = 200
    design: tuple[str, ...] = PROCEDURES
    fit_start: tuple[str, ...] = FIT_STARTS
    noise_floor: tuple[float, ...] = (1e-6, 1e-4, 1e-2)
    lengthscale_floor: tuple[float, ...] = (1e-4, 0.1)


@dataclass(frozen=True)
class SensitivitySettings:
    """The `sensitivity` config section (the module docstring)."""

    fig3: Fig3Choices = field(default_factory=Fig3Choices)
    fig1: Fig1Choices = field(default_factory=Fig1Choices)
    gradient_estimation: GradientChoices = field(default_factory=GradientChoices)


def setting_name(choice: str, value: Any) -> str:
    """A setting's name in file names: "num_features-16384", "noise_floor-1e-06"."""
    return f"{choice}-{value:g}" if isinstance(value, float) else f"{choice}-{value}"


class SensitivityJobs:
    """What the study's rules ask: settings, files, per-job parameters and costs.

    Args:
        settings: the section. fig3: Fig. 3's jobs (its path, design and Fig. 1's knobs).
        gradient: Figs. 4 and 5's jobs.
    """

    def __init__(
        self, settings: SensitivitySettings, fig3: Fig3Jobs, gradient: GradientEstimationJobs
    ) -> None:
        self.settings, self.fig3, self.gradient = settings, fig3, gradient
        self.fig1: Fig1Jobs = fig3.fig1

    # ---- Fig. 3 ----

    def fig3_defaults(self) -> dict[str, Any]:
        """Our value of each Fig. 3 choice."""
        return {
            "num_features": self.fig3.num_features,
            "budget": self.fig3.budget,
            "minimizer": "bfgs",
            "start_box": "fig1",
        }

    def fig3_settings(self) -> dict[str, tuple[str, Any]]:
        """Each Fig. 3 setting's name -> (choice, value); our defaults are one setting."""
        settings = {DEFAULT: ("", None)}
        defaults = self.fig3_defaults()
        for choice, default in defaults.items():
            for value in getattr(self.settings.fig3, choice):
                if value != default:
                    settings[setting_name(choice, value)] = (choice, value)
        return settings

    def fig3_files(self, pattern: str) -> list[str]:
        return [pattern.format(setting=s) for s in self.fig3_settings()]

    def fig3_params(self, wildcards: Any) -> dict[str, Any]:
        """A setting's job's parameters: Fig. 3's model with the setting's value, and its paths
        (the main one's index is `main`)."""
        choices = self.settings.fig3
        values = self.fig3_defaults()
        choice, value = self.fig3_settings()[wildcards.setting]
        if choice:
            values[choice] = value
        main = self.fig3.settings.path_index
        return {
            **self.fig3.model_params(),
            "num_features": values["num_features"],
            "paths": list(range(main, main + choices.paths)),
            "main": main,
            "budget": values["budget"],
            "minimizer": values["minimizer"],
            "start_box": values["start_box"],
            "box": as_config(self.fig1.settings.box),
            "gradient_step": choices.gradient_step,
            "ball_radius": choices.ball_radius,
            "runs": choices.runs,
        }

    def fig3_cost(self, wildcards: Any) -> JobCost:
        """`runs` runs on each path at Fig. 3's cost per run, scaled by the setting's features
        and budget; a budget counts up to `FIG3_SELF_STOP` evaluations per 100 dimensions,
        where BFGS stops by itself."""
        p = self.fig3_params(wildcards)
        budget = min(p["budget"], FIG3_SELF_STOP * p["d"] / 100)
        scale = (p["d"] / 100) * (budget / 5000) * (p["num_features"] / 4096)
        seconds = len(p["paths"]) * p["runs"] * RUN_SECONDS * scale
        mb = 3 * p["num_features"] * (p["d"] + 2) * 8 / 2**20
        return START_UP + JobCost(seconds, START_UP.mem_mb + mb)

    # ---- Fig. 1 ----

    def fig1_settings(self) -> dict[str, int]:
        """Each Fig. 1 setting's name -> its number of features (ours: "default")."""
        ours = self.fig1.settings.num_features
        return {
            DEFAULT if m == ours else setting_name("num_features", m): m
            for m in sorted({*self.settings.fig1.num_features, ours})
        }

    def fig1_chunks(self) -> list[list[int]]:
        step = self.settings.fig1.paths_per_job
        n = self.fig1.settings.num_paths
        return [list(range(k, min(k + step, n))) for k in range(0, n, step)]

    def fig1_files(self, pattern: str) -> list[str]:
        return [
            pattern.format(setting=s, chunk=c)
            for s in self.fig1_settings()
            for c in range(len(self.fig1_chunks()))
        ]

    def fig1_params(self, wildcards: Any) -> dict[str, Any]:
        """A (setting, chunk) job's parameters: Fig. 1's local BO at sigma = 0 in d."""
        return {
            **self.fig1.run_settings("local_bo", 0.0),
            "num_features": self.fig1_settings()[wildcards.setting],
            "d": self.settings.fig1.d,
            "paths": self.fig1_chunks()[int(wildcards.chunk)],
        }

    def fig1_cost(self, wildcards: Any) -> JobCost:
        """Its runs at `FIG1_RUN_SECONDS` and `FIG1_FEATURE_SECONDS`, scaled with d and the
        budget."""
        p = self.fig1_params(wildcards)
        run = FIG1_RUN_SECONDS + FIG1_FEATURE_SECONDS * p["num_features"] / 16384
        seconds = len(p["paths"]) * run * (p["d"] / 50) * (p["budget"] / 5000)
        mb = 2 * p["num_features"] * (p["d"] + 2) * 8 / 2**20
        return START_UP + JobCost(seconds, START_UP.mem_mb + mb)

    # ---- Figs. 4 and 5 ----

    def gradient_settings(self) -> dict[str, tuple[str, str, Any]]:
        """Each Figs. 4-5 setting's name -> (procedure, choice, value): each procedure with one
        knob at a value other than its own."""
        settings = {}
        for procedure in PROCEDURES:
            own = self.gradient_own(procedure)
            for choice, mine in own.items():
                for value in getattr(self.settings.gradient_estimation, choice):
                    if value != mine:
                        name = f"{procedure}-{setting_name(choice, value)}"
                        settings[name] = (procedure, choice, value)
        return settings

    def gradient_own(self, procedure: str) -> dict[str, Any]:
        """A procedure's own value of each choice."""
        s = self.gradient.settings
        fit = s.paper_fit if procedure == "paper" else s.fit
        return {
            "design": procedure,
            "fit_start": "gpytorch" if fit.start == "gpytorch" else "random",
            "noise_floor": fit.noise_var_bounds[0],
            "lengthscale_floor": fit.lengthscale_bounds[0],
        }

    def gradient_files(self, pattern: str) -> list[str]:
        return [
            pattern.format(setting=s, case=c)
            for s in self.gradient_settings()
            for c in self.gradient.distributed
        ]

    def gradient_params(self, wildcards: Any) -> dict[str, Any]:
        """A (setting, case) job's parameters, those of `gradient_estimation_draws` with the
        setting's knob changed."""
        procedure, choice, value = self.gradient_settings()[wildcards.setting]
        s = self.gradient.settings
        base = self.gradient.draw_params(_Wildcards(wildcards.case, procedure))
        design = s.paper_design if procedure == "paper" else s.design
        fit = s.paper_fit if procedure == "paper" else s.fit
        if choice == "design":
            design = s.paper_design if value == "paper" else s.design
        elif choice == "fit_start":
            other = s.paper_fit if value == "gpytorch" else s.fit
            fit = dataclasses.replace(
                fit, restarts=other.restarts, max_iterations=other.max_iterations,
                start=other.start,
            )  # fmt: skip
        elif choice == "noise_floor":
            fit = dataclasses.replace(fit, noise_var_bounds=(value, fit.noise_var_bounds[1]))
        else:
            fit = dataclasses.replace(fit, lengthscale_bounds=(value, fit.lengthscale_bounds[1]))
        return {
            **base,
            "design": as_config(design),
            "fit": as_config(fit),
            "draws": self.settings.gradient_estimation.draws,
        }

    def gradient_cost(self, wildcards: Any) -> JobCost:
        draws = self.settings.gradient_estimation.draws
        return START_UP + JobCost(draws * CASE_SECONDS, START_UP.mem_mb)

    def table_params(self) -> dict[str, Any]:
        """What the table needs of the settings (`table`): each figure's settings by name, our
        number of features, the cases drawn."""
        return {
            "fig3": self.fig3_settings(),
            "fig1": self.fig1_settings(),
            "ours_features": self.fig1.settings.num_features,
            "gradient": self.gradient_settings(),
            "cases": list(self.gradient.distributed),
        }


@dataclass(frozen=True)
class _Wildcards:
    """The wildcards `GradientEstimationJobs.draw_params` reads."""

    case: str
    procedure: str


def amplitude(weights: np.ndarray, outputscale: float) -> float:
    """A path's amplitude: the root mean square of its features' N(0, 1) weights w_i, from its
    stored weights sqrt(s2) sqrt(2 / M) w_i (M, ).

    Example:
        >>> amplitude(np.sqrt(2 / 4) * np.array([1.0, -1.0, 1.0, -1.0]), 1.0)
        1.0
    """
    w = weights / (math.sqrt(outputscale) * math.sqrt(2 / len(weights)))
    return float(np.sqrt(np.mean(w**2)))


def fig3_curve(values: np.ndarray, index: int, seed: int, orderings: int) -> tuple[float, float]:
    """A path's median single run (k = 1) and median best of 10 (k = 10, NaN with fewer runs)
    over `orderings` random orders of its runs' values (n,), with Fig. 3's stream of the path's
    orders."""
    from localbo.restarts import best_after_restarts
    from localbo.seeding import rng_for

    k = min(10, len(values))
    curve = best_after_restarts(
        values, k, orderings, 0.9, rng_for(seed, "fig3", "orderings", index)
    )
    return float(curve.median[0]), float(curve.median[9]) if k == 10 else math.nan


def table(
    fig3: dict[str, list[dict[str, Any]]],
    fig1: dict[str, np.ndarray],
    gradient: dict[tuple[str, str], list[dict[str, str]]],
    settings: dict[str, Any],
    alpha: float,
    resamples: int,
    seed: int,
) -> list[dict[str, Any]]:
    """The study's table: a row per setting and row explained, our number by the row's rule.

    Args:
        fig3: per Fig. 3 setting, each path's row (path, amplitude, k1, k10; `fig3_curve`).
        fig1: per Fig. 1 setting, its paths' values (n,).
        gradient: per (setting, case), its draws table's rows; the procedures' own settings
            under (DEFAULT + "-" + procedure, case).
        settings: `SensitivityJobs.table_params`. alpha, resamples: the comparison's
            (`PaperComparisonSettings`). seed: the base seed.
    """
    from localbo.paired_comparison import median_interval
    from localbo.pipeline.paper_claims import CLAIMS
    from localbo.pipeline.paper_comparison import Ours, judge
    from localbo.seeding import rng_for

    claims = {c.key: c for c in CLAIMS}
    rows = []

    def row(key: str, choice: str, value: Any, mine: Ours, procedure: str = "") -> None:
        claim = claims[key]
        found = judge(claim, mine, alpha, rng_for(seed, "sensitivity", key, choice, str(value)))
        rows.append(
            {
                "explains": key,
                "quantity": claim.quantity,
                "choice": choice or "ours",
                "value": "" if value is None else value,
                "default": not choice,
                "procedure": procedure,
                "ours": mine.value,
                "ours_low": mine.low,
                "ours_high": mine.high,
                "paper": claim.paper,
                "p_value": found.p_value,
                "verdict": found.verdict,
            }
        )

    for name, (choice, value) in settings["fig3"].items():
        paths = sorted(fig3[name], key=lambda r: r["path"])
        for k, key in ((1, "fig3_best_of_1"), (10, "fig3_best_of_10")):
            sample = np.array([p[f"k{k}"] for p in paths])
            low, high = float(sample.min()), float(sample.max())
            row(key, choice, value, Ours("", float(sample[0]), low, high, sample=sample))
    ours = settings["ours_features"]
    for name, m in settings["fig1"].items():
        values = fig1[name]
        rng = rng_for(seed, "sensitivity", "fig1", m)
        low, high = median_interval(values, 1 - alpha, resamples, rng)
        choice = "" if m == ours else "num_features"
        mine = Ours("", float(np.median(values)), low, high, sample=values)
        row("fig1_median", choice, None if m == ours else m, mine)
    for procedure in PROCEDURES:
        own = {DEFAULT: ("", None)} | {
            name: (c, v) for name, (p, c, v) in settings["gradient"].items() if p == procedure
        }
        for name, (choice, value) in own.items():
            for case in settings["cases"]:
                draws = gradient[f"{DEFAULT}-{procedure}" if name == DEFAULT else name, case]
                components = sorted(k for k in draws[0] if k.startswith("grad_"))
                sample = np.array([[float(r[k]) for k in components] for r in draws])
                single = sample[:, 0] if sample.shape[1] == 1 else None
                mine = Ours(
                    "",
                    math.nan if single is None else float(np.median(single)),
                    sample=sample,
                )
                row(f"draws:{case}:{procedure}", choice, value, mine, procedure)
    return rows


def causes(rows: list[dict[str, Any]]) -> dict[str, str]:
    """Per row explained: the settings under which ours agrees with the paper's ("choice =
    value; ..."), or "none of: choice (values); ..." where none does.

    Example:
        >>> causes([
        ...     {"explains": "k", "choice": "ours", "value": "", "verdict": "inconsistent"},
        ...     {"explains": "k", "choice": "budget", "value": 10000, "verdict": "consistent"},
        ...     {"explains": "k", "choice": "budget", "value": 1e5, "verdict": "inconsistent"},
        ... ])
        {'k': 'budget = 10000'}
    """
    tried: dict[str, dict[str, list[str]]] = {}
    agree: dict[str, list[str]] = {}
    for r in rows:
        if r["choice"] == "ours":
            continue
        value = f"{r['value']:g}" if isinstance(r["value"], float) else str(r["value"])
        tried.setdefault(r["explains"], {}).setdefault(r["choice"], []).append(value)
        if r["verdict"] == "consistent":
            agree.setdefault(r["explains"], []).append(f"{r['choice']} = {value}")
    return {
        key: "; ".join(agree[key])
        if key in agree
        else "none of: " + "; ".join(f"{c} ({', '.join(v)})" for c, v in choices.items())
        for key, choices in tried.items()
    }
