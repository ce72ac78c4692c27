"""Fig. 1's figure from its table: a box drawn from fewer runs than the fullest cell says so."""

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
        fig = local_solutions_figure(table({1: 4, 5: paths}), LABELS)
        assert panel_texts(fig, "GP-UCB") == [mark]
        assert panel_texts(fig, "local BO") == []  # its cells are full
        assert headroom(fig, "GP-UCB") > headroom(fig, "local BO") + 0.1  # room for the mark
        plt.close(fig)


def test_a_complete_table_marks_nothing() -> None:
    fig = local_solutions_figure(table({1: 4, 5: 4}), LABELS)
    assert panel_texts(fig, "GP-UCB") == []
    plt.close(fig)
