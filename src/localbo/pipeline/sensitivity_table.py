"""The sensitivity study's tables: each path's amplitude and Fig. 3 curve, every setting judged by
the rule of the row it explains, and the causes the paper comparison names
(`localbo.pipeline.sensitivity` holds the study's settings and jobs)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from localbo.pipeline.gradient_estimation import PROCEDURES, completed
from localbo.pipeline.sensitivity import DEFAULT

TABLE_COLUMNS = [
    "explains", "quantity", "choice", "value", "default", "procedure", "ours", "ours_low",
    "ours_high", "paper", "p_value", "verdict",
]  # fmt: skip
PATH_COLUMNS = ["choice", "value", "path", "amplitude", "k1", "k10"]


def amplitude(weights: np.ndarray, outputscale: float) -> float:
    """A path's amplitude: the root mean square of its features' N(0, 1) weights w_i, from its
    stored weights sqrt(s2) sqrt(2 / M) w_i (M, ).

    Example:
        >>> amplitude(np.sqrt(2 / 4) * np.array([1.0, -1.0, 1.0, -1.0]), 1.0)
        1.0
    """
    w = weights / (math.sqrt(outputscale) * math.sqrt(2 / len(weights)))
    return float(np.sqrt(np.mean(w**2)))


def fig3_curve(values: np.ndarray, index: int, seed: int, orderings: int) -> tuple[float, float]:
    """A path's median single run (k = 1) and median best of 10 (k = 10, NaN with fewer runs)
    over `orderings` random orders of its runs' values (n,), with Fig. 3's stream of the path's
    orders."""
    from localbo.restarts import best_after_restarts
    from localbo.seeding import rng_for

    k = min(10, len(values))
    curve = best_after_restarts(
        values, k, orderings, 0.9, rng_for(seed, "fig3", "orderings", index)
    )
    return float(curve.median[0]), float(curve.median[9]) if k == 10 else math.nan


def table(
    fig3: dict[str, list[dict[str, Any]]],
    fig1: dict[str, np.ndarray],
    gradient: dict[tuple[str, str], list[dict[str, str]]],
    settings: dict[str, Any],
    alpha: float,
    resamples: int,
    seed: int,
) -> list[dict[str, Any]]:
    """The study's table: a row per setting and row explained, our number by the row's rule.

    Args:
        fig3: per Fig. 3 setting, each path's row (path, amplitude, k1, k10; `fig3_curve`).
        fig1: per Fig. 1 setting, its paths' values (n,).
        gradient: per (setting, case), its draws table's rows; the procedures' own settings
            under (DEFAULT + "-" + procedure, case).
        settings: `SensitivityJobs.table_params`. alpha, resamples: the comparison's
            (`PaperComparisonSettings`). seed: the base seed.
    """
    from localbo.paired_comparison import median_interval
    from localbo.pipeline.paper_claims import CLAIMS
    from localbo.pipeline.paper_comparison import Ours, judge
    from localbo.seeding import rng_for

    claims = {c.key: c for c in CLAIMS}
    rows = []

    def row(key: str, choice: str, value: Any, mine: Ours, procedure: str = "") -> None:
        claim = claims[key]
        found = judge(claim, mine, alpha, rng_for(seed, "sensitivity", key, choice, str(value)))
        rows.append(
            {
                "explains": key,
                "quantity": claim.quantity,
                "choice": choice or "ours",
                "value": "" if value is None else value,
                "default": not choice,
                "procedure": procedure,
                "ours": mine.value,
                "ours_low": mine.low,
                "ours_high": mine.high,
                "paper": claim.paper,
                "p_value": found.p_value,
                "verdict": found.verdict,
            }
        )

    for name, (choice, value) in settings["fig3"].items():
        paths = sorted(fig3[name], key=lambda r: r["path"])
        for k, key in ((1, "fig3_best_of_1"), (10, "fig3_best_of_10")):
            sample = np.array([p[f"k{k}"] for p in paths])
            low, high = float(sample.min()), float(sample.max())
            row(key, choice, value, Ours("", float(sample[0]), low, high, sample=sample))
    ours = settings["ours_features"]
    for name, m in settings["fig1"].items():
        values = fig1[name]
        rng = rng_for(seed, "sensitivity", "fig1", m)
        low, high = median_interval(values, 1 - alpha, resamples, rng)
        choice = "" if m == ours else "num_features"
        mine = Ours("", float(np.median(values)), low, high, sample=values)
        row("fig1_median", choice, None if m == ours else m, mine)
    for procedure in PROCEDURES:
        own = {DEFAULT: ("", None)} | {
            name: (c, v) for name, (p, c, v) in settings["gradient"].items() if p == procedure
        }
        for name, (choice, value) in own.items():
            for case in settings["cases"]:
                draws = completed(
                    gradient[f"{DEFAULT}-{procedure}" if name == DEFAULT else name, case]
                )
                components = sorted(k for k in draws[0] if k.startswith("grad_"))
                sample = np.array([[float(r[k]) for k in components] for r in draws])
                single = sample[:, 0] if sample.shape[1] == 1 else None
                mine = Ours(
                    "",
                    math.nan if single is None else float(np.median(single)),
                    sample=sample,
                )
                row(f"draws:{case}:{procedure}", choice, value, mine, procedure)
    return rows


def causes(rows: list[dict[str, Any]]) -> dict[str, str]:
    """Per row explained: the settings under which ours agrees with the paper's ("choice =
    value; ..."), or "none of: choice (values); ..." where none does.

    Example:
        >>> causes([
        ...     {"explains": "k", "choice": "ours", "value": "", "verdict": "inconsistent"},
        ...     {"explains": "k", "choice": "budget", "value": 10000, "verdict": "consistent"},
        ...     {"explains": "k", "choice": "budget", "value": 1e5, "verdict": "inconsistent"},
        ... ])
        {'k': 'budget = 10000'}
    """
    tried: dict[str, dict[str, list[str]]] = {}
    agree: dict[str, list[str]] = {}
    for r in rows:
        if r["choice"] == "ours":
            continue
        value = f"{r['value']:g}" if isinstance(r["value"], float) else str(r["value"])
        tried.setdefault(r["explains"], {}).setdefault(r["choice"], []).append(value)
        if r["verdict"] == "consistent":
            agree.setdefault(r["explains"], []).append(f"{r['choice']} = {value}")
    return {
        key: "; ".join(agree[key])
        if key in agree
        else "none of: " + "; ".join(f"{c} ({', '.join(v)})" for c, v in choices.items())
        for key, choices in tried.items()
    }
