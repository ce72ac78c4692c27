"""One figure style for every figure, and byte-identical output for identical data.

The style is seaborn's "ticks" style in its "paper" context at font scale 1.1 with its
colorblind palette, written out as matplotlib settings (`STYLE`, `COLORS`): importing seaborn
(and with it pandas and scipy.stats) cost a plot job over 2 s of its 3, for a style. The
non-interactive Agg backend is pinned here, the only place the library touches matplotlib's
global state. PDFs carry fixed metadata (no creation date, fixed producer) and PNGs no software
tag, so two runs of the pipeline write identical files (matplotlib #6317).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
from cycler import cycler
from matplotlib.ticker import NullFormatter

from localbo.colors import COLORS
from localbo.io import atomic_path
from localbo.panels import PANEL_AXES

INK = "0.15"  # text, axes and ticks
# seaborn.set_theme(context="paper", style="ticks", font_scale=1.1), with a faint grid
STYLE = {
    "font.size": 10.56,
    "axes.labelsize": 10.56,
    "axes.titlesize": 10.56,
    "xtick.labelsize": 9.68,
    "ytick.labelsize": 9.68,
    "legend.fontsize": 9.68,
    "legend.title_fontsize": 10.56,
    "font.family": ["sans-serif"],
    "font.sans-serif": ["Arial", "DejaVu Sans", "Liberation Sans", "Bitstream Vera Sans"],
    "axes.linewidth": 1.0,
    "grid.linewidth": 0.8,
    "lines.linewidth": 1.2,
    "lines.markersize": 4.8,
    "lines.solid_capstyle": "round",
    "patch.linewidth": 0.8,
    "patch.force_edgecolor": True,
    "xtick.major.width": 1.0,
    "ytick.major.width": 1.0,
    "xtick.minor.width": 0.8,
    "ytick.minor.width": 0.8,
    "xtick.major.size": 4.8,
    "ytick.major.size": 4.8,
    "xtick.minor.size": 3.2,
    "ytick.minor.size": 3.2,
    "xtick.direction": "out",
    "ytick.direction": "out",
    "axes.facecolor": "white",
    "figure.facecolor": "white",
    "axes.edgecolor": INK,
    "axes.labelcolor": INK,
    "text.color": INK,
    "xtick.color": INK,
    "ytick.color": INK,
    "grid.color": "0.8",
    "axes.axisbelow": True,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "legend.frameon": True,
    "legend.numpoints": 1,
    "legend.scatterpoints": 1,
    "axes.prop_cycle": cycler(color=list(COLORS)),
    "savefig.bbox": "tight",
    "pdf.fonttype": 42,
    "svg.hashsalt": "localbo",
}
_PDF_METADATA = {"Creator": "localbo", "Producer": "localbo", "CreationDate": None}
_PNG_METADATA = {"Software": None}


def set_style() -> None:
    """The figures' style (`STYLE`): seaborn's ticks, fonts sized for a two-column paper."""
    matplotlib.rcParams.update(STYLE)


def palette(n: int | None = None) -> list[str]:
    """The first n colours of the figures' palette (all ten by default; it repeats after ten).

    Example:
        >>> palette(2), len(palette(12))
        (['#0173b2', '#de8f05'], 12)
    """
    n = len(COLORS) if n is None else n
    return [COLORS[k % len(COLORS)] for k in range(n)]


def boxes(
    ax: plt.Axes,
    groups: Sequence[np.ndarray],
    positions: Sequence[float],
    color: object,
    width: float = 0.6,
    label: str | None = None,
    hatch: str | None = None,
) -> None:
    """Box plots of `groups` at x = `positions` in one colour: quartile boxes, a median line,
    whiskers to the furthest point within 1.5 IQR, small fliers beyond (seaborn's look, drawn
    by matplotlib itself; an empty group is skipped). `label` names the colour in a legend;
    `hatch` marks a method's second quantity (TuRBO-1's first region) in its colour."""
    drawn = [(group, x) for group, x in zip(groups, positions, strict=True) if len(group)]
    if not drawn:
        return
    line = {"color": "0.25", "linewidth": 0.8}
    artists = ax.boxplot(
        [group for group, _ in drawn],
        positions=[x for _, x in drawn],
        widths=width,
        orientation="vertical",
        patch_artist=True,
        manage_ticks=False,
        boxprops={"facecolor": color, "edgecolor": "0.25", "linewidth": 0.8, "hatch": hatch},
        medianprops=line,
        whiskerprops=line,
        capprops=line,
        flierprops={"marker": "o", "markersize": 2, "color": "0.25", "markeredgecolor": "0.25"},
    )
    if label is not None:
        artists["boxes"][0].set_label(label)


def density(ax: plt.Axes, values: np.ndarray, color: object, points: int = 256) -> None:
    """The Gaussian kernel density of values (n,), Scott's bandwidth, over their range, filled
    (what seaborn's kdeplot with cut=0 draws). Written out rather than scipy.stats.gaussian_kde,
    whose import is most of a plot job's start-up."""
    x = np.linspace(values.min(), values.max(), points)
    width = values.std(ddof=1) * len(values) ** -0.2
    kernel = np.exp(-0.5 * ((x[:, None] - values[None, :]) / width) ** 2)
    y = kernel.sum(axis=1) / (len(values) * width * np.sqrt(2 * np.pi))
    ax.fill_between(x, y, color=color, alpha=0.25, lw=0)
    ax.plot(x, y, color=color)


def notes_above(ax: plt.Axes, notes: dict[float, str], room: float = 0.15) -> None:
    """Small notes along the top of an axes, each above the x it is keyed by, and room made for
    them (`room`: a share of the y range added on top)."""
    if not notes:
        return
    low, high = ax.get_ylim()
    ax.set_ylim(low, high + room * (high - low))
    for x, text in notes.items():
        ax.annotate(
            text,
            (x, 1.0),
            xycoords=("data", "axes fraction"),
            xytext=(0, -3),
            textcoords="offset points",
            ha="center",
            va="top",
            fontsize="x-small",
        )


def save_figure(
    fig: plt.Figure, pdf_path: str | Path | None, png_path: str | Path, dpi: int = 200
) -> None:
    """Write a figure as PNG and PDF (unless None: a gallery keeps PNGs only) atomically with
    fixed metadata, then close it. The layout is computed once, by the PNG's draw, and kept
    for the PDF's (a figure's layout is most of a draw)."""
    with atomic_path(png_path, suffix=".png") as tmp:
        fig.savefig(tmp, format="png", dpi=dpi, metadata=_PNG_METADATA)
    if pdf_path is not None:
        fig.set_layout_engine("none")
        with atomic_path(pdf_path, suffix=".pdf") as tmp:
            fig.savefig(tmp, format="pdf", metadata=_PDF_METADATA)
    plt.close(fig)


def latex_number(value: float, digits: int = 3) -> str:
    """A number for mathtext: fixed point with `digits` decimals, or a x 10^k when it would
    round to zero (e.g. 2.06e-5 -> "2.06 \\times 10^{-5}")."""
    if value == 0 or abs(value) >= 10.0**-digits:
        return f"{value:.{digits}f}"
    mantissa, exponent = f"{value:.2e}".split("e")
    return f"{mantissa} \\times 10^{{{int(exponent)}}}"


@dataclass(frozen=True)
class Curve:
    """One quantity of an error-function table drawn against b or d, one colour per sigma.

    Attributes:
        value: a table row (CSV strings) -> the value to draw.
        style: matplotlib format of the lines. legend: its legend entry.
        proxy: the format of the legend entry (default: `style`).
        kwargs: more line properties (width, marker size).
        proxy_kwargs: the legend entry's (default: `kwargs`).
    """

    value: Callable[[dict[str, str]], float]
    style: str
    legend: str
    proxy: str = ""
    kwargs: dict[str, float] = field(default_factory=dict)
    proxy_kwargs: dict[str, float] | None = None


# The estimated error function, as both error-function figures draw it first (markers and a
# solid line, the legend entry a line alone).
ESTIMATE = Curve(
    lambda r: float(r["estimate"]), "o-", "estimate (L-BFGS)", "-", {"ms": 3}, {"lw": 1.5}
)


def error_function_panels(
    rows: list[dict[str, str]], curves: list[Curve], ylabel: str, ncol: int
) -> plt.Figure:
    """Fig. 2's layout: (a) against b at fixed d, (b) against d at fixed b, log-log, the first
    curve labelled by sigma, a legend of sigmas and curves below.

    Args:
        rows: table rows with panel, d, b, sigma and the curves' columns.
        curves: what to draw at each point, the estimate first. ylabel: the y axis.
        ncol: legend columns.
    """
    sigmas = sorted({float(r["sigma"]) for r in rows})
    colors = dict(zip(sigmas, palette(len(sigmas)), strict=True))
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.8), layout="constrained")
    for ax, (panel, (x_key, fixed_key)) in zip(axes, PANEL_AXES.items(), strict=True):
        fixed = None
        for sigma in sigmas:
            sel = sorted(
                (r for r in rows if r["panel"] == panel and float(r["sigma"]) == sigma),
                key=lambda r: int(r[x_key]),
            )
            if not sel:
                continue
            fixed = sel[0][fixed_key]
            x = [int(r[x_key]) for r in sel]
            for i, curve in enumerate(curves):
                label = {"label": f"$\\sigma$ = {sigma:g}"} if i == 0 else {}
                values = [curve.value(r) for r in sel]
                ax.plot(x, values, curve.style, color=colors[sigma], **curve.kwargs, **label)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.xaxis.set_minor_formatter(NullFormatter())
        ax.set_xlabel(f"${x_key}$")
        ax.set_ylabel(ylabel)
        ax.set_title(f"({panel}) ${fixed_key}$ = {fixed}")
    for curve in curves:
        kwargs = curve.kwargs if curve.proxy_kwargs is None else curve.proxy_kwargs
        axes[0].plot([], [], "k" + (curve.proxy or curve.style), label=curve.legend, **kwargs)
    fig.legend(*axes[0].get_legend_handles_labels(), loc="outside lower center", ncol=ncol)
    return fig
