"""A run directory's tables of some figures against the gallery's, column by column.

Before a run's figures replace the gallery's (`python -m localbo.gallery add`), this says how
far its tables are from the gallery's: for each table of the figures asked for (the files the
gallery's provenance lists for them, found in the run under `results/`), the rows, and for each
numeric column the number of rows that differ by more than `--tolerance` relative to the
gallery's value, or to `--floor` where that is smaller (a slope of 1e-17 is a slope of 0; NaN
equals NaN; text columns must be equal), the median and the largest relative difference among
them.
Prints and appends one JSON line per (table, column) that differs, and one per table.

    python bench/tables_against_gallery.py RUN_DIR --figures fig2 rates landscape rbf_error
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np
import pandas as pd
from full_run import append_row, code_version  # bench/, the script's folder

from localbo.gallery import GALLERY
from localbo.pipeline.files import gallery_name

REPO = Path(__file__).resolve().parents[1]


def relative_differences(ours: pd.Series, theirs: pd.Series, floor: float) -> np.ndarray:
    """|ours - theirs| / max(|theirs|, floor) per row (0 where both are equal or both NaN)."""
    a, b = ours.to_numpy(float), theirs.to_numpy(float)
    with np.errstate(divide="ignore", invalid="ignore"):
        rel = np.abs(a - b) / np.maximum(np.abs(b), floor)
    rel[(a == b) | (np.isnan(a) & np.isnan(b))] = 0.0
    return np.where(np.isnan(rel), np.inf, rel)  # NaN against a number


def compare(run_table: Path, gallery_table: Path, tolerance: float, floor: float) -> list[dict]:
    """The table's summary row and a row per differing column."""
    ours, theirs = pd.read_csv(run_table), pd.read_csv(gallery_table)
    name = gallery_table.name
    if list(ours.columns) != list(theirs.columns) or len(ours) != len(theirs):
        return [{"table": name, "same_shape": False, "rows": [len(ours), len(theirs)]}]
    rows, differing = [], 0
    for column in ours.columns:
        if ours[column].dtype.kind not in "fiub" or theirs[column].dtype.kind not in "fiub":
            unequal = int((ours[column].astype(str) != theirs[column].astype(str)).sum())
            differing += unequal > 0
            if unequal:
                rows.append({"table": name, "column": column, "rows_differing": unequal})
            continue
        rel = relative_differences(ours[column], theirs[column], floor)
        beyond = rel[rel > tolerance]
        if len(beyond):
            differing += 1
            rows.append({"table": name, "column": column, "rows_differing": len(beyond),
                         "median_relative": float(np.median(beyond)),
                         "largest_relative": float(beyond.max())})  # fmt: skip
    summary = {"table": name, "same_shape": True, "rows": len(ours), "columns": len(ours.columns)}
    return [{**summary, "columns_differing": differing}, *rows]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("run", type=Path, help="the run directory")
    parser.add_argument("--figures", nargs="+", required=True, help="the gallery's figure names")
    parser.add_argument("--tolerance", type=float, default=1e-6, help="relative")
    parser.add_argument("--floor", type=float, default=1e-12, help="smallest divisor")
    parser.add_argument("--gallery", type=Path, default=REPO / GALLERY)
    parser.add_argument(
        "--out", type=Path, default=REPO / "bench" / "results" / "tables_against_gallery.jsonl"
    )
    args = parser.parse_args()
    provenance = json.loads((args.gallery / "provenance.json").read_text())
    files = {f for fig in args.figures for f in provenance["figures"][fig]["files"]}
    tables = (args.run / "results").rglob("*.csv")
    found = {gallery_name(p.relative_to(args.run)): p for p in tables}
    meta = {"localbo": code_version(), "run": str(args.run), "tolerance": args.tolerance,
            "floor": args.floor}  # fmt: skip
    for name in sorted(files & set(found)):
        for row in compare(found[name], args.gallery / name, args.tolerance, args.floor):
            append_row({**meta, **row}, args.out)
    for name in sorted(f for f in files - set(found) if f.endswith(".csv")):
        append_row({**meta, "table": name, "in_run": False}, args.out)


if __name__ == "__main__":
    main()
