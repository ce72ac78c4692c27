"""Every number the paper states beside this pipeline's: place in the paper, our value with its
uncertainty, the rule that judges them, and a verdict.

A number the paper states of a random procedure (paths, draws) is one more draw of it, so each
such row asks whether the paper's number is a typical draw of ours, by a predictive p-value
(`localbo.predictive`), and calls it inconsistent when p <= `false_disagreement` (alpha, the
rate at which a number drawn as ours would be called inconsistent: the same for every rule).
The paper's rounding (half a unit of its last printed digit) is part of each rule.

- "medians" (Fig. 1's d = 50 median, a median over the paper's 50 paths): were its paths drawn
  as ours, the count of our 50 values below its median is beta-binomial whatever their law;
  that law, spread over our order statistics and convolved with the rounding, is the median's
  predictive law (`median_p_value`). ours_low, ours_high: our median's percentile bootstrap
  interval at 1 - alpha; low, high: the paper's values that agree.
- "paths" (Fig. 3's curve at k = 1; the paper's path is one more): the rank of its value among
  our paths' (`rank_p_value`); with 19 paths and alpha = 0.1, consistent exactly within their
  range. ours_low, ours_high, low, high: that range.
- "draws" (Figs. 4 and 5: the paper's estimate is one draw of its random parts, a vector): the
  full-conformal density p-value of the vector among our draws (`density_p_value`), which holds
  for multimodal and near-deterministic draws alike. ours, ours_low, ours_high: the median and
  central 1 - alpha band of a one-component estimate.
- "words" (Fig. 2's slopes, deterministic estimates): a match when ours lies in the interval the
  paper's words allow ("slightly larger than 1/2", "quite tight"; low, high). lack_of_fit: the
  least-squares standard error of the slope, which measures how far the log-log points lie from
  a line, not a sampling error (the estimates are deterministic).
- "share": a qualitative claim of the paper, stated as the share of our draws that bear it out.

A row that does not decide (`Claim.decides`) is information beside one that does: its verdict
says "information" and it has no p-value. An inconsistent row names its `cause`: the settings of
the sensitivity study (`localbo.pipeline.sensitivity`) under which ours agrees with the paper's,
or "none of" the ones tried. A run not at the paper's scale says "not comparable";
a number the run lacks, "missing". The paper's numbers and each one's rule are in
`localbo.pipeline.paper_claims`.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from localbo.methods.local_bo import LocalBO, LocalBOSettings
from localbo.paired_comparison import median_interval
from localbo.panels import PANEL_AXES
from localbo.pipeline.fig1 import Fig1Settings, Methods
from localbo.pipeline.fig2 import Fig2Settings
from localbo.pipeline.fig3 import Fig3Settings
from localbo.pipeline.gradient_estimation import (
    PROCEDURES,
    GradientEstimationSettings,
    completed,
    distribution,
    share_closer,
)
from localbo.pipeline.paper_claims import CLAIMS, FIG3_PUBLISHED, Claim
from localbo.predictive import (
    density_p_value,
    median_agreement,
    median_p_value,
    rank_agreement,
    rank_p_value,
)
from localbo.restarts import grid_size_log10
from localbo.seeding import rng_for

COLUMNS = [
    "figure", "quantity", "at", "where", "paper", "ours", "ours_low", "ours_high", "low", "high",
    "p_value", "verdict", "cause", "rule", "lack_of_fit", "share", "note",
]  # fmt: skip
RULES = ("medians", "paths", "draws", "words", "share")
NOT_COMPARABLE = "not comparable: this run is not the paper's scale"
INFORMATION = "information"


@dataclass(frozen=True)
class PaperComparisonSettings:
    """The `paper_comparison` config section.

    Attributes:
        false_disagreement: alpha, the rate at which every rule over random draws calls a
            number drawn as ours inconsistent (the verdict: inconsistent when p <= alpha); the
            bootstrap interval of Fig. 1's median and the bands of the draws are at 1 - alpha.
        resamples: bootstrap resamples of Fig. 1's median and of the differences of medians
            against the paper's code.
        code_tolerance: how far (each end of its interval at 1 - alpha) the difference of a
            component's medians, ours minus the paper code's, may lie from 0 for our draws to
            agree with the code's (`localbo.pipeline.paper_code`).
    """

    false_disagreement: float = 0.1
    resamples: int = 9999
    code_tolerance: float = 0.05

    def check(self) -> list[str]:
        """Problems the schema cannot see, each starting with its dotted key."""
        errors = []
        if not 0 < self.false_disagreement < 1:
            errors.append(
                "paper_comparison.false_disagreement: must be in (0, 1), got "
                f"{self.false_disagreement}"
            )
        if not self.code_tolerance > 0:
            errors.append(
                f"paper_comparison.code_tolerance: must be positive, got {self.code_tolerance}"
            )
        return errors


@dataclass(frozen=True)
class Ours:
    """This run's value of a claim at one place (`at`: a noise level, or "").

    Attributes:
        value: ours (NaN: the run has none). low, high: our uncertainty (the rules' ours_low and
            ours_high, the module docstring). lack_of_fit: a fit's standard error. share: of
            draws. sample: the values the paper's number is judged among, (n,) or (n, p) for
            an estimate of p components.
    """

    at: str = ""
    value: float = math.nan
    low: float = math.nan
    high: float = math.nan
    lack_of_fit: float = math.nan
    share: float = math.nan
    sample: np.ndarray | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Judgement:
    """A row's verdict, the paper's values that agree with ours (low, high) and the p-value."""

    verdict: str
    low: float = math.nan
    high: float = math.nan
    p_value: float = math.nan


def _float(row: dict[str, str], key: str) -> float:
    return float(row[key])


def ours(
    fig1: list[dict[str, str]],
    fig2: list[dict[str, str]],
    fig3_best: list[dict[str, str]],
    fig3_others: list[dict[str, str]],
    draws: dict[str, list[dict[str, str]]],
    settings: PaperComparisonSettings,
    seed: int,
) -> dict[str, list[Ours]]:
    """This run's values, from the pipeline's tables as rows, by the keys claims name.

    Args:
        fig1, fig2: Figs. 1 and 2's tables. fig3_best, fig3_others: Fig. 3's curve on the main
            path and the other paths'.
        draws: each (case, procedure)'s draws table, by "case_procedure".
        settings: the section. seed: the base seed (the bootstrap's stream).

    Returns:
        Per key, one `Ours` per place (Fig. 2's slopes one per noise level). A key the run has
        no rows for is absent.
    """
    values: dict[str, list[Ours]] = {}
    level = 1 - settings.false_disagreement
    local = np.array(
        [
            _float(r, "value")
            for r in fig1
            if r["method"] == LocalBO.name and float(r["sigma"]) == 0 and int(r["d"]) == 50
        ]
    )
    if local.size:
        median = float(np.median(local))
        rng = rng_for(seed, "paper_comparison", "fig1")
        low, high = median_interval(local, level, settings.resamples, rng)
        values["fig1_median"] = [Ours("", median, low, high, sample=local)]
        # the grid size grows with |v|: the image of [low, high] (both negative at d = 50)
        grid = sorted(grid_size_log10(np.array([low, high])))
        values["fig1_grid_size"] = [Ours("", float(grid_size_log10(median)), *grid)]
    for panel, (axis, _) in PANEL_AXES.items():
        rows = [r for r in fig2 if r["panel"] == panel]
        if rows:
            values[f"fig2_slope_in_{axis}"] = [
                _slope(rows, axis, s) for s in sorted({r["sigma"] for r in rows}, key=float)
            ]
    main = {int(r["restarts"]): _float(r, "median") for r in fig3_best}
    for k in FIG3_PUBLISHED:
        if k in main:
            paths = np.array(
                [main[k]] + [_float(r, "median") for r in fig3_others if int(r["restarts"]) == k]
            )
            values[f"fig3_best_of_{k}"] = [
                Ours("", main[k], float(paths.min()), float(paths.max()), sample=paths)
            ]
    for name, rows in draws.items():
        case, _, procedure = name.rpartition("_")
        parts = distribution(case, procedure, rows, level)  # a row per component
        sample = np.array(
            [[_float(r, f"grad_{c['component']}") for c in parts] for r in completed(rows)]
        )
        share = math.nan if parts[0]["share_near_paper"] == "" else parts[0]["share_near_paper"]
        key = f"draws:{case}:{procedure}"
        summary = [Ours("", c["median"], c["low"], c["high"], share=share) for c in parts]
        if len(parts) == 1:
            values[key] = [dataclasses.replace(summary[0], sample=sample)]
        else:
            values[key] = [Ours(share=share, sample=sample)]
            for c, component in zip(parts, summary, strict=True):
                values[f"{key}:{c['component']}"] = [component]
        inside = parts[0]["share_in_subdifferential"]
        values[f"share:inside:{case}:{procedure}"] = [Ours(share=inside)]
    for procedure in PROCEDURES:
        pair = draws.get(f"l1_n10_{procedure}"), draws.get(f"l1_n5_{procedure}")
        if all(pair):
            closer = share_closer(*pair)
            values[f"share:closer:l1_n10:l1_n5:{procedure}"] = [Ours(share=closer)]
    return values


def _slope(rows: list[dict[str, str]], axis: str, sigma: str) -> Ours:
    """The least-squares slope of log E in log `axis` at one noise level, with its standard
    error (lack of fit: the estimates are deterministic)."""
    from scipy import stats

    x = np.log([_float(r, axis) for r in rows if r["sigma"] == sigma])
    y = np.log([_float(r, "estimate") for r in rows if r["sigma"] == sigma])
    fit = stats.linregress(x, y)
    return Ours(f"sigma = {sigma}", float(fit.slope), lack_of_fit=float(fit.stderr))


def judge(claim: Claim, mine: Ours, alpha: float, rng: np.random.Generator) -> Judgement:
    """The verdict of a claim against our value by its rule (the module docstring).

    Args:
        claim: the paper's number. mine: ours. alpha: `false_disagreement`.
        rng: the stream of the rounding error given to our draws (ranks, densities).
    """
    if claim.rule == "share":
        ok = not math.isnan(mine.share)
        return Judgement(f"{mine.share:.0%} of draws" if ok else "missing")
    if math.isnan(mine.value) and mine.sample is None:
        return Judgement("missing", claim.low, claim.high)
    if not claim.decides:
        return Judgement(INFORMATION)
    if claim.rule == "words":
        return Judgement("match" if claim.low <= mine.value <= claim.high else "miss",
                         claim.low, claim.high)  # fmt: skip
    assert mine.sample is not None, claim.key
    value, rounding = claim.values(), claim.half_units()
    low = high = math.nan
    if claim.rule == "medians":
        assert claim.count is not None, claim.key
        p = median_p_value(mine.sample, value[0], claim.count, rounding[0])
        low, high = median_agreement(mine.sample, claim.count, rounding[0], alpha)
    elif claim.rule == "paths":
        p = rank_p_value(mine.sample, value[0], rounding[0], rng)
        low, high = rank_agreement(mine.sample, alpha)
        if math.isinf(low):
            return Judgement(
                f"undecided: {len(mine.sample)} paths cannot reach {alpha:g}", p_value=p
            )
    else:  # "draws"
        p = density_p_value(mine.sample, np.array(value), np.array(rounding), rng)
    return Judgement("inconsistent" if p <= alpha else "consistent", low, high, p)


def compare(
    values: dict[str, list[Ours]],
    comparable: dict[str, bool],
    settings: PaperComparisonSettings,
    seed: int,
    causes: dict[str, str] | None = None,
) -> list[dict[str, Any]]:
    """The table: one row per claim and place, with its verdict (the module docstring).

    Args:
        values: `ours(...)`. comparable: per config section, whether the run is the paper's
            scale (`comparable_sections`). settings: the section. seed: the base seed (each
            claim's rounding errors have their own stream). causes: per claim key, what the
            sensitivity study found (`localbo.pipeline.sensitivity_table.causes`).
    """
    causes = causes or {}
    rows = []
    for claim in CLAIMS:
        for mine in values.get(claim.key, [Ours()]):
            rng = rng_for(seed, "paper_comparison", claim.key, mine.at)
            found = judge(claim, mine, settings.false_disagreement, rng)
            rows.append(
                {
                    "figure": claim.figure,
                    "quantity": claim.quantity,
                    "at": mine.at,
                    "where": claim.where,
                    "paper": claim.paper,
                    "ours": mine.value,
                    "ours_low": mine.low,
                    "ours_high": mine.high,
                    "low": found.low,
                    "high": found.high,
                    "p_value": found.p_value,
                    "verdict": found.verdict if comparable[claim.figure] else NOT_COMPARABLE,
                    "cause": causes.get(claim.key, "not studied")
                    if found.verdict == "inconsistent"
                    else "",
                    "rule": claim.rule,
                    "lack_of_fit": mine.lack_of_fit,
                    "share": mine.share,
                    "note": claim.note,
                }
            )
    return rows


def comparable_sections(
    fig1: Fig1Settings,
    fig2: Fig2Settings,
    fig3: Fig3Settings,
    gradient_estimation: GradientEstimationSettings,
) -> dict[str, bool]:
    """Whether each figure ran at the paper scale (the defaults, local BO at its defaults)."""
    local = fig1.methods.methods.get(LocalBO.name)
    local_default = (
        local is not None
        and local.optimizer.settings == LocalBOSettings()
        and local.jobs.budget in (None, fig1.budget)
        and 0.0 in local.jobs.noise_levels
        and set(fig1.dims_of(LocalBO.name)) == set(fig1.dims)
        and local.jobs.path_range in (None, (0, fig1.num_paths))
    )
    paths = Fig1Settings()
    fig3_inputs = [fig1.kernel, fig1.lengthscale, fig1.outputscale, fig1.num_features, fig1.box]
    paper_inputs = [
        paths.kernel,
        paths.lengthscale,
        paths.outputscale,
        paths.num_features,
        paths.box,
    ]
    return {
        "fig1": local_default and dataclasses.replace(fig1, methods=Methods()) == paths,
        "fig2": fig2 == Fig2Settings(),
        # Fig. 3 runs local BO on a path drawn as Fig. 1's, with Fig. 1's budget and box
        "fig3": local_default
        and fig3_inputs == paper_inputs
        and fig1.budget == paths.budget
        and fig3 == Fig3Settings(),
        "gradient_estimation": gradient_estimation == GradientEstimationSettings(),
    }
