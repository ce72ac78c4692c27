"""MPD's reference mode (`MPDSettings.reference_code`) beside its authors' code on the same paths.

The authors' code is kayween/local-bo-mpd at commit fa2e2e4, in a checkout the caller brings
(the script checks its commit), run unmodified in its own environment, outside this repository:
a Python 3.8 with the versions its `environment.yaml` pins (torch 1.11.0, gpytorch 1.6.0,
botorch 0.6.3.1, numpy 1.19.2, gym 0.9.3, glfw 1.12.0; scipy 1.6.3, which it leaves open), given
as `--python`. The script draws Fig. 1's paths (`fig1` defaults: RBF, unit hyperparameters, 4096
features; the paths of `path_stream`), exports each as arrays, runs
`bench/mpd_reference_driver.py` on them with that Python (its docstring lists every override)
once per `--dtypes` (float32: as the authors' script runs it; float64: a diagnosis of what
single precision changes), and runs on the same paths, from x = 0, noiseless: MPD at its
defaults (`localbo.methods.mpd`) at the budget, and in its reference mode at the evaluations the
code spends (`code_evaluations`: the code stops at the first iteration that ends at or past the
budget, so its last iteration samples all its d points; 506 at budget 500, d = 10; ours, whose
budget is a cap, would end that iteration after 4 and move on less data). One row per path
and method goes to --out; then, for the final iterate and the best observation, the difference
of the medians (the authors' code minus each of ours, and each other stream of the reference
mode minus its own) with its 90 % percentile bootstrap interval, the paths resampled in pairs.
The reference code's runs take minutes each: with `--work`, a run that stopped resumes where it
stopped.

    python bench/mpd_against_reference.py CHECKOUT --python REFERENCE_PYTHON --paths 0 20 \\
        --d 10 --budget 500 --jobs 2 --dtypes float32 float64
"""

from __future__ import annotations

import argparse
import json
import subprocess
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
from full_run import append_row, code_version, one_core  # bench/, the script's folder
from scipy import stats

from localbo.io import save_npz
from localbo.kernels import RBF
from localbo.methods.mpd import MPD, MPDSettings
from localbo.objective import Box
from localbo.optimizers import run_on_path
from localbo.pipeline.fig1 import Fig1Settings
from localbo.pipeline.fig1_job import path_stream, run_streams
from localbo.pipeline.settings import SEED
from localbo.sample_paths import FourierSamplePath

COMMIT = "fa2e2e4"
DRIVER = Path(__file__).with_name("mpd_reference_driver.py")
QUANTITIES = {"value": "final iterate", "best_observation_value": "best observation"}
DTYPES = ("float32", "float64")  # the authors' script's, and a diagnosis


