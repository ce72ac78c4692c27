"""The methods of Fig. 1 compared path by path: its config section and the tables made from
Fig. 1's table alone (so the gallery makes them from its committed table, without a run).

Every method is compared with the baseline (local BO) on the paths both ran, at every d and noise
level where both ran at the same budget, and every pair of `pairs` (a variant against another,
e.g. MPD as its authors' code runs it against ours) on the paths both ran: the paired differences
of each quantity the table has for both (the returned point's value; TuRBO-1's first region and
MPD's best observation as rows of their own against the baseline's value) and their statistics
(`localbo.paired_comparison`: ties count as zero). Holm's correction runs within a family: one
method's quantity against one baseline at one noise level, across d. A row of fewer than
`small_pairs` paths is flagged small. A method whose class is an oracle (the exact-gradient
search) is marked so.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from localbo.paired_comparison import ZERO_METHOD, holm, paired_summary
from localbo.seeding import rng_for

if TYPE_CHECKING:  # the Snakefile reads the settings: it need not import pandas
    import pandas as pd

# a Fig. 1 table's columns compared, each with the name of its rows
QUANTITIES = {
    "value": "returned point",
    "first_region_value": "first trust region",
    "best_observation_value": "best observation",
}
SUMMARY_COLUMNS = [
    "sigma", "d", "method", "label", "against", "quantity", "oracle", "paths", "small",
    "median_difference", "low", "high", "hodges_lehmann", "wins", "ties", "losses",
    "wilcoxon_p", "holm_p",
]  # fmt: skip
# the rows one Holm correction adjusts together: one method's quantity against one baseline at
# one noise level, across d
FAMILY = ("method", "against", "quantity", "sigma")
DIFFERENCE_COLUMNS = ["sigma", "d", "method", "against", "quantity", "path", "difference"]


@dataclass(frozen=True)
class MethodComparisonSettings:
    """The `method_comparison` config section.

    Attributes:
        baseline: the method every other is compared with.
        tie_tolerance: |difference| up to this is a tie (a converged run's resolution), counted
            as zero.
        confidence: of the bootstrap interval of the median difference.
        resamples: bootstrap resamples.
        small_pairs: a row of fewer paths than this is flagged small.
        pairs: method -> the method it is compared with instead (both at its own budget);
            both are named by their Fig. 1 sections' labels (`Fig1Jobs.label`).
    """

    baseline: str = "local_bo"
    tie_tolerance: float = 1e-3
    confidence: float = 0.95
    resamples: int = 9999
    small_pairs: int = 20
    pairs: dict[str, str] = field(
        default_factory=lambda: {
            "mpd_reference": "mpd_short",
            "minucb_reference": "minucb",
            "nestbo_reference": "nestbo_short",
            "nestbo_short": "local_bo_short",
        }
    )

    def as_config(self) -> dict[str, Any]:
        return {**self.__dict__, "pairs": dict(self.pairs)}

    def check(self) -> list[str]:
        """Problems the schema cannot see, each starting with its dotted key."""
        if not 0 < self.confidence < 1:
            return [f"method_comparison.confidence: must be in (0, 1), got {self.confidence}"]
        return []


def comparisons(
    table: pd.DataFrame, settings: MethodComparisonSettings, methods: dict[str, dict[str, Any]]
) -> list[tuple[str, str, str]]:
    """(method, against, quantity) of every row: each method the config names (`methods`:
    name -> its budget) that has the baseline's budget, against the baseline, by each quantity
    the table has for it; then each pair of `pairs` the table holds, by each quantity both have."""
    present = set(table["method"])
    budget = methods.get(settings.baseline, {}).get("budget")
    rows = []
    for method, about in methods.items():
        paired = method in settings.pairs or method == settings.baseline
        if paired or method not in present or about.get("budget") != budget:
            continue
        rows += [(method, settings.baseline, q) for q in quantities(table, method)]
    for method, against in settings.pairs.items():
        if method in present and against in present:
            shared = set(quantities(table, against))
            rows += [(method, against, q) for q in quantities(table, method) if q in shared]
    return rows


def quantities(table: pd.DataFrame, method: str) -> list[str]:
    """The quantities the table has for a method (a column with a value in its rows)."""
    rows = table[table["method"] == method]
    return [q for q in QUANTITIES if q in rows and rows[q].notna().any()]


def compare(
    table: pd.DataFrame,
    settings: MethodComparisonSettings,
    methods: dict[str, dict[str, Any]],
    seed: int,
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The summary rows and the paired differences of a Fig. 1 table.

    Args:
        table: Fig. 1's table (method, d, sigma, path, value, and the quantity columns).
        settings: the section. methods: name -> {"label", "budget", "oracle"} of the methods
            the config names (a method of the table it does not name is its name, no oracle).
        seed: the config's base seed (each row's bootstrap has its own stream).
    """
    summary, differences = [], []
    for method, against, quantity in comparisons(table, settings, methods):
        other = "value" if against == settings.baseline else quantity
        for (sigma, d), cell in table.groupby(["sigma", "d"]):
            mine = cell[cell["method"] == method].set_index("path")[quantity].dropna()
            theirs = cell[cell["method"] == against].set_index("path")[other].dropna()
            paths = mine.index.intersection(theirs.index).sort_values()
            if paths.empty:
                continue
            diff = (mine[paths] - theirs[paths]).to_numpy(dtype=float)
            rng = rng_for(seed, "method_comparison", method, against, quantity, d, sigma)
            stats = paired_summary(
                diff, settings.tie_tolerance, settings.confidence, settings.resamples, rng
            )
            about = methods.get(method, {})
            summary.append(
                {
                    "sigma": float(sigma),
                    "d": int(d),
                    "method": method,
                    "label": about.get("label", method),
                    "against": against,
                    "quantity": QUANTITIES[quantity],
                    "oracle": bool(about.get("oracle", False)),
                    "paths": stats.paths,
                    "small": stats.paths < settings.small_pairs,
                    "median_difference": stats.median,
                    "low": stats.low,
                    "high": stats.high,
                    "hodges_lehmann": stats.hodges_lehmann,
                    "wins": stats.wins,
                    "ties": stats.ties,
                    "losses": stats.losses,
                    "wilcoxon_p": stats.p_value,
                }
            )
            differences += [
                {
                    "sigma": float(sigma),
                    "d": int(d),
                    "method": method,
                    "against": against,
                    "quantity": QUANTITIES[quantity],
                    "path": int(path),
                    "difference": float(value),
                }
                for path, value in zip(paths, diff, strict=True)
            ]
    families: dict[tuple[Any, ...], list[dict[str, Any]]] = {}
    for row in summary:
        families.setdefault(tuple(row[k] for k in FAMILY), []).append(row)
    for family in families.values():
        for row, adjusted in zip(family, holm([r["wilcoxon_p"] for r in family]), strict=True):
            row["holm_p"] = adjusted
    summary.sort(key=lambda r: (r["sigma"], r["against"], r["method"], r["quantity"], r["d"]))
    return summary, differences


def statistics_note(settings: MethodComparisonSettings) -> str:
    """How the table's statistics are made, for its caption and the figure."""
    return (
        f"ties: differences within {settings.tie_tolerance:g}, counted as zero; median of the "
        f"paired differences with a {settings.confidence:.0%} percentile bootstrap interval "
        f"({settings.resamples} resamples); Hodges-Lehmann estimate; Wilcoxon signed-rank on "
        f"the decided paths (zero_method {ZERO_METHOD}), Holm's correction across d; rows of "
        f"fewer than {settings.small_pairs} paths flagged small"
    )


def method_params(fig1_jobs: Any) -> dict[str, dict[str, Any]]:
    """Each method the Fig. 1 config names: its label (`Fig1Jobs.label`, the one place a
    method's name in figures and tables comes from), budget, whether it is an oracle, the
    registered method it runs, what its trace records and what it returns as figures name them,
    whether Fig. 1 draws it, and its colour (`Fig1Jobs.colors`)."""
    fig1 = fig1_jobs.settings
    colors, returned = fig1_jobs.colors(), fig1_jobs.returned()
    return {
        name: {
            "label": fig1_jobs.label(name),
            "budget": fig1.budget_of(name),
            "oracle": bool(m.optimizer.oracle),
            "optimizer": m.optimizer.name,
            "traced": m.optimizer.traced,
            "returned": returned[name],
            "drawn": m.jobs.drawn,
            "color": colors[name],
        }
        for name, m in fig1.methods.methods.items()
    }
