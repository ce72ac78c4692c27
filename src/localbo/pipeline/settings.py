"""The whole pipeline config as typed settings: one class per section, the defaults in them.

`load_settings(config, schema)` checks the config against its JSON schema, turns it into
`PipelineSettings` and runs the semantic checks the schema cannot express; every problem is
reported at once, one line each, starting with the dotted key to fix. A figure whose section
needs typed settings adds its class as a field of `PipelineSettings`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from snakemake.utils import update_config

from localbo.pipeline.fig1 import Fig1Jobs, Fig1Settings
from localbo.pipeline.fig2 import Fig2Jobs, Fig2Settings
from localbo.pipeline.fig3 import Fig3Jobs, Fig3Settings
from localbo.pipeline.gradient_estimation import (
    GradientEstimationJobs,
    GradientEstimationSettings,
)
from localbo.pipeline.landscape import LandscapeJobs, LandscapeSettings
from localbo.pipeline.method_comparison import MethodComparisonSettings
from localbo.pipeline.paper_comparison import PaperComparisonSettings
from localbo.pipeline.progress import ProgressSettings
from localbo.pipeline.rates import RatesJobs, RatesSettings
from localbo.pipeline.rbf_error import RBFErrorSettings, rbf_error_jobs
from localbo.pipeline.resources import CostModel
from localbo.pipeline.schema import schema_errors
from localbo.pipeline.sections import ConfigError, as_config, build_all
from localbo.pipeline.sensitivity import SensitivityJobs, SensitivitySettings

SEED = 20231210  # the base of every random stream


@dataclass(frozen=True)
class PipelineSettings:
    """Every section of the config; the defaults are the paper-scale run (config/config.yaml).

    `redraw_from`, a gallery folder (relative to the repository), makes a run that redraws the
    figures from that gallery's tables: the plot rules read them, and only they run (and the
    few jobs whose outputs a plot reads besides a table: Figs. 4 and 5's estimates).
    `run_directory` is where the run's outputs go, relative to where Snakemake starts (None:
    there); the Snakefile's `workdir`, which `--directory` overrides.
    """

    seed: int = SEED
    redraw_from: str | None = None
    run_directory: str | None = None
    fig2: Fig2Settings = field(default_factory=Fig2Settings)
    fig1: Fig1Settings = field(default_factory=Fig1Settings)
    fig3: Fig3Settings = field(default_factory=Fig3Settings)
    gradient_estimation: GradientEstimationSettings = field(
        default_factory=GradientEstimationSettings
    )
    rates: RatesSettings = field(default_factory=RatesSettings)
    rbf_error: RBFErrorSettings = field(default_factory=RBFErrorSettings)
    landscape: LandscapeSettings = field(default_factory=LandscapeSettings)
    method_comparison: MethodComparisonSettings = field(default_factory=MethodComparisonSettings)
    progress: ProgressSettings = field(default_factory=ProgressSettings)
    paper_comparison: PaperComparisonSettings = field(default_factory=PaperComparisonSettings)
    sensitivity: SensitivitySettings = field(default_factory=SensitivitySettings)

    def check(self) -> list[str]:
        """Every semantic problem, as 'dotted.key: message' strings."""
        errors = self.fig2.check() + self.fig1.check()
        errors += self.fig3_jobs().check()
        errors += self.gradient_estimation.check()
        errors += self.rates.check()
        errors += self.landscape_jobs().check()
        errors += self._check_labels_and_pairs()
        errors += self.method_comparison.check() + self.progress.check()
        return errors + self.paper_comparison.check()

    def _check_labels_and_pairs(self) -> list[str]:
        """Fig. 1's sections have distinct names in figures and tables, and each pair of
        `method_comparison.pairs` this config runs both sides of runs them at one budget."""
        errors, seen = [], {}
        comparison, fig1_jobs = self.method_comparison, self.fig1_jobs()
        for name in self.fig1.methods.methods:
            label = fig1_jobs.label(name)
            if label in seen:
                errors.append(
                    f"fig1.methods.{name}.label: {name}'s name {label!r} is {seen[label]}'s too "
                    "(one method at one budget, or a label repeated); give it a name of its own "
                    "or leave it out"
                )
            seen.setdefault(label, name)
        for name, against in comparison.pairs.items():
            if {name, against} <= set(self.fig1.methods.methods):
                budget, other = self.fig1.budget_of(name), self.fig1.budget_of(against)
                if budget != other:
                    errors.append(
                        f"method_comparison.pairs.{name}: {name} runs {budget} evaluations and "
                        f"{against} {other}; a pair compares runs at one budget (set "
                        f"fig1.methods.{against}.budget to {budget})"
                    )
        return errors

    def fig1_jobs(self) -> Fig1Jobs:
        return Fig1Jobs(self.seed, self.fig1)

    def fig2_jobs(self) -> Fig2Jobs:
        return Fig2Jobs(self.seed, self.fig2)

    def fig3_jobs(self) -> Fig3Jobs:
        return Fig3Jobs(self.fig3, self.fig1_jobs())

    def rbf_error_jobs(self) -> Fig2Jobs:
        return rbf_error_jobs(self.seed, self.rbf_error, self.fig2)

    def rates_jobs(self) -> RatesJobs:
        return RatesJobs(self.rates, self.fig1_jobs())

    def landscape_jobs(self) -> LandscapeJobs:
        return LandscapeJobs(self.landscape, self.fig1_jobs())

    def gradient_estimation_jobs(self) -> GradientEstimationJobs:
        return GradientEstimationJobs(self.seed, self.gradient_estimation)

    def sensitivity_jobs(self) -> SensitivityJobs:
        return SensitivityJobs(self.sensitivity, self.fig3_jobs(), self.gradient_estimation_jobs())

    def job_costs(self) -> dict[str, CostModel]:
        """The cost model of every compute rule, by rule name: what its jobs are expected to
        cost (the forecast, `localbo.pipeline.plan`) and, padded, what they ask a scheduler for
        (`localbo.pipeline.resources.scheduled`). The table and plot rules have none: they
        take `PLOT_START_UP` and the profile's default resources."""
        fig1, fig2, fig3 = self.fig1_jobs(), self.fig2_jobs(), self.fig3_jobs()
        rates, landscape = self.rates_jobs(), self.landscape_jobs()
        sensitivity = self.sensitivity_jobs()
        return {
            "fig1_path": fig1.path_cost,
            "fig1_run": fig1.run_cost,
            "error_function": fig2.cost,
            "fig3_path": fig3.path_cost,
            "restart_chunk": fig3.chunk_cost,
            "fig3_other_path": fig3.other_cost,
            "gradient_estimate": self.gradient_estimation_jobs().cost,
            "gradient_estimation_draws": self.gradient_estimation_jobs().draw_cost,
            "rates_smoothness": rates.smoothness_cost,
            "rates_run": rates.run_cost,
            "landscape_run": landscape.cost,
            "rbf_error_function": self.rbf_error_jobs().cost,
            "sensitivity_fig3": sensitivity.fig3_cost,
            "sensitivity_fig1": sensitivity.fig1_cost,
            "sensitivity_gradient_estimation": sensitivity.gradient_cost,
        }


