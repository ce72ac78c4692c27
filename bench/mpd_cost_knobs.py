"""Which MPD knobs its cost model must follow: whole runs on the bench's path (`full_run.py`) at
the defaults and with one knob changed (twice the restarts, twice the window, four times the raw
samples), one core, CPU seconds and the ratio to the mean of two default runs (one first, one
last). Appends one JSON line per (d, budget) to `--out`.

    nice -n 15 python bench/mpd_cost_knobs.py --runs 10:500 50:300
"""

from __future__ import annotations

import argparse
from pathlib import Path

from full_run import (  # bench/, the script's folder
    append_row,
    bench_path,
    one_core,
    timed_paper_run,
)

from localbo.methods.mpd import MPD, MPDSettings

CHANGES = {"restarts": 10, "window_factor": 10, "raw_samples": 256}


def cpu_seconds(d: int, budget: int, **knobs: int) -> float:
    """CPU seconds of one MPD run at budget on the bench's path for d."""
    return timed_paper_run(MPD(MPDSettings(**knobs)), bench_path(d), budget)[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", nargs="+", default=["10:500", "50:300"], help="d:budget pairs")
    parser.add_argument("--out", type=Path, default=Path("bench/results/mpd_cost_knobs.jsonl"))
    args = parser.parse_args()
    with one_core():
        for pair in args.runs:
            d, budget = (int(v) for v in pair.split(":"))
            first = cpu_seconds(d, budget)
            changed = {k: cpu_seconds(d, budget, **{k: v}) for k, v in CHANGES.items()}
            default = (first + cpu_seconds(d, budget)) / 2
            row = {"d": d, "budget": budget, "default_seconds": round(default, 2)}
            row |= {f"{k}={CHANGES[k]}": round(s / default, 2) for k, s in changed.items()}
            append_row(row, args.out)


if __name__ == "__main__":
    main()
