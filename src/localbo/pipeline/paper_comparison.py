"""Every number the paper states beside this pipeline's: place in the paper, our value with its
uncertainty, the rule that judges them, and a verdict.

Where a result depends on random draws, one draw cannot tell a disagreement from luck, so each
row is judged by a rule stated in the table (`rule`):

- "medians": both numbers are medians over random draws (Fig. 1's over 50 paths): consistent
  when the paper's lies within our median +- sqrt(2) times the half-width of our 95 % bootstrap
  interval (the paper's median carries a sampling error like ours);
- "paths": the paper's curve is one more path (Fig. 3): consistent when its value lies within
  the central 90 % of our paths' (the main path and the other paths);
- "draws": the paper's estimate is one draw (Figs. 4 and 5): consistent when each component
  lies within the central 90 % band of our draws, by our procedure and by the paper code's;
- "interval": a deterministic estimate against the paper's words (Fig. 2's slopes): a match
  when ours lies in the interval the words allow; the fit's standard error is shown beside;
- "share": a qualitative claim of the paper, stated as the share of our draws that bear it out.

A run not at the paper's scale says "not comparable"; a number the run lacks, "missing".
The paper's numbers and each one's rule are in `localbo.pipeline.paper_claims`.
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
    share_closer,
)
from localbo.pipeline.paper_claims import CLAIMS, FIG3_PUBLISHED, Claim
from localbo.restarts import grid_size_log10
from localbo.seeding import rng_for

COLUMNS = [
    "figure", "quantity", "at", "where", "paper", "ours", "ours_low", "ours_high", "low", "high",
    "verdict", "rule", "std_error", "share", "note",
]  # fmt: skip
RULES = ("medians", "paths", "draws", "interval", "share")
NOT_COMPARABLE = "not comparable: this run is not the paper's scale"
BOOTSTRAP_CONFIDENCE, BOOTSTRAP_RESAMPLES = 0.95, 9999  # Fig. 1's median
SPREAD = 0.9  # the central share of our paths' or draws' values a single one may fall in


@dataclass(frozen=True)
class Ours:
    """This run's value of a claim at one place (`at`: a noise level, or "").

    Attributes:
        value: ours (NaN: the run has none). low, high: our uncertainty (the median's bootstrap
            interval, our paths' or draws' central band). std_error: a fit's. share: of draws.
    """

    at: str = ""
    value: float = math.nan
    low: float = math.nan
    high: float = math.nan
    std_error: float = math.nan
    share: float = math.nan
    extra: dict[str, Any] = field(default_factory=dict)


def _float(row: dict[str, str], key: str) -> float:
    return float(row[key])


def ours(
    fig1: list[dict[str, str]],
    fig2: list[dict[str, str]],
    fig3_best: list[dict[str, str]],
    fig3_others: list[dict[str, str]],
    distribution: list[dict[str, str]],
    draws: dict[str, list[dict[str, str]]],
    seed: int,
) -> dict[str, list[Ours]]:
    """This run's values, from the pipeline's tables as rows, by the keys claims name.

    Args:
        fig1, fig2: Figs. 1 and 2's tables. fig3_best, fig3_others: Fig. 3's curve on the main
            path and the other paths'. distribution: Figs. 4 and 5's distribution table.
        draws: each (case, procedure)'s draws table, by "case_procedure".
        seed: the base seed (the bootstrap's stream).

    Returns:
        Per key, one `Ours` per place (Fig. 2's slopes one per noise level). A key the run has
        no rows for is absent.
    """
    values: dict[str, list[Ours]] = {}
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
        low, high = median_interval(local, BOOTSTRAP_CONFIDENCE, BOOTSTRAP_RESAMPLES, rng)
        values["fig1_median"] = [Ours("", median, low, high)]
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
            spread = [main[k]] + [
                _float(r, "median") for r in fig3_others if int(r["restarts"]) == k
            ]
            low, high = np.quantile(spread, [(1 - SPREAD) / 2, (1 + SPREAD) / 2])
            values[f"fig3_best_of_{k}"] = [
                Ours("", main[k], float(low), float(high), extra={"paths": len(spread)})
            ]
    for r in distribution:
        key = f"draws:{r['case']}:{r['procedure']}:{r['component']}"
        share = float(r["share_near_paper"]) if r["share_near_paper"] != "" else math.nan
        values[key] = [
            Ours("", _float(r, "median"), _float(r, "low"), _float(r, "high"), share=share)
        ]
        if r["component"] == "1":
            inside = _float(r, "share_in_subdifferential")
            values[f"share:inside:{r['case']}:{r['procedure']}"] = [Ours(share=inside)]
    for procedure in PROCEDURES:
        pair = draws.get(f"l1_n10_{procedure}"), draws.get(f"l1_n5_{procedure}")
        if all(pair):
            closer = share_closer(*pair)
            values[f"share:closer:l1_n10:l1_n5:{procedure}"] = [Ours(share=closer)]
    return values


def _slope(rows: list[dict[str, str]], axis: str, sigma: str) -> Ours:
    """The least-squares slope of log E in log `axis` at one noise level, with its standard
    error."""
    from scipy import stats

    x = np.log([_float(r, axis) for r in rows if r["sigma"] == sigma])
    y = np.log([_float(r, "estimate") for r in rows if r["sigma"] == sigma])
    fit = stats.linregress(x, y)
    return Ours(f"sigma = {sigma}", float(fit.slope), std_error=float(fit.stderr))


def verdict(claim: Claim, mine: Ours) -> tuple[str, float, float]:
    """The verdict of a claim against our value, and the interval of values that agree."""
    if claim.rule == "share":
        ok = not math.isnan(mine.share)
        return (f"{mine.share:.0%} of draws" if ok else "missing"), math.nan, math.nan
    if math.isnan(mine.value):
        return "missing", claim.low, claim.high
    if claim.rule == "interval":
        return ("match" if claim.low <= mine.value <= claim.high else "miss"), claim.low, claim.high
    if claim.rule == "medians":
        reach = math.sqrt(2) * (mine.high - mine.low) / 2
        low, high = mine.value - reach, mine.value + reach
    else:  # "paths", "draws": the paper's is one more of ours
        low, high = mine.low, mine.high
    assert claim.value is not None
    return ("consistent" if low <= claim.value <= high else "inconsistent"), low, high


def compare(values: dict[str, list[Ours]], comparable: dict[str, bool]) -> list[dict[str, Any]]:
    """The table: one row per claim and place, with its verdict (the module docstring).

    Args:
        values: `ours(...)`. comparable: per config section, whether the run is the paper's
            scale (`comparable_sections`).
    """
    rows = []
    for claim in CLAIMS:
        for mine in values.get(claim.key, [Ours()]):
            found, low, high = verdict(claim, mine)
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
                    "low": low,
                    "high": high,
                    "verdict": found if comparable[claim.figure] else NOT_COMPARABLE,
                    "rule": claim.rule,
                    "std_error": mine.std_error,
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