def merged_config(configs: list[Path]) -> dict[str, Any]:
    """The config mapping of YAML files as Snakemake merges them: each file key by key over the
    ones before it (a section's new keys come after its earlier ones)."""
    config: dict[str, Any] = {}
    for path in configs:
        update_config(config, yaml.safe_load(path.read_text()) or {})
    return config


def load_settings(config: dict[str, Any], schema: Path | None = None) -> PipelineSettings:
    """The typed settings of a config (missing keys take the defaults), checked against the
    JSON schema file `schema` first if one is given.

    Raises:
        ConfigError: every problem found, one per line, each naming its dotted key: the
            schema's violations, a plug-in method's bad knob, the semantic checks.
    """
    errors = schema_errors(config, schema) if schema is not None else []
    settings, problems = build_all(PipelineSettings, config, "")
    # a bad value keeps its default in `settings`, so the semantic checks still run; a problem
    # under a key already named (the schema's and the typed sections' overlap) is left out
    for line in problems + settings.check():
        key = line.partition(":")[0]
        if not any(key.startswith(k) or k.startswith(key) for k in _keys(errors)):
            errors.append(line)
    if errors:
        raise ConfigError("invalid config:\n  " + "\n  ".join(errors))
    return settings


def _keys(errors: list[str]) -> list[str]:
    """The dotted keys that problem lines name."""
    return [line.partition(":")[0] for line in errors]


def default_config() -> dict[str, Any]:
    """The config mapping of the defaults: what config/config.yaml must hold."""
    return as_config(PipelineSettings())
