"""The text helpers the summary's writers share: the gallery's tables, numbers as prose prints
them, paragraphs wrapped at 100 characters."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pandas as pd


def wrap(text: str, indent: str = "", first: str = "") -> str:
    """A paragraph wrapped at 100 characters, its first line indented by `first`, the later ones
    by `indent` (a bullet: "- " in the text and `indent` two spaces)."""
    return textwrap.fill(text, 100, initial_indent=first, subsequent_indent=indent,
                         break_on_hyphens=False) + "\n"  # fmt: skip


def table(gallery: Path, name: str) -> pd.DataFrame:
    return pd.read_csv(gallery / f"{name}.csv", keep_default_na=False, na_values=[""])


def fmt(x: float, digits: int = 2) -> str:
    """x with `digits` decimals, a minus sign for negatives and no '-0.00'."""
    text = f"{x:.{digits}f}"
    return text.lstrip("-") if float(text) == 0 else text


def percent(share: float) -> str:
    """A share in percent, to one decimal where a whole number would round it to 0 or 100."""
    text = f"{100 * share:.0f}"
    if text in ("0", "100") and share not in (0.0, 1.0):
        text = f"{100 * share:.1f}"
    return f"{text} %"


def span(values: pd.Series, digits: int = 2) -> str:
    low, high = float(values.min()), float(values.max())
    return (
        fmt(low, digits)
        if fmt(low, digits) == fmt(high, digits)
        else (f"{fmt(low, digits)} to {fmt(high, digits)}")
    )


def paper_row(gallery: Path, quantity: str) -> pd.Series:
    rows = table(gallery, "paper_comparison")
    return rows[rows["quantity"] == quantity].iloc[0]


def table_and_text(lines: list[str], text: str) -> str:
    """A markdown table (its lines) and a paragraph after it."""
    return "\n".join(lines) + "\n\n" + wrap(text)
