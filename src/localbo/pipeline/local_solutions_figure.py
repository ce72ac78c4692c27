"""Fig. 1 drawn from its table (results/fig1/local_solutions.csv), laid out from its methods.

Top row: box plots of the true f at local BO's returned point against d, one panel per noise
level. Bottom row: the grid size n whose expected minimum reaches the sigma = 0 median v
(Remark 1, log10 n = v^2 / (2 ln 10)), then one box-plot panel per other method (its first noise
level), in the order of `labels`. For the paper's three methods this is the paper's layout.
A box drawn from fewer runs than the table's fullest (method, d, sigma) cell is marked with its
count: a gallery that grows by parts has cells that hold only some of their paths so far.

Used by the `fig1_plot` rule and by the gallery (`localbo.gallery.add`), which redraws the
figure from its merged table.
"""

from __future__ import annotations

import logging

import matplotlib.pyplot as plt
import pandas as pd
import seaborn as sns

from localbo.methods.local_bo import LocalBO
from localbo.plotting import set_style
from localbo.restarts import grid_size_log10

log = logging.getLogger(__name__)


def local_solutions_figure(runs: pd.DataFrame, labels: dict[str, str]) -> plt.Figure:
    """The figure of a Fig. 1 table (one row per run: method, d, sigma, path, value, ...).

    Args:
        runs: the table. labels: each method's name in the figure, in panel order.
    """
    set_style()
    dims = sorted(runs["d"].unique())
    local = runs[runs["method"] == LocalBO.name]
    sigmas = sorted(local["sigma"].unique())
    others = [m for m in labels if m != LocalBO.name]
    bottom = int(not local.empty) + len(others)
    ncols = max(3, len(sigmas), bottom)
    fig, axes = plt.subplots(2, ncols, figsize=(3.2 * ncols, 6.4), squeeze=False)
    color = sns.color_palette()[0]
    full = int(runs.groupby(["method", "d", "sigma"]).size().max())
    for ax in axes.ravel():
        ax.set_visible(False)

    def boxes(ax: plt.Axes, data: pd.DataFrame, title: str) -> None:
        ax.set_visible(True)
        sns.boxplot(
            data=data, x="d", y="value", order=dims, ax=ax, color=color, fliersize=2, linewidth=0.8
        )
        ax.set_title(title)
        counts = data.groupby("d").size()  # the cells drawn, each with at least one run
        partial = counts[counts < full]  # cells run on some of their paths so far
        if not partial.empty:  # room above the boxes for their marks
            low, high = ax.get_ylim()
            ax.set_ylim(low, high + 0.15 * (high - low))
        for d, count in partial.items():
            ax.annotate(  # on two lines, so that neighbouring marks do not run together
                f"{count}\npath{'s' * (count > 1)}",
                (dims.index(d), 1.0),
                xycoords=("data", "axes fraction"),
                xytext=(0, -3),
                textcoords="offset points",
                ha="center",
                va="top",
                fontsize="x-small",
            )
        log.info("panel: %s", title)
        ax.set_xlabel("$d$")
        ax.set_ylabel("$f$ at the returned point")

    for ax, sigma in zip(axes[0], sigmas, strict=False):
        boxes(ax, local[local["sigma"] == sigma], f"{labels[LocalBO.name]}, $\\sigma$ = {sigma:g}")

    panels = iter(axes[1])
    if not local.empty:
        ax = next(panels)
        ax.set_visible(True)
        medians = local[local["sigma"] == 0].groupby("d")["value"].median().reindex(dims)
        log10_n = grid_size_log10(medians.to_numpy())
        ax.plot(range(len(dims)), log10_n, "o-", color=color)
        ax.set_xticks(range(len(dims)), [str(d) for d in dims])
        ax.set_xlabel("$d$")
        ax.set_ylabel("$\\log_{10} n$")
        ax.set_title("grid size to reach the $\\sigma$ = 0 median")
        for d, v, n in zip(dims, medians, log10_n, strict=True):
            log.info("d = %d: sigma = 0 median %.3f, grid size 10^%.1f", d, v, n)

    for ax, method in zip(panels, others, strict=False):
        sel = runs[runs["method"] == method]
        if sel.empty:
            continue
        sigma = sorted(sel["sigma"].unique())[0]
        boxes(ax, sel[sel["sigma"] == sigma], f"{labels[method]}, $\\sigma$ = {sigma:g}")
    fig.tight_layout()
    return fig