def checked_commit(checkout: Path) -> str:
    """The checkout's commit, which must be COMMIT's.

    Raises:
        SystemExit: another commit.
    """
    head = subprocess.run(
        ["git", "-C", str(checkout), "rev-parse", "HEAD"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    if not head.startswith(COMMIT):
        raise SystemExit(f"{checkout} is at {head[:7]}, not kayween/local-bo-mpd {COMMIT}")
    return head


def fig1_paths(d: int, indices: range) -> dict[int, FourierSamplePath]:
    """Fig. 1's paths of dimension d (its defaults: RBF, unit hyperparameters, 4096 features),
    by index."""
    settings = Fig1Settings()
    kernel = RBF(settings.lengthscale, settings.outputscale)
    return {
        i: FourierSamplePath.draw(kernel, d, settings.num_features, path_stream(SEED, d, i))
        for i in indices
    }


def export(paths: dict[int, FourierSamplePath], folder: Path) -> dict[int, Path]:
    """Each path's arrays (frequencies (M, d), phases (M,), weights (M,)) and index, as npz,
    by path index."""
    files = {}
    for i, path in paths.items():
        files[i] = folder / f"path{i}.npz"
        save_npz(files[i], frequencies=path.frequencies, phases=path.phases,
                 weights=path.weights, index=np.int64(i))  # fmt: skip
    return files


def reference_runs(
    args: argparse.Namespace, files: dict[int, Path], folder: Path, dtype: str
) -> list[dict]:
    """The driver on the paths' files in `dtype`, in `args.jobs` processes of the reference
    environment; a path with a row in `folder` already (from a run that stopped) is not run
    again."""

    def rows() -> dict[int, dict]:
        found = {}
        for part in folder.glob(f"reference-{dtype}-*.jsonl"):
            for line in part.read_text().splitlines():
                row = json.loads(line)
                found[row["path"]] = row
        return found

    todo = [file for i, file in files.items() if i not in rows()]
    parts = [todo[k :: args.jobs] for k in range(args.jobs)]

    def run(k: int) -> None:
        out = folder / f"reference-{dtype}-{k}.jsonl"
        command = [args.python, str(DRIVER), "--checkout", str(args.checkout), "--paths"]
        command += [str(f) for f in parts[k]] + ["--budget", str(args.budget), "--out", str(out)]
        subprocess.run([*command, "--dtype", dtype], check=True, cwd=args.checkout)

    with ThreadPoolExecutor(args.jobs) as pool:
        list(pool.map(run, [k for k in range(args.jobs) if parts[k]]))
    found = rows()
    return [found[i] for i in files]


# our two modes, each run as the gallery runs it (config/mpd_reference.yaml): under the name
# whose streams its runs draw from
OURS = {
    "reference mode": ("mpd_reference", MPDSettings(reference_code=True)),
    "ours": ("mpd_short", MPDSettings()),
}


def code_evaluations(budget: int, d: int) -> int:
    """The evaluations the code spends at `budget`: whole iterations of d + 1 (the iterate and
    d points), until one ends at or past the budget.

    Example:
        >>> code_evaluations(500, 10), code_evaluations(495, 10)
        (506, 495)
    """
    return -(-budget // (d + 1)) * (d + 1)


def our_runs(
    paths: dict[int, FourierSamplePath], d: int, budget: int, streams: int = 1
) -> list[dict]:
    """MPD at its defaults (at `budget`) and in its reference mode (at `code_evaluations`) on
    each path, with Fig. 1's streams and box; with `streams` > 1, the reference mode
    again with the optimizer streams of seeds SEED + 1, ..., SEED + streams - 1 (method
    "reference mode, stream s"): how far runs that differ only in their restarts' starts end
    apart."""
    bounds = Fig1Settings().box
    box, kernel = Box(bounds.lower, bounds.upper, d), RBF()
    stream, reference = OURS["reference mode"]
    spent = code_evaluations(budget, d)
    runs = [(name, stream_name, settings, SEED, spent if settings.reference_code else budget)
            for name, (stream_name, settings) in OURS.items()]  # fmt: skip
    runs += [(f"reference mode, stream {s}", stream, reference, SEED + s, spent)
             for s in range(1, streams)]  # fmt: skip
    rows = []
    with one_core():
        for name, stream_name, settings, seed, evaluations in runs:
            for i, path in paths.items():
                noise_rng, rng = run_streams(seed, stream_name, d, 0.0, i)
                started = time.process_time()
                result = run_on_path(MPD(settings), path, kernel, 0.0, evaluations, box,
                                     noise_rng=noise_rng, rng=rng)  # fmt: skip
                rows.append(
                    {
                        "path": i,
                        "method": name,
                        "value": result.value,
                        "best_observation_value": result.info["best_observation_value"],
                        "evaluations": result.evaluations,
                        "cpu_seconds": time.process_time() - started,
                    }
                )
    return rows


def difference_of_medians(reference: np.ndarray, ours: np.ndarray, seed: int) -> tuple:
    """median(reference) - median(ours) of paired per-path values, with the 90 % percentile
    bootstrap interval (the paths resampled in pairs)."""
    result = stats.bootstrap(
        (reference, ours),
        lambda a, b, axis=-1: np.median(a, axis=axis) - np.median(b, axis=axis),
        paired=True,
        vectorized=True,
        n_resamples=9999,
        confidence_level=0.9,
        method="percentile",
        rng=np.random.default_rng(seed),
    )
    interval = result.confidence_interval
    return float(np.median(reference) - np.median(ours)), interval.low, interval.high


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("checkout", type=Path, help="kayween/local-bo-mpd at " + COMMIT)
    parser.add_argument("--python", required=True, help="the reference environment's Python")
    parser.add_argument("--paths", type=int, nargs=2, default=(0, 20), metavar=("FIRST", "STOP"))
    parser.add_argument("--d", type=int, default=10)
    parser.add_argument("--budget", type=int, default=500)
    parser.add_argument("--jobs", type=int, default=2, help="reference processes at once")
    parser.add_argument("--dtypes", nargs="+", default=["float32"], choices=DTYPES)
    parser.add_argument(
        "--streams", type=int, default=1, help="restart streams of the reference mode (1: its own)"
    )
    parser.add_argument("--out", type=Path, default=Path("bench/results/mpd_reference.jsonl"))
    parser.add_argument(
        "--work",
        type=Path,
        help="a folder for the exported paths and the reference code's rows, kept: a run that"
        " stopped, started again with the same folder, runs only the paths without a row"
        " (default: a temporary folder)",
    )
    args = parser.parse_args()
    args.checkout = args.checkout.resolve()
    commit = checked_commit(args.checkout)
    paths = fig1_paths(args.d, range(*args.paths))
    rows = our_runs(paths, args.d, args.budget, args.streams)
    with tempfile.TemporaryDirectory(prefix="mpd-reference-") as scratch:
        folder = args.work or Path(scratch)
        folder.mkdir(parents=True, exist_ok=True)
        files = export(paths, folder)
        for dtype in args.dtypes:
            reference = reference_runs(args, files, folder, dtype)
            rows += [{**r, "method": f"reference code, {dtype}"} for r in reference]
    ours = code_version()
    run = {"commit": commit, "localbo": ours, "d": args.d, "budget": args.budget}
    kept = ("method", "path", "value", "best_observation_value", "evaluations", "cpu_seconds")
    for row in sorted(rows, key=lambda r: (r["method"], r["path"])):
        append_row({**run, **{k: row[k] for k in kept}}, args.out)
    codes = [f"reference code, {dtype}" for dtype in args.dtypes]
    methods = list(dict.fromkeys(r["method"] for r in rows))
    by = {m: {r["path"]: r for r in rows if r["method"] == m} for m in methods}
    order = sorted(by["reference mode"])
    pairs = [(code, other) for code in codes for other in ("reference mode", "ours")]
    pairs += [(m, "reference mode") for m in methods if m.startswith("reference mode, stream")]
    for key, name in QUANTITIES.items():
        for first, other in pairs:
            values = np.array([by[first][i][key] for i in order])
            mine = np.array([by[other][i][key] for i in order])
            diff, low, high = difference_of_medians(values, mine, args.paths[0])
            summary = {
                "summary": f"{name}: {first} - {other}",
                "median_first": float(np.median(values)),
                "median_other": float(np.median(mine)),
                "difference_of_medians": diff,
                "low": low,
                "high": high,
                "paths": len(order),
            }
            append_row({**run, **summary}, args.out)
    for method, runs in by.items():
        cpu = [r["cpu_seconds"] for r in runs.values()]
        summary = {"median": float(np.median(cpu)), "total": float(np.sum(cpu))}
        append_row({**run, "summary": f"CPU seconds per run: {method}", **summary}, args.out)


if __name__ == "__main__":
    main()
