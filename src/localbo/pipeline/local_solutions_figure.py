"""Fig. 1 drawn from its table (results/fig1/local_solutions.csv), laid out from its methods.

Two layouts (`fig1.layout`):

- "compare" (the default): the top row has local BO's box plots of the true f at its returned
  point against d, one panel per noise level on one y axis, and the grid size n whose expected
  minimum reaches the sigma = 0 median v (Remark 1, log10 n = v^2 / (2 ln 10)); below, one
  panel with every method's sigma = 0 boxes side by side at each d, on one y axis, so that the
  methods compare at a glance (TuRBO-1's first trust region beside its overall best, hatched in
  its colour, when the table has `first_region_value`);
- "paper": the paper's, the grid size and one panel per other method below local BO's, each
  with its own y axis.

A box drawn from fewer runs than the table's fullest (method, d, sigma) cell is marked with its
count: a gallery that grows by parts has cells that hold only some of their paths so far. Each
method keeps its colour of every figure (`localbo.colors.method_colors`).

Used by the `fig1_plot` rule and by the gallery (`localbo.gallery.add`), which redraws the
figure from its merged table.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import matplotlib.pyplot as plt
import pandas as pd

from localbo.plotting import boxes, notes_above, set_style
from localbo.restarts import grid_size_log10

log = logging.getLogger(__name__)

LAYOUTS = ("compare", "paper")
# TuRBO-1's best before its first restart, drawn beside its overall best in the comparison
FIRST_REGION = "first_region_value"
FIRST_REGION_LABEL = "first trust region"
SECOND_QUANTITY = "///"  # the hatch of a method's second quantity


def _mark_partial(ax: plt.Axes, counts: pd.Series, full: int, positions: dict) -> None:
    """Write the run count above each box of fewer runs than `full` (its x in `positions`)."""
    partial = counts[counts < full]
    # on two lines, so that neighbouring marks do not run together
    marks = {positions[key]: f"{n}\npath{'s' * (n > 1)}" for key, n in partial.items()}
    notes_above(ax, marks)


def _grid_size(ax: plt.Axes, local: pd.DataFrame, dims: list[int], color: object) -> None:
    """Remark 1's grid size against d, from local BO's sigma = 0 medians."""
    medians = local[local["sigma"] == 0].groupby("d")["value"].median().reindex(dims)
    log10_n = grid_size_log10(medians.to_numpy())
    ax.plot(range(len(dims)), log10_n, "o-", color=color)
    ax.set_xticks(range(len(dims)), [str(d) for d in dims])
    ax.set_xlabel("$d$")
    ax.set_ylabel("$\\log_{10} n$")
    ax.set_title("grid size to reach the $\\sigma$ = 0 median")
    for d, v, n in zip(dims, medians, log10_n, strict=True):
        log.info("d = %d: sigma = 0 median %.3f, grid size 10^%.1f", d, v, n)


def _boxes(
    ax: plt.Axes, data: pd.DataFrame, dims: list[int], title: str, full: int, color: str
) -> None:
    """One method's boxes against d."""
    values = [data.loc[data["d"] == d, "value"].to_numpy() for d in dims]
    boxes(ax, values, range(len(dims)), color)
    ax.set_xticks(range(len(dims)), [str(d) for d in dims])
    ax.set_title(title)
    _mark_partial(ax, data.groupby("d").size(), full, {d: dims.index(d) for d in dims})
    log.info("panel: %s", title)
    ax.set_xlabel("$d$")
    ax.set_ylabel("$f$ at the returned point")


@dataclass(frozen=True)
class Series:
    """One box series of the comparison panel: its label, its method and whether it is the
    method's second quantity (hatched)."""

    label: str
    method: str
    second: bool = False


def compared(runs: pd.DataFrame, labels: dict[str, str]) -> tuple[pd.DataFrame, list[Series]]:
    """The sigma = 0 runs of every method with its series' label as `method` (a method without
    sigma = 0 runs is left out), TuRBO-1's first region as a series of its own, and the series
    in order."""
    rows, order = [], []
    for method, label in labels.items():
        sel = runs[(runs["method"] == method) & (runs["sigma"] == 0)]
        if sel.empty:
            continue
        rows.append(sel.assign(method=label))
        order.append(Series(label, method))
        if FIRST_REGION in sel and sel[FIRST_REGION].notna().any():
            first = f"{label}, {FIRST_REGION_LABEL}"
            rows.append(sel.assign(method=first, value=sel[FIRST_REGION]))
            order.append(Series(first, method, second=True))
    return pd.concat(rows, ignore_index=True), order


