"""Progress over the budget (beyond the paper): each Fig. 1 run's trace thinned to a curve, the
median curves over paths, and the evaluations at which each method's median reaches local BO's
final median.

A run's trace records, after each step, the evaluations used so far and the true f at the
method's current point (`Optimizer.traced`: the iterate of a local method, the incumbent of a
global one). Its curve keeps, of those records, the first, the last, and at each of `points`
log-spaced evaluation counts from 1 to the run's budget the last record at or below it: a step
function of the evaluations that equals the trace at every count of the grid. The curve table
(`results/fig1/curves.csv`, one row per kept record) belongs to Fig. 1; the figure and the reach
table are made from it alone (in a redraw, from the gallery's).

A method reaches a target at the first count of its grid where its median over paths is at or
below it; the target is the final median of the local BO section run at the method's budget
(`local_bo`, `local_bo_short` at 1000), at the same d and noise level, over the method's paths.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

CURVE_COLUMNS = ["method", "d", "sigma", "path", "evaluations", "value"]
REACH_COLUMNS = [
    "sigma", "d", "method", "label", "budget", "paths", "against", "target", "reached_at",
    "final_median",
]  # fmt: skip
# the reach table's text where a method's median stays above the target
NOT_REACHED = "not within its budget"


@dataclass(frozen=True)
class ProgressSettings:
    """The `progress` config section.

    Attributes:
        points: log-spaced evaluation counts from 1 to a run's budget at which its curve keeps
            the trace (fewer where two round to one integer).
    """

    points: int = 60

    def check(self) -> list[str]:
        """Problems the schema cannot see, each starting with its dotted key."""
        if self.points < 2:
            return [f"progress.points: must be >= 2 (1 and the budget), got {self.points}"]
        return []


def evaluation_grid(budget: int, points: int) -> np.ndarray:
    """(k,) the distinct integers nearest `points` log-spaced numbers from 1 to `budget`
    (k <= points), increasing, the first 1 and the last `budget`.

    Example:
        >>> evaluation_grid(1000, 4).tolist()
        [1, 10, 100, 1000]
    """
    return np.unique(np.rint(np.geomspace(1, budget, points)).astype(np.int64))


def thinned(evaluations: np.ndarray, grid: np.ndarray) -> np.ndarray:
    """The records a curve keeps (the module docstring): their indices, increasing.

    Args:
        evaluations: (k,) a trace's evaluation counts, non-decreasing. grid: (g,) counts.

    Returns:
        (m,) indices into the trace: 0, k - 1 and, for each grid count at or above the first
        record's, the last record at or below it.
    """
    evaluations = np.asarray(evaluations)
    if evaluations.size == 0:
        return np.zeros(0, dtype=np.int64)
    last = np.searchsorted(evaluations, grid, side="right") - 1
    return np.unique(np.concatenate([[0, evaluations.size - 1], last[last >= 0]]))


def run_curves(
    summaries: list[dict[str, Any]], traces: dict[str, np.ndarray], budget: int, points: int
) -> list[dict[str, Any]]:
    """The curve rows of one Fig. 1 job's runs.

    Args:
        summaries: the job's run summaries (method, d, sigma, path, ...).
        traces: its trace arrays, `p<i>_evaluations` (k,) and `p<i>_values` (k,) for path i.
        budget: the runs' budget. points: `ProgressSettings.points`.
    """
    grid, rows = evaluation_grid(budget, points), []
    for run in summaries:
        evaluations = traces[f"p{run['path']}_evaluations"]
        values = traces[f"p{run['path']}_values"]
        for k in thinned(evaluations, grid):
            row = {c: run[c] for c in CURVE_COLUMNS[:4]}
            rows.append({**row, "evaluations": int(evaluations[k]), "value": float(values[k])})
    return rows


def at_counts(curve: pd.DataFrame, counts: np.ndarray) -> np.ndarray:
    """(len(counts),) one run's curve (its rows, by increasing evaluations) at each count: the
    value of its last row at or below it (NaN before its first row)."""
    evaluations = curve["evaluations"].to_numpy()
    last = np.searchsorted(evaluations, counts, side="right") - 1
    values = curve["value"].to_numpy(dtype=float)
    return np.where(last >= 0, values[np.maximum(last, 0)], np.nan)


def median_curves(curves: pd.DataFrame, budgets: dict[str, int], points: int) -> pd.DataFrame:
    """Per (method, sigma, d) and count of the method's grid: the median, the quartiles and the
    paths over its runs (a count before some run's first record has NaN statistics).

    Args:
        curves: the curve table. budgets: each method's budget (its grid's end).
    """
    rows = []
    for (method, sigma, d), cell in curves.groupby(["method", "sigma", "d"], sort=True):
        grid = evaluation_grid(budgets[method], points)
        values = np.array([at_counts(run, grid) for _, run in cell.groupby("path")])  # (p, g)
        complete = ~np.isnan(values).any(axis=0)
        low, median, high = np.full((3, grid.size), np.nan)
        if complete.any():
            low[complete], median[complete], high[complete] = np.quantile(
                values[:, complete], [0.25, 0.5, 0.75], axis=0
            )
        about = {"method": method, "sigma": sigma, "d": d, "paths": len(values)}
        rows += [
            {**about, "evaluations": int(g), "median": median[j], "q25": low[j], "q75": high[j]}
            for j, g in enumerate(grid)
        ]
    return pd.DataFrame(rows)


def local_bo_at(methods: dict[str, dict[str, Any]], local_bo: str, budget: int) -> str | None:
    """The section that runs local BO (registered as `local_bo`) at `budget`, if any
    (`methods`: name -> {"optimizer", "budget", ...}, `method_comparison.method_params`)."""
    found = [name for name, about in methods.items()
             if about["optimizer"] == local_bo and about["budget"] == budget]  # fmt: skip
    return found[0] if found else None


def reach_table(
    curves: pd.DataFrame, methods: dict[str, dict[str, Any]], points: int, local_bo: str
) -> list[dict[str, Any]]:
    """Per method, noise level and d of the curve table: the evaluations at which its median
    first reaches the final median of local BO at its budget over the same paths (the module
    docstring), or `NOT_REACHED`; a method with no local BO section at its budget, or no local
    BO runs on its paths at its (sigma, d), is left out.

    Args:
        curves: the curve table. methods: name -> {"label", "budget", "optimizer", ...} of the
            config's Fig. 1 sections (`method_comparison.method_params`).
        points: `ProgressSettings.points`. local_bo: local BO's registered name.
    """
    budgets = {name: about["budget"] for name, about in methods.items()}
    medians = median_curves(curves, budgets, points)
    # each run's final value: its curve's last row
    final = curves.groupby(["method", "sigma", "d", "path"])["value"].last()
    cells = set(final.index.droplevel("path"))
    rows = []
    for (method, sigma, d), cell in medians.groupby(["method", "sigma", "d"], sort=True):
        against = local_bo_at(methods, local_bo, budgets[method])
        if against is None or (against, sigma, d) not in cells:
            continue
        paths = final[method, sigma, d].index.intersection(final[against, sigma, d].index)
        if paths.empty:
            continue
        target = float(np.median(final[against, sigma, d][paths]))
        below = cell[cell["median"] <= target]
        rows.append(
            {
                "sigma": float(sigma),
                "d": int(d),
                "method": method,
                "label": methods[method]["label"],
                "budget": budgets[method],
                "paths": int(cell["paths"].iloc[0]),
                "against": against,
                "target": target,
                "reached_at": int(below["evaluations"].iloc[0]) if len(below) else NOT_REACHED,
                "final_median": float(np.median(final[method, sigma, d])),
            }
        )
    return rows
