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
  its knobs changed: the design (ours or the paper code's), the fit (ours or the paper code's,
  whole), the noise variance's and the lengthscale's lower bounds, the observation noise of
  the cases; `draws` draws each.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

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
    """Figs. 4 and 5's choices; a procedure runs each value other than its own.

    Attributes:
        draws: draws of each case by each setting.
        design: the design, "ours" or "paper" (the section's `design` or `paper_design`).
        fit: the fit, "ours" or "paper" (`fit` or `paper_fit`, each whole: optimizer, starts,
            iterations and bounds).
        noise_floor, lengthscale_floor: the lower bounds of the fit's noise variance and
            lengthscale.
        noise_std: the observation noise of every case.
    """

    draws: int = 200
    design: tuple[str, ...] = PROCEDURES
    fit: tuple[str, ...] = PROCEDURES
    noise_floor: tuple[float, ...] = (1e-6, 1e-4, 1e-2)
    lengthscale_floor: tuple[float, ...] = (1e-4, 0.1)
    noise_std: tuple[float, ...] = (0.0, 0.01)


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
        """A procedure's own value of each choice (the noise: the cases', if they share one)."""
        s = self.gradient.settings
        fit = s.paper_fit if procedure == "paper" else s.fit
        noise = {s.cases.cases[c].noise_std for c in self.gradient.distributed}
        return {
            "design": procedure,
            "fit": procedure,
            "noise_floor": fit.noise_var_bounds[0],
            "lengthscale_floor": fit.lengthscale_bounds[0],
            "noise_std": noise.pop() if len(noise) == 1 else None,
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
        case = base["case"]
        if choice == "design":
            design = s.paper_design if value == "paper" else s.design
        elif choice == "fit":
            fit = s.paper_fit if value == "paper" else s.fit
        elif choice == "noise_floor":
            fit = dataclasses.replace(fit, noise_var_bounds=(value, fit.noise_var_bounds[1]))
        elif choice == "lengthscale_floor":
            fit = dataclasses.replace(fit, lengthscale_bounds=(value, fit.lengthscale_bounds[1]))
        else:
            case = {**case, "noise_std": value}
        return {
            **base,
            "case": case,
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
