"""The progress figure: each method's median f over paths against its evaluations, with the
interquartile band, one panel per d and noise level of the curve table at which more than one
method runs, every method of a panel on one axis (`localbo.pipeline.progress` makes the median
curves). A method Fig. 1 does not draw (a variant beside its method) is dashed.

A local method's curve is f at its iterate, a global method's at its incumbent (the best
observation so far): the legend says which of each. A curve ends at its method's budget; a count
before some run's first record (NeST-BO's initial design) is not drawn.
"""

from __future__ import annotations

from typing import Any

import matplotlib.pyplot as plt
import pandas as pd

from localbo.plotting import set_style

BAND_ALPHA = 0.15


def legend_label(about: dict[str, Any]) -> str:
    """A method's legend entry: its label, and the point its curve follows.

    Example:
        >>> legend_label({"label": "GP-UCB", "traced": "incumbent"})
        'GP-UCB (incumbent)'
    """
    return f"{about['label']} ({about['traced']})"


def progress_figure(medians: pd.DataFrame, methods: dict[str, dict[str, Any]]) -> plt.Figure:
    """The figure (the module docstring).

    Args:
        medians: `progress.median_curves` of the curve table (method, sigma, d, evaluations,
            paths, median, q25, q75).
        methods: name -> {"label", "traced", "color", "drawn", ...} of the config's Fig. 1 sections
            (`method_comparison.method_params`), in the config's order, the legend's.
    """
    set_style()
    compared = medians.groupby("sigma")["method"].nunique()
    levels = sorted(compared.index[compared > 1]) or sorted(compared.index)
    dims = sorted(medians["d"].unique())
    fig, axes = plt.subplots(
        len(levels), len(dims), figsize=(3.0 * len(dims) + 1.0, 2.6 * len(levels) + 1.2),
        squeeze=False, layout="constrained",
    )  # fmt: skip
    order = [m for m in methods if m in set(medians["method"])]
    for row, sigma in enumerate(levels):
        for col, d in enumerate(dims):
            ax = axes[row, col]
            cell = medians[(medians["sigma"] == sigma) & (medians["d"] == d)]
            for method in order:
                curve = cell[cell["method"] == method].dropna(subset=["median"])
                if curve.empty:
                    continue
                color = methods[method]["color"]
                ax.fill_between(curve["evaluations"], curve["q25"], curve["q75"],
                                color=color, alpha=BAND_ALPHA, lw=0, step="post")  # fmt: skip
                style = "-" if methods[method]["drawn"] else "--"
                ax.step(curve["evaluations"], curve["median"], where="post", color=color, lw=1.2,
                        ls=style, label=legend_label(methods[method]))  # fmt: skip
            paths = ", ".join(sorted({str(p) for p in cell["paths"]}, key=int))
            ax.set_title(f"d = {d}, $\\sigma$ = {sigma:g} ({paths} paths)")
            ax.set_xscale("log")
            ax.set_xlabel("evaluations")
            if col == 0:
                ax.set_ylabel("f at the iterate or incumbent")
    handles: dict[str, Any] = {}
    for ax in axes.flat:
        for handle, label in zip(*ax.get_legend_handles_labels(), strict=True):
            handles.setdefault(label, handle)
    fig.legend(handles.values(), handles.keys(), loc="outside lower center",
               ncol=min(3, max(len(handles), 1)), frameon=False)  # fmt: skip
    fig.suptitle(
        "Progress: median over paths and interquartile band of f at each method's iterate "
        "(local methods) or incumbent (global ones)"
    )
    return fig
