"""Fig. 1's figure from its table: every method on one axis (or the paper's panels), and a box
drawn from fewer runs than the fullest cell says so."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import pandas as pd

from localbo.pipeline.local_solutions_figure import local_solutions_figure

LABELS = {"local_bo": "local BO", "gp_ucb": "GP-UCB"}


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
        fig = local_solutions_figure(table({1: 4, 5: paths}), LABELS, "paper", "local_bo")
        assert panel_texts(fig, "GP-UCB") == [mark]
        assert panel_texts(fig, "local BO") == []  # its cells are full
        assert headroom(fig, "GP-UCB") > headroom(fig, "local BO") + 0.1  # room for the mark
        plt.close(fig)
        fig = local_solutions_figure(table({1: 4, 5: paths}), LABELS, "compare", "local_bo")
        assert panel_texts(fig, "every method") == [mark]  # GP-UCB's d = 5 box only
        plt.close(fig)


def test_a_complete_table_marks_nothing() -> None:
    for layout in ("paper", "compare"):
        fig = local_solutions_figure(table({1: 4, 5: 4}), LABELS, layout, "local_bo")
        assert not [t for ax in fig.axes for t in ax.texts]
        plt.close(fig)


def test_the_methods_compare_on_one_axis_with_turbos_first_region() -> None:
    """Every method's sigma = 0 boxes in one panel, in the labels' order, and TuRBO-1's first
    region as a method of its own when the table has it."""
    runs = table({1: 4, 5: 4})
    turbo = runs[runs["method"] == "gp_ucb"].assign(method="turbo", first_region_value=-9.0)
    labels = {**LABELS, "turbo": "TuRBO-1"}
    fig = local_solutions_figure(pd.concat([runs, turbo]), labels, "compare", "local_bo")
    ax = panel(fig, "every method")
    names = [text.get_text() for text in ax.get_legend().get_texts()]
    assert names == ["local BO", "GP-UCB", "TuRBO-1", "TuRBO-1, first region"]
    assert ax.get_ylim()[0] < -9.0  # the first region's values are drawn on the same axis
    plt.close(fig)
