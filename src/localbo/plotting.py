"""One figure style for every figure, and byte-identical output for identical data.

The non-interactive Agg backend is pinned here, the only place the library touches matplotlib's
global state. PDFs carry fixed metadata (no creation date, fixed producer) and PNGs no software
tag, so two runs of the pipeline write identical files (matplotlib #6317).
"""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import seaborn as sns

from localbo.io import atomic_path

PALETTE = "colorblind"
_PDF_METADATA = {"Creator": "localbo", "Producer": "localbo", "CreationDate": None}
_PNG_METADATA = {"Software": None}


def set_style() -> None:
    """Seaborn "ticks" style, colorblind palette, fonts sized for a two-column paper."""
    sns.set_theme(
        context="paper",
        style="ticks",
        palette=PALETTE,
        font_scale=1.1,
        rc={
            "axes.grid": True,
            "grid.alpha": 0.3,
            "savefig.bbox": "tight",
            "pdf.fonttype": 42,
            "svg.hashsalt": "localbo",
        },
    )


def save_figure(
    fig: plt.Figure, pdf_path: str | Path, png_path: str | Path, dpi: int = 200
) -> None:
    """Write a figure as PDF and PNG atomically with fixed metadata, then close it."""
    with atomic_path(pdf_path, suffix=".pdf") as tmp:
        fig.savefig(tmp, format="pdf", metadata=_PDF_METADATA)
    with atomic_path(png_path, suffix=".png") as tmp:
        fig.savefig(tmp, format="png", dpi=dpi, metadata=_PNG_METADATA)
    plt.close(fig)


def latex_number(value: float, digits: int = 3) -> str:
    """A number for mathtext: fixed point with `digits` decimals, or a x 10^k when it would
    round to zero (e.g. 2.06e-5 -> "2.06 \\times 10^{-5}")."""
    if value == 0 or abs(value) >= 10.0**-digits:
        return f"{value:.{digits}f}"
    mantissa, exponent = f"{value:.2e}".split("e")
    return f"{mantissa} \\times 10^{{{int(exponent)}}}"