def local_solutions_figure(
    runs: pd.DataFrame,
    labels: dict[str, str],
    layout: str,
    local_bo: str,
    colors: dict[str, str],
) -> plt.Figure:
    """The figure of a Fig. 1 table (one row per run: method, d, sigma, path, value, ...).

    Args:
        runs: the table. labels: each method's name in the figure, in panel order.
        layout: "compare" or "paper" (the module docstring).
        local_bo: local BO's name in the table (`LocalBO.name`: the figure imports no method).
        colors: each method's colour (`Fig1Jobs.colors`).
    """
    if layout not in LAYOUTS:
        raise ValueError(f"layout: {layout!r} is not one of {LAYOUTS}")
    set_style()
    dims = sorted(runs["d"].unique())
    local = runs[runs["method"] == local_bo]
    full = int(runs.groupby(["method", "d", "sigma"]).size().max())
    if layout == "paper":
        return _paper_layout(runs, labels, dims, local_bo, full, colors)
    sigmas = sorted(local["sigma"].unique())
    top = len(sigmas) + int(not local.empty)
    fig = plt.figure(figsize=(max(12.8, 3.2 * top), 9.6))
    grid = fig.add_gridspec(2, max(top, 1), height_ratios=(1, 1.25))
    first = None
    for k, sigma in enumerate(sigmas):
        ax = fig.add_subplot(grid[0, k], sharey=first)
        first = first or ax
        title = f"{labels[local_bo]}, $\\sigma$ = {sigma:g}"
        _boxes(ax, local[local["sigma"] == sigma], dims, title, full, colors[local_bo])
        if k:
            ax.set_ylabel("")  # the first panel's axis
    if not local.empty:
        _grid_size(fig.add_subplot(grid[0, len(sigmas)]), local, dims, colors[local_bo])
    ax = fig.add_subplot(grid[1, :])
    data, order = compared(runs, labels)
    width = 0.8 / len(order)  # the boxes of a d share 0.8 of its slot, in `order`
    positions = {
        (series.label, d): i - 0.4 + width * (k + 0.5)
        for k, series in enumerate(order)
        for i, d in enumerate(dims)
    }
    for series in order:
        chosen = data[data["method"] == series.label]
        values = [chosen.loc[chosen["d"] == d, "value"].to_numpy() for d in dims]
        x = [positions[series.label, d] for d in dims]
        hatch = SECOND_QUANTITY if series.second else None
        boxes(ax, values, x, colors[series.method], 0.9 * width, series.label, hatch)
    ax.set_xticks(range(len(dims)), [str(d) for d in dims])
    _mark_partial(ax, data.groupby(["method", "d"]).size(), full, positions)
    ax.set_title("every method, $\\sigma$ = 0")
    log.info("panel: every method, sigma = 0: %s", "; ".join(s.label for s in order))
    ax.set_xlabel("$d$")
    ax.set_ylabel("$f$ at the returned point")
    ax.legend(ncols=min(4, len(order)), loc="lower left", frameon=True, fontsize="small")
    fig.tight_layout()
    return fig


def _paper_layout(
    runs: pd.DataFrame,
    labels: dict[str, str],
    dims: list[int],
    local_bo: str,
    full: int,
    colors: dict[str, str],
) -> plt.Figure:
    """The paper's layout: local BO's noise levels on top, then the grid size and one panel per
    other method (its first noise level)."""
    local = runs[runs["method"] == local_bo]
    sigmas = sorted(local["sigma"].unique())
    others = [m for m in labels if m != local_bo]
    bottom = int(not local.empty) + len(others)
    ncols = max(3, len(sigmas), bottom)
    fig, axes = plt.subplots(2, ncols, figsize=(3.2 * ncols, 6.4), squeeze=False)
    for ax in axes.ravel():
        ax.set_visible(False)
    for ax, sigma in zip(axes[0], sigmas, strict=False):
        ax.set_visible(True)
        title = f"{labels[local_bo]}, $\\sigma$ = {sigma:g}"
        _boxes(ax, local[local["sigma"] == sigma], dims, title, full, colors[local_bo])
    panels = iter(axes[1])
    if not local.empty:
        ax = next(panels)
        ax.set_visible(True)
        _grid_size(ax, local, dims, colors[local_bo])
    for ax, method in zip(panels, others, strict=False):
        sel = runs[runs["method"] == method]
        if sel.empty:
            continue
        ax.set_visible(True)
        sigma = sorted(sel["sigma"].unique())[0]
        title = f"{labels[method]}, $\\sigma$ = {sigma:g}"
        _boxes(ax, sel[sel["sigma"] == sigma], dims, title, full, colors[method])
    fig.tight_layout()
    return fig
