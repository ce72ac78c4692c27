"""What the acquisition benches against an oracle share (`mpd_acquisition.py`,
`nestbo_acquisition.py`): the tally of the two implementations' choices on the same states, with
the null (the oracle against itself at a one-ulp change), its row, and the command line.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
from full_run import append_row  # bench/, the script's folder

KINDS = ("library", "null")


class Choices:
    """CPU seconds of each side, and per kind how far the choices lie apart (max norm) and, where
    by more than 1e-6, the oracle's alpha at the other choice relative to its own minus 1."""

    def __init__(self) -> None:
        self.seconds = {"oracle": 0.0, "library": 0.0}
        self.differences: dict[str, list[float]] = {kind: [] for kind in KINDS}
        self.gaps: dict[str, list[float]] = {kind: [] for kind in KINDS}

    def record(
        self, kind: str, alpha: Callable[[np.ndarray], float], point: np.ndarray, other: np.ndarray
    ) -> None:
        """The oracle's (d,) choice `point` beside `other`; alpha is the oracle's acquisition."""
        self.differences[kind].append(float(np.abs(point - other).max()))
        if self.differences[kind][-1] > 1e-6:
            self.gaps[kind].append(alpha(other) / alpha(point) - 1.0)

    def row(self, d: int, budget: int) -> dict:
        """One JSON row of the run at d."""
        seconds, gaps = self.seconds, self.gaps
        row = {
            "d": d,
            "budget": budget,
            "points": len(self.differences["library"]),
            "oracle_cpu_s": seconds["oracle"],
            "library_cpu_s": seconds["library"],
            "ratio": seconds["oracle"] / seconds["library"],
        }
        for kind in KINDS:
            row |= {
                f"{kind}_differing_over_1e-6": len(gaps[kind]),
                f"{kind}_largest_difference": max(self.differences[kind]),
                f"{kind}_alpha_ratio_min": min(gaps[kind], default=0.0),
                f"{kind}_alpha_ratio_max": max(gaps[kind], default=0.0),
                f"{kind}_alpha_ratio_median": float(np.median(gaps[kind])) if gaps[kind] else 0.0,
            }
        return row


def main(
    compare: Callable[[int, int], dict], doc: str, dims: list[int], budget: int, out: str
) -> None:
    """The command line: `compare(d, budget)` for each of --dims, a row each appended to --out."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--dims", type=int, nargs="+", default=dims)
    parser.add_argument("--budget", type=int, default=budget)
    parser.add_argument("--out", type=Path, default=Path(out))
    args = parser.parse_args()
    for d in args.dims:
        append_row({"date": time.strftime("%Y-%m-%d"), **compare(d, args.budget)}, args.out)
