"""Fig. 1's figure from its table: every method on one axis (or the paper's panels), and a box
drawn from fewer runs than the fullest cell says so."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import pandas as pd

from localbo.colors import method_colors
from localbo.pipeline.local_solutions_figure import local_solutions_figure

LABELS = {"local_bo": "local BO", "gp_ucb": "GP-UCB"}
COLORS = method_colors(["local_bo", "gp_ucb", "turbo"])


def figure(runs, labels, layout):
    return local_solutions_figure(runs, labels, layout, "local_bo", COLORS)


def table(gp_ucb_paths: dict[int, int]) -> pd.DataFrame:
    """Local BO on 4 paths at d = 1 and 5; GP-UCB on the given number of paths per d."""
    rows = [("local_bo", d, p) for d in (1, 5) for p in range(4)]
    rows += [("gp_ucb", d, p) for d, count in gp_ucb_paths.items() for p in range(count)]
    return pd.DataFrame(
        [{"method": m, "d": d, "sigma": 0.0, "path": p, "value": -float(p)} for m, d, p in rows]
    )


def panel(fig: plt.Figure, title: str) -> plt.Axes:
    (ax,) = [ax for ax in fig.axes if ax.get_visible() and ax.get_title().startswith(title)]
    return ax


def panel_texts(fig: plt.Figure, title: str) -> list[str]:
    return [text.get_text() for text in panel(fig, title).texts]


def headroom(fig: plt.Figure, title: str) -> float:
    """The axis above the highest value drawn (0), as a share of the axis."""
    low, high = panel(fig, title).get_ylim()
    return high / (high - low)


def test_a_box_of_some_paths_is_marked_with_its_count() -> None:
    for paths, mark in ((1, "1\npath"), (3, "3\npaths")):
        fig = figure(table({1: 4, 5: paths}), LABELS, "paper")
        assert panel_texts(fig, "GP-UCB") == [mark]
        assert panel_texts(fig, "local BO") == []  # its cells are full
        assert headroom(fig, "GP-UCB") > headroom(fig, "local BO") + 0.1  # room for the mark
        plt.close(fig)
        fig = figure(table({1: 4, 5: paths}), LABELS, "compare")
        assert panel_texts(fig, "every method") == [mark]  # GP-UCB's d = 5 box only
        plt.close(fig)


def test_a_complete_table_marks_nothing() -> None:
    for layout in ("paper", "compare"):
        fig = figure(table({1: 4, 5: 4}), LABELS, layout)
        assert not [t for ax in fig.axes for t in ax.texts]
        plt.close(fig)


def test_the_methods_compare_on_one_axis_with_turbos_first_region() -> None:
    """Every method's sigma = 0 boxes in one panel, in the labels' order, each in its colour,
    and TuRBO-1's first region beside it, hatched in TuRBO-1's colour, when the table has it."""
    runs = table({1: 4, 5: 4})
    turbo = runs[runs["method"] == "gp_ucb"].assign(method="turbo", first_region_value=-9.0)
    labels = {**LABELS, "turbo": "TuRBO-1"}
    fig = figure(pd.concat([runs, turbo]), labels, "compare")
    ax = panel(fig, "every method")
    legend = ax.get_legend()
    names = [text.get_text() for text in legend.get_texts()]
    assert names == ["local BO", "GP-UCB", "TuRBO-1", "TuRBO-1, first trust region"]
    faces = [matplotlib.colors.to_hex(h.get_facecolor()) for h in legend.legend_handles]
    assert faces == [COLORS[m] for m in ("local_bo", "gp_ucb", "turbo", "turbo")]
    assert [h.get_hatch() for h in legend.legend_handles] == [None, None, None, "///"]
    assert ax.get_ylim()[0] < -9.0  # the first region's values are drawn on the same axis
    plt.close(fig)
