"""A Fig. 1 cell run at other settings, against the gallery's runs of the same paths.

A method's new settings (a cheaper GP-UCB refinement, say `fig1.methods.gp_ucb.refine_iterations:
15` in an override config) are run as a pipeline part in a run directory of its own, so that its
runs keep their state across sessions. This reads the run directory's finished jobs of one
(method, d, sigma), pairs each run's final value with the gallery's row of the same path, and
prints and appends to --out the medians, the paired differences (positive: the run ends above
the gallery; within 1e-12 relative, equal) and the CPU seconds of each job (its `benchmarks/`
TSV and log, with its earlier attempts: `job_cpu_seconds`). The gallery's runs are not timed
here: their CPU is recorded with the gallery's parts.

A part that tests new settings may later supersede the gallery's runs (`gallery --supersede`);
`--gallery-at COMMIT` then reads the table as it stood at that commit:

    python bench/against_gallery.py RUN_DIR --method gp_ucb --d 50 \\
        --label "refine_iterations 15"
    python bench/against_gallery.py RUN_DIR --method gp_ucb --d 10 \\
        --label "refine_iterations 15" --gallery-at 021e071
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import subprocess
from pathlib import Path

import numpy as np
from full_run import append_row  # bench/, the script's folder

from localbo.pipeline.job_cpu import job_cpu_seconds

# final values within this relative difference count as equal
EQUAL_WITHIN = 1e-12


def gallery_values(
    table: Path, method: str, d: int, sigma: float, commit: str | None = None
) -> dict[int, float]:
    """path -> final value of the gallery's rows of one cell (at a git commit, if given)."""
    if commit is None:
        text = table.read_text()
    else:
        show = ["git", "show", f"{commit}:{table.as_posix()}"]
        text = subprocess.run(show, capture_output=True, text=True, check=True).stdout
    return {
        int(row["path"]): float(row["value"])
        for row in csv.DictReader(io.StringIO(text))
        if row["method"] == method and int(row["d"]) == d and float(row["sigma"]) == sigma
    }


def run_values(run: Path, method: str, d: int, sigma: float) -> dict[int, tuple[float, float]]:
    """path -> (final value, CPU seconds of its job) of the run directory's finished jobs."""
    found = {}
    cell = f"d{d}_sigma{sigma}"
    for summary in sorted((run / "results/fig1/runs" / method).glob(f"{cell}_chunk*.json")):
        runs = json.loads(summary.read_text())
        cpu = job_cpu_seconds(run, run / "benchmarks/fig1_run" / method / f"{summary.stem}.tsv")
        for result in runs:
            found[int(result["path"])] = (float(result["value"]), cpu / len(runs))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run", type=Path)
    parser.add_argument("--method", default="gp_ucb")
    parser.add_argument("--d", type=int, required=True)
    parser.add_argument("--sigma", type=float, default=0.0)
    parser.add_argument("--label", required=True, help="what the run's settings change")
    parser.add_argument(
        "--gallery",
        type=Path,
        default=Path("figures/gallery/fig1-local_solutions.csv"),
        help="the gallery's table, relative to the repository's root",
    )
    parser.add_argument(
        "--gallery-at",
        metavar="COMMIT",
        help="read the table as it stood at this commit (before a part superseded the cell)",
    )
    parser.add_argument("--out", type=Path, default=Path("bench/results/against_gallery.jsonl"))
    args = parser.parse_args()
    gallery = gallery_values(args.gallery, args.method, args.d, args.sigma, args.gallery_at)
    runs = run_values(args.run, args.method, args.d, args.sigma)
    paths = sorted(set(runs) & set(gallery))
    if not paths:
        raise SystemExit(f"no finished run of {args.run} has a gallery row to pair with")
    value = np.array([runs[i][0] for i in paths])
    today = np.array([gallery[i] for i in paths])
    difference = value - today
    # the same run, rounded by other software (a sample path's last digits move with numpy and
    # BLAS versions): equal, not better or worse
    same = np.abs(difference) <= EQUAL_WITHIN * np.maximum(np.abs(value), np.abs(today))
    row = {
        "run": str(args.run),
        "label": args.label,
        "gallery_at": args.gallery_at,
        "method": args.method,
        "d": args.d,
        "sigma": args.sigma,
        "paths": paths,
        "median": float(np.median(value)),
        "gallery_median": float(np.median(today)),
        "paired_difference_median": float(np.median(difference)),
        "paired_difference_mean": float(difference.mean()),
        "worse": int(((difference > 0) & ~same).sum()),
        "better": int(((difference < 0) & ~same).sum()),
        "equal": int(same.sum()),
        "cpu_s": [runs[i][1] for i in paths],
        "values": value.tolist(),
        "gallery_values": today.tolist(),
    }
    append_row(row, args.out)


if __name__ == "__main__":
    main()
