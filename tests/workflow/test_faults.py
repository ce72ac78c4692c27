"""Faults: identical reruns give identical files; a SIGKILLed run resumes to valid outputs."""

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import numpy as np
import pytest

from tests.workflow.helpers import REPO, snakemake, snakemake_command

pytestmark = pytest.mark.workflow


def compared_files(workdir: Path) -> dict[str, bytes]:
    """Every CSV table and every figure, by path relative to the run directory."""
    files = sorted((workdir / "results").rglob("*.csv")) + sorted((workdir / "figures").iterdir())
    return {str(p.relative_to(workdir)): p.read_bytes() for p in files}


def test_two_runs_from_scratch_are_byte_identical(tiny_run, tmp_path):
    snakemake(tmp_path, "--cores", "2")
    first, second = compared_files(tiny_run), compared_files(tmp_path)
    assert sorted(first) == sorted(second)
    different = [name for name in first if first[name] != second[name]]
    assert not different, f"files differ between identical runs: {different}"


def test_one_job_rerun_alone_reproduces_its_output(tiny_run, tmp_path):
    estimate = sorted((tiny_run / "results/fig2/estimates").glob("*.json"))[0]
    target = estimate.relative_to(tiny_run)
    snakemake(tmp_path, "--cores", "1", str(target))
    ours, theirs = json.loads((tmp_path / target).read_text()), json.loads(estimate.read_text())
    ours.pop("seconds"), theirs.pop("seconds")
    assert ours == theirs


def assert_outputs_valid(workdir: Path) -> int:
    """Every result file parses; returns how many there are."""
    count = 0
    for path in (workdir / "results").rglob("*"):
        if path.name.startswith("."):
            continue
        if path.suffix == ".json":
            json.loads(path.read_text())
        elif path.suffix == ".npz":
            with np.load(path, allow_pickle=False) as data:
                _ = [data[k] for k in data.files]
        elif path.suffix == ".csv":
            assert path.read_text().count("\n") >= 2
        else:
            continue
        count += 1
    return count


def test_sigkill_part_way_then_resume(tmp_path):
    cmd = snakemake_command(tmp_path, "--cores", "2")
    proc = subprocess.Popen(
        cmd, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )
    deadline = time.monotonic() + 300
    estimates = tmp_path / "results" / "fig2" / "estimates"
    while time.monotonic() < deadline and proc.poll() is None:
        if estimates.exists() and len(list(estimates.glob("*.json"))) >= 2:
            break
        time.sleep(0.05)
    assert proc.poll() is None, "the pipeline finished before it could be killed"
    os.killpg(proc.pid, signal.SIGKILL)  # Snakemake and every job it started
    proc.wait()
    assert not (tmp_path / "figures" / "fig2_error_function.pdf").exists()
    assert_outputs_valid(tmp_path)

    snakemake(tmp_path, "--unlock", "--cores", "1")
    snakemake(tmp_path, "--cores", "2", "--rerun-incomplete")
    assert assert_outputs_valid(tmp_path) > 2
    assert (tmp_path / "figures" / "fig2_error_function.pdf").stat().st_size > 1000


def test_a_second_snakemake_in_the_same_directory_is_refused_and_the_first_finishes(tmp_path):
    """Snakemake's lock: the second process stops at once, naming the lock; the first, busy with
    the same outputs, completes with valid results."""
    first = subprocess.Popen(
        snakemake_command(tmp_path, "--cores", "2"),
        cwd=REPO,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    locks = tmp_path / ".snakemake" / "locks"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not (locks.exists() and any(locks.iterdir())):
        assert first.poll() is None, "the first run ended before it took its lock"
        time.sleep(0.05)
    second = snakemake(tmp_path, "--cores", "1", check=False, timeout=120)
    assert second.returncode != 0
    assert "cannot be locked" in second.stdout + second.stderr, second.stderr[-2000:]
    assert first.wait(timeout=600) == 0, first.stderr.read()[-2000:]
    assert assert_outputs_valid(tmp_path) > 5
    assert (tmp_path / "results" / "paper_comparison.csv").exists()
