"""A part's tables merged into the gallery's (`localbo.gallery.add`): Fig. 1's table and its
curve table, run by run, and the differences of Fig. 3's curves that both hold. Each works on
CSV rows (dicts of strings), so that a row the gallery keeps is kept to the character."""

from __future__ import annotations

import math
from collections.abc import Callable

from localbo.pipeline.fig1 import TABLE_COLUMNS, table_order


def merge_runs(
    held: list[dict[str, str]], new: list[dict[str, str]], supersede: frozenset[str] = frozenset()
) -> tuple[list[dict[str, str]], list[str], list[dict[str, str]], int, dict[str, float]]:
    """Fig. 1's table of the runs of both (CSV rows), in table order; a run both hold keeps the
    gallery's row, unless its method is in `supersede` and the rows differ: then `new`'s.

    A column only one table has is empty in the other's rows (a method that reports a new
    scalar).

    Returns:
        The rows, the columns (the common ones, then the others in name order), the rows of
        `new` the gallery held to the character, how many replaced a different row (`supersede`),
        and for the others the largest |difference| of `value` per "method d=.. sigma=.." (inf
        where `value` is not a number).

    Raises:
        ValueError: `new` holds a run twice.
    """
    columns = {c for row in held + new for c in row}
    columns = [*TABLE_COLUMNS, *sorted(columns - set(TABLE_COLUMNS))]
    rows = {table_order(row): {c: row.get(c, "") for c in columns} for row in held}
    seen, reproduced, superseded, differences = set(), [], 0, {}
    for row in new:
        row = {c: row.get(c, "") for c in columns}
        key = table_order(row)
        if key in seen:
            raise ValueError(f"run {key} (method, sigma, d, path) is in the part's table twice")
        seen.add(key)
        if key not in rows:
            rows[key] = row
        elif rows[key] == row:
            reproduced.append(row)
        elif row["method"] in supersede:
            rows[key] = row
            superseded += 1
        else:
            cell = f"{row['method']} d={row['d']} sigma={row['sigma']}"
            try:
                gap = abs(float(rows[key]["value"]) - float(row["value"]))
            except ValueError:
                gap = math.inf
            differences[cell] = max(differences.get(cell, 0.0), gap)
    return [rows[key] for key in sorted(rows)], columns, reproduced, superseded, differences


def merge_curves(
    held: list[dict[str, str]], new: list[dict[str, str]]
) -> tuple[list[dict[str, str]], int]:
    """Fig. 1's curve table of the runs of both (CSV rows), in table order and by evaluations
    within a run: a run both hold keeps the gallery's rows. Returns the rows and how many runs
    `new` added."""
    runs: dict[tuple, list[dict[str, str]]] = {}
    for row in held:
        runs.setdefault(table_order(row), []).append(row)
    added: dict[tuple, list[dict[str, str]]] = {}
    for row in new:
        if table_order(row) not in runs:
            added.setdefault(table_order(row), []).append(row)
    runs.update(added)
    rows = [row for key in sorted(runs) for row in runs[key]]
    return rows, len(added)


def largest_differences(
    held: list[dict[str, str]], new: list[dict[str, str]], curve: Callable[[dict[str, str]], str]
) -> dict[str, float]:
    """Per curve (`curve` of a row names it) that both tables hold and that differs anywhere:
    the largest difference of its median over the rows of the same `restarts`."""
    kept = {(curve(row), row["restarts"]): row["median"] for row in held}
    largest: dict[str, float] = {}
    for row in new:
        key = (curve(row), row["restarts"])
        if key in kept and kept[key] != row["median"]:
            gap = abs(float(kept[key]) - float(row["median"]))
            largest[key[0]] = max(largest.get(key[0], 0.0), gap)
    return largest
