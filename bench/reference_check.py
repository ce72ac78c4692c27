"""A method of ours beside its authors' code on the same sample paths: what the checks share.

A check (`mpd_against_reference.py`, `minucb_against_reference.py`) names the reference code (its
repository, commit, config and the driver's overrides) and our modes of the method; `main` draws
Fig. 1's paths (`fig1` defaults: RBF, unit hyperparameters, 4096 features; the paths of
`path_stream`), runs ours on them from x = 0, noiseless, as Fig. 1 runs them, exports each path
as arrays and runs the code's driver on them in the reference code's environment (`--python`,
outside this repository; the driver's docstring lists every override), once per `--dtypes`
(float32 where the authors' scripts run it so; float64 then a diagnosis of what single precision
changes). The reference mode (the first of ours) runs to the evaluations the code spends, the
others to the budget; with `--streams`, the reference mode runs again with other random streams.
One row per path and method goes to --out; then, for the final iterate and the best
observation, the difference of the medians (the authors' code minus each of ours, and each other
stream of the reference mode minus its own) with its 90 % percentile bootstrap interval, the
paths resampled in pairs; then each method's CPU seconds.
The reference code's runs take minutes each: with `--work`, a run that stopped resumes where it
stopped. A check may name diagnoses, changes the driver can make to the code to find where it
and ours part (not part of the check): `--diagnoses NAME ...` runs the code with each of them
too, in rows named "reference code, DTYPE, NAME", compared with ours as the code is.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from full_run import append_row, code_version, one_core  # bench/, the script's folder

from localbo.io import save_npz
from localbo.kernels import RBF
from localbo.objective import Box
from localbo.optimizers import FunctionOptimizer, run_on_path
from localbo.paired_comparison import difference_of_medians
from localbo.pipeline.fig1 import Fig1Settings
from localbo.pipeline.fig1_job import path_stream, run_streams
from localbo.pipeline.settings import SEED, load_settings, merged_config
from localbo.sample_paths import FourierSamplePath

BENCH = Path(__file__).parent
CONFIG = BENCH.parent / "config" / "config.yaml"
QUANTITIES = {"value": "final iterate", "best_observation_value": "best observation"}


@dataclass(frozen=True)
class ReferenceCode:
    """One reference code and our modes of its method.

    Attributes:
        repository, commit: where the code is, and the commit the checkout must be at.
        driver: the script of bench/ that runs the code on exported paths.
        driver_args: the driver's arguments for Fig. 1's box (lower, upper).
        ours: a name of ours -> (the stream name its runs draw from, the method); the first is
            the reference mode, which `--streams` runs again with other streams.
        dtypes: the precisions the code can run in, the one its authors' scripts use first.
        spent: the evaluations the code spends at (budget, d), which the reference mode is run
            to (a code may overrun its budget; ours is capped at it).
        diagnoses: a name -> the driver's switches that change the code in one named way, for
            finding a departure (`--diagnoses`).
    """

    repository: str
    commit: str
    driver: str
    driver_args: Callable[[float, float], list[str]]
    ours: dict[str, tuple[str, Callable[[], FunctionOptimizer]]]
    dtypes: tuple[str, ...] = ("float32", "float64")
    spent: Callable[[int, int], int] = field(default=lambda budget, d: budget)
    diagnoses: dict[str, list[str]] = field(default_factory=dict)


def configured(section: str) -> FunctionOptimizer:
    """The method of config/config.yaml's `fig1.methods` section `section`, at its settings (a
    variant as its authors run it: the one owner of those settings)."""
    return load_settings(merged_config([CONFIG])).fig1.method(section).optimizer


def whole_iterations(budget: int, size: int) -> int:
    """The evaluations a loop of iterations of `size` evaluations spends when it stops at the
    first iteration that ends at or past `budget` (the GIBO-family codes' loop).

    Example:
        >>> whole_iterations(500, 11), whole_iterations(495, 11)
        (506, 495)
    """
    return -(-budget // size) * size


def checked_commit(checkout: Path, repository: str, commit: str) -> str:
    """The checkout's commit, which must be `commit` of `repository`.

    Raises:
        SystemExit: another commit.
    """
    head = subprocess.run(
        ["git", "-C", str(checkout), "rev-parse", "HEAD"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    if not head.startswith(commit):
        raise SystemExit(f"{checkout} is at {head[:7]}, not {repository} {commit}")
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
    args: argparse.Namespace, code: ReferenceCode, files: dict[int, Path], folder: Path,
    dtype: str, diagnosis: str | None = None,
) -> list[dict]:  # fmt: skip
    """The driver on the paths' files in `dtype` (changed by `diagnosis`, one of the code's
    `diagnoses`), in `args.jobs` processes of the reference environment; a path with a row in
    `folder` already (from a run that stopped) is not run again."""
    tag = dtype if diagnosis is None else f"{dtype}-{diagnosis.replace(' ', '-')}"
    switches = [] if diagnosis is None else code.diagnoses[diagnosis]

    def rows() -> dict[int, dict]:
        found = {}
        for part in folder.glob(f"reference-{tag}-[0-9]*.jsonl"):  # not a diagnosis's
            for line in part.read_text().splitlines():
                row = json.loads(line)
                found[row["path"]] = row
        return found

    todo = [file for i, file in files.items() if i not in rows()]
    parts = [todo[k :: args.jobs] for k in range(args.jobs)]

    def run(k: int) -> None:
        out = folder / f"reference-{tag}-{k}.jsonl"
        box = Fig1Settings().box
        command = [args.python, str(BENCH / code.driver), "--checkout", str(args.checkout)]
        command += code.driver_args(box.lower, box.upper)
        command += ["--paths", *map(str, parts[k]), "--budget", str(args.budget)]
        subprocess.run([*command, "--out", str(out), "--dtype", dtype, *switches], check=True,
                       cwd=args.checkout)  # fmt: skip

    with ThreadPoolExecutor(args.jobs) as pool:
        list(pool.map(run, [k for k in range(args.jobs) if parts[k]]))
    found = rows()
    return [found[i] for i in files]


def our_runs(
    code: ReferenceCode,
    paths: dict[int, FourierSamplePath],
    d: int,
    budget: int,
    streams: int = 1,
) -> list[dict]:
    """Each of our modes on each path, as Fig. 1 runs it: from x = 0, noiseless, from the
    streams of its name; the reference mode (the first) to the evaluations the code spends
    (`code.spent`), the others to the budget. With `streams` > 1, the reference mode again with
    the optimizer streams of seeds SEED + 1, ..., SEED + streams - 1 ("NAME, stream s"): how far
    runs that differ only in their random draws end apart."""
    bounds = Fig1Settings().box
    box, kernel = Box(bounds.lower, bounds.upper, d), RBF()
    (reference, (stream, method)), *others = code.ours.items()
    spent = code.spent(budget, d)
    runs = [(reference, stream, method, SEED, spent)]
    runs += [(name, name_stream, m, SEED, budget) for name, (name_stream, m) in others]
    runs += [
        (f"{reference}, stream {s}", stream, method, SEED + s, spent) for s in range(1, streams)
    ]
    rows = []
    with one_core():
        for name, stream_name, make, seed, evaluations in runs:
            for i, path in paths.items():
                noise_rng, rng = run_streams(seed, stream_name, d, 0.0, i)
                started = time.process_time()
                result = run_on_path(make(), path, kernel, 0.0, evaluations, box,
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


def main(
    code: ReferenceCode, description: str, out: str, deltas: dict[str, ReferenceCode] | None = None
) -> None:
    """The check's command line (the module docstring); `out` is its default --out. With
    `deltas` (a name -> the check at that delta, `code` the first's), `--delta` picks one, and
    its rows carry its name."""
    parser = argparse.ArgumentParser(description=description)
    if deltas:
        parser.add_argument("--delta", choices=list(deltas), default=next(iter(deltas)),
                            help="whose sampling delta both run at")  # fmt: skip
    parser.add_argument("checkout", type=Path, help=f"{code.repository} at {code.commit}")
    parser.add_argument("--python", required=True, help="the reference environment's Python")
    parser.add_argument("--paths", type=int, nargs=2, default=(0, 20), metavar=("FIRST", "STOP"))
    parser.add_argument("--d", type=int, default=10)
    parser.add_argument("--budget", type=int, default=500)
    parser.add_argument("--jobs", type=int, default=2, help="reference processes at once")
    parser.add_argument("--dtypes", nargs="+", default=code.dtypes[:1], choices=code.dtypes)
    parser.add_argument(
        "--streams", type=int, default=1, help="random streams of the reference mode (1: its own)"
    )
    parser.add_argument(
        "--diagnoses", nargs="*", default=[], choices=list(code.diagnoses),
        help="run the code changed in these named ways too (finding a departure)",
    )  # fmt: skip
    parser.add_argument("--out", type=Path, default=Path(out))
    parser.add_argument(
        "--work",
        type=Path,
        help="a folder for the exported paths and the reference code's rows, kept: a run that"
        " stopped, started again with the same folder, runs only the paths without a row"
        " (default: a temporary folder)",
    )
    args = parser.parse_args()
    code = deltas[args.delta] if deltas else code
    args.checkout = args.checkout.resolve()
    commit = checked_commit(args.checkout, code.repository, code.commit)
    paths = fig1_paths(args.d, range(*args.paths))
    rows = our_runs(code, paths, args.d, args.budget, args.streams)
    with tempfile.TemporaryDirectory(prefix="reference-") as scratch:
        folder = args.work or Path(scratch)
        folder.mkdir(parents=True, exist_ok=True)
        files = export(paths, folder)
        codes = []
        for dtype in args.dtypes:
            for diagnosis in [None, *args.diagnoses]:
                label = ", ".join(filter(None, ["reference code", dtype, diagnosis]))
                reference = reference_runs(args, code, files, folder, dtype, diagnosis)
                rows += [{**r, "method": label} for r in reference]
                codes.append(label)
    ours = code_version()
    run = {"commit": commit, "localbo": ours, "d": args.d, "budget": args.budget}
    if deltas:
        run["delta"] = args.delta
    kept = ("method", "path", "value", "best_observation_value", "evaluations", "cpu_seconds")
    for row in sorted(rows, key=lambda r: (r["method"], r["path"])):
        append_row({**run, **{k: row[k] for k in kept}}, args.out)
    methods = list(dict.fromkeys(r["method"] for r in rows))
    by = {m: {r["path"]: r for r in rows if r["method"] == m} for m in methods}
    order = sorted(paths)
    reference = next(iter(code.ours))
    pairs = [(c, other) for c in codes for other in code.ours]
    pairs += [(m, reference) for m in methods if m.startswith(f"{reference}, stream")]
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


def step_by_step_parser(
    code: ReferenceCode, description: str, path: int, budget: int, out: str
) -> argparse.ArgumentParser:
    """The command line the step-by-step benches share (`mpd_step_by_step.py`,
    `nestbo_step_by_step.py`), with their defaults of the path, the budget and --out."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("checkout", type=Path, help=f"{code.repository} at {code.commit}")
    parser.add_argument("--python", required=True, help="the reference environment's Python")
    parser.add_argument("--path", type=int, default=path, help="the index of Fig. 1's path")
    parser.add_argument("--d", type=int, default=10)
    parser.add_argument("--budget", type=int, default=budget)
    parser.add_argument("--seed", type=int, default=0, help="our restarts' and fits' stream")
    parser.add_argument("--work", type=Path, help="a folder for the path and the trace, kept")
    parser.add_argument("--out", type=Path, default=Path(out))
    return parser


def traced_run(
    code: ReferenceCode, args: argparse.Namespace, name: str, switches: list[str]
) -> tuple[str, dict[str, np.ndarray]]:
    """The checkout's commit (checked) and the code's run on Fig. 1's path `args.path` of
    dimension `args.d`, step by step: the trace its driver records with `--trace` (and
    `switches`) as `NAME.npz` in `args.work` (a temporary folder if None), made there first
    unless it is found (a run takes minutes)."""
    args.checkout = args.checkout.resolve()
    commit = checked_commit(args.checkout, code.repository, code.commit)
    with tempfile.TemporaryDirectory(prefix="trace-") as scratch:
        folder = args.work or Path(scratch)
        folder.mkdir(parents=True, exist_ok=True)
        trace = folder / f"{name}.npz"
        if not trace.exists():
            paths = fig1_paths(args.d, range(args.path, args.path + 1))
            (file,) = export(paths, folder).values()
            command = [args.python, str(BENCH / code.driver), "--checkout", str(args.checkout)]
            bounds = Fig1Settings().box
            command += [*code.driver_args(bounds.lower, bounds.upper), "--paths", str(file)]
            command += ["--budget", str(args.budget), *switches]
            command += ["--out", str(folder / "runs.jsonl"), "--trace", str(trace)]
            subprocess.run(command, check=True, cwd=args.checkout)
        return commit, dict(np.load(trace))


def quantiles(values: list[float]) -> dict:
    """Median and 10 % / 90 % quantiles, and the count."""
    q10, q50, q90 = np.quantile(values, [0.1, 0.5, 0.9])
    return {"median": float(q50), "q10": float(q10), "q90": float(q90), "steps": len(values)}
