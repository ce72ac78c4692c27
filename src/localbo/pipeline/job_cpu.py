"""The CPU seconds of a run directory's jobs: Snakemake's sampled count and the job's own.

Snakemake samples a job's CPU time every 30 s (every 0.5 s in its first 15 s; `BENCHMARK_INTERVAL`
of `snakemake.benchmark`) and writes the last sample to the job's `benchmarks/` TSV, so the file
misses what the job spent after it, up to 30 s a job. Every pipeline script
(`localbo.pipeline.runtime.snakemake_job`) therefore logs its own process's CPU time as it ends,
a line `job CPU <seconds> s` in the rule's log, whose path below logs/ is the benchmark's below
benchmarks/ (tests/workflow/test_hygiene.py). A job counts the larger of the two. Snakemake removes
a job's log before each attempt, so the log holds the line of the attempt the TSV measured; were
an earlier attempt's line kept, the last line would be that one.

A Fig. 1 run job taken up from its runs' checkpoints (`RESUMED_RULE`) also counts the CPU its runs
spent in earlier attempts, which each run records as `cpu_seconds_before` in the job's summary.
"""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

from localbo.io import load_csv, load_json

# the rule whose jobs take runs up from checkpoints, and where it writes its summaries (as
# workflow/rules/fig1.smk names them: benchmarks/fig1_run/M/J.tsv is the job of
# results/fig1/runs/M/J.json)
RESUMED_RULE, RESUMED_SUMMARIES = "fig1_run", Path("results/fig1/runs")
JOB_CPU = re.compile(r"job CPU ([0-9.]+) s$", re.MULTILINE)


def job_cpu_line(seconds: float) -> str:
    """The log line that records a job's own CPU seconds (`JOB_CPU` reads it)."""
    return f"job CPU {seconds:.6f} s"


def logged_cpu_seconds(log: Path) -> float | None:
    """The CPU seconds the last attempt of a job logged as it ended; None if none did."""
    if not log.exists():
        return None
    found = JOB_CPU.findall(log.read_text(errors="replace"))
    return float(found[-1]) if found else None


def job_cpu_seconds(run: Path, tsv: Path) -> float:
    """CPU seconds of one job of the run directory `run`: the larger of its Snakemake benchmark
    TSV under run/benchmarks (its `cpu_time` rows; NA, which Snakemake writes when it could not
    measure, counts nothing) and what its log under run/logs says it spent, plus, for a Fig. 1 run
    job, its runs' CPU in earlier attempts (none in summaries made before it was recorded)."""
    rows = load_csv(tsv, delimiter="\t")
    sampled = sum(float(r["cpu_time"]) for r in rows if r.get("cpu_time") not in (None, "NA"))
    job = tsv.relative_to(run / "benchmarks")
    logged = logged_cpu_seconds((run / "logs" / job).with_suffix(".log"))
    seconds = max(sampled, logged or 0.0)
    if job.parts[0] == RESUMED_RULE:
        summary = run / RESUMED_SUMMARIES / job.relative_to(RESUMED_RULE).with_suffix(".json")
        if summary.exists():
            seconds += sum(r.get("cpu_seconds_before", 0.0) for r in load_json(summary))
    return seconds


def cpu_hours(run: Path, after: float | None = None) -> dict[str, dict[str, float]]:
    """CPU-hours (`job_cpu_seconds`) and job count per rule from the run directory's
    benchmarks/ tree (one TSV per job), of the jobs that ended after the time `after` (seconds
    since the epoch; every job if None): Snakemake writes a job's TSV as it ends."""
    benchmarks = run / "benchmarks"
    totals: dict[str, dict[str, float]] = defaultdict(lambda: {"cpu_hours": 0.0, "jobs": 0})
    for tsv in sorted(benchmarks.rglob("*.tsv")):
        if after is not None and tsv.stat().st_mtime <= after:
            continue
        relative = tsv.relative_to(benchmarks)
        rule = relative.parts[0] if len(relative.parts) > 1 else tsv.stem
        totals[rule]["cpu_hours"] += job_cpu_seconds(run, tsv) / 3600.0
        totals[rule]["jobs"] += 1
    return dict(totals)
