"""A job's CPU: the larger of Snakemake's sampled benchmark and the job's own logged count."""

import logging
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from localbo.io import save_json
from localbo.pipeline.job_cpu import (
    RESUMED_RULE,
    RESUMED_SUMMARIES,
    job_cpu_line,
    job_cpu_seconds,
    logged_cpu_seconds,
)
from localbo.pipeline.runtime import snakemake_job

HEADER = "s\th:m:s\tmax_rss\tmax_vms\tmax_uss\tmax_pss\tio_in\tio_out\tmean_load\tcpu_time\n"


def job(run: Path, rule_path: str, sampled: float, log_lines: list[str] | None = None) -> Path:
    """A job of the run directory: its benchmark TSV with `sampled` CPU seconds, and its log."""
    tsv = run / "benchmarks" / f"{rule_path}.tsv"
    tsv.parent.mkdir(parents=True, exist_ok=True)
    tsv.write_text(HEADER + f"200.0\t0:03:20\t1\t1\t1\t1\t0\t0\t50\t{sampled}\n")
    if log_lines is not None:
        log = run / "logs" / f"{rule_path}.log"
        log.parent.mkdir(parents=True, exist_ok=True)
        log.write_text(
            "".join(f"2026-11-27 15:00:00,000 localbo.rule.x INFO {line}\n" for line in log_lines)
        )
    return tsv


def test_a_job_counts_what_its_last_attempt_logged_when_the_samples_fall_short(tmp_path):
    # the attempt the TSV sampled (90.72 of 110.1 s) logged last; Snakemake removes a log before
    # each attempt, but were an earlier attempt's line (here 130 s) kept, the last is the job's
    lines = [job_cpu_line(130.0), "d = 1 ...", job_cpu_line(110.1)]
    tsv = job(tmp_path, "rates_run/d1", 90.72, lines)
    assert job_cpu_seconds(tmp_path, tsv) == pytest.approx(110.1)


def test_a_job_counts_its_samples_when_they_are_larger_or_nothing_was_logged(tmp_path):
    # children of the job's process count in the samples, not in its own process time
    larger = job(tmp_path, "error_function/d5", 120.0, [job_cpu_line(80.0)])
    assert job_cpu_seconds(tmp_path, larger) == pytest.approx(120.0)
    # a log written before jobs logged their CPU, and a rule without a log
    old = job(tmp_path, "error_function/d10", 95.0, ["progress: 5000 evaluations"])
    assert job_cpu_seconds(tmp_path, old) == pytest.approx(95.0)
    assert job_cpu_seconds(tmp_path, job(tmp_path, "fig1_table", 2.0)) == pytest.approx(2.0)


def test_a_resumed_fig1_job_adds_its_runs_earlier_attempts(tmp_path):
    tsv = job(tmp_path, f"{RESUMED_RULE}/gp_ucb/d50_sigma0.0_chunk3", 90.0, [job_cpu_line(110.0)])
    summary = tmp_path / RESUMED_SUMMARIES / "gp_ucb" / "d50_sigma0.0_chunk3.json"
    save_json(summary, [{"cpu_seconds_before": 600.0}])
    assert job_cpu_seconds(tmp_path, tsv) == pytest.approx(710.0)


def test_every_pipeline_script_logs_its_process_cpu_as_it_ends(tmp_path):
    log = tmp_path / "logs" / "x.log"
    log.parent.mkdir()
    smk = SimpleNamespace(log=[str(log)], threads=1, rule="x")
    before = time.process_time()
    with pytest.raises(ValueError), snakemake_job(smk):
        sum(i * i for i in range(200_000))
        raise ValueError("a failed attempt logs its CPU too")
    after = time.process_time()
    logging.getLogger().handlers.clear()
    logged = logged_cpu_seconds(log)
    assert logged is not None and before < logged <= after + 1e-6  # logged to the microsecond
