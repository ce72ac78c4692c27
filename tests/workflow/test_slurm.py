"""Run the pipeline through a real SLURM cluster with the workflow's cluster profile.

The cluster is the private one-node cluster of `.ci/slurm/start.sh` (slurmctld, slurmd, slurmdbd
with MariaDB, munge). Where no cluster answers, the test skips with the reason printed; with
LOCALBO_REQUIRE_SLURM=1 (`.ci/run` sets it once the cluster is up) it fails instead.
A small part of the tiny pipeline runs through the profile: jobs alone in their allocations and
jobs bundled, several in one allocation; the faults are tried on Fig. 3's path job. The whole
tiny config's second run, the byte-identity check, is local (tests/workflow/test_faults.py).
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import time
from pathlib import Path

import numpy as np
import pytest

from tests.workflow.helpers import (
    REPO,
    RUN_ENV,
    SLURM_REQUIRED,
    snakemake_command,
)

pytestmark = pytest.mark.slurm

PROFILE = REPO / "workflow" / "profiles" / "slurm"
# a bound for a run that hangs: each allocation takes 12-16 s on the test node (two CPUs per core
# of a 2-core machine), most of it Snakemake starting twice (in the allocation and in its job step)
TIMEOUT = 900
# The targets of the test's run: Fig. 2 (its error-function job alone, its table and plot in a
# bundle) and one Fig. 1 run job (alone) with its two sample paths (one bundle of two jobs).
TARGETS = ("figures/fig2_error_function.pdf", "results/fig1/runs/local_bo/d1_sigma0.0_chunk0.json")
# The rules whose jobs keep an allocation each (tests/unit/test_slurm_profile.py) among them, and
# the allocations: those two jobs, the bundle of Fig. 2's table and plot, the bundle of paths.
ALONE = ("fig1_run", "error_function")
ALLOCATIONS = 4
# What the run makes that the local tiny run makes too, byte for byte.
SAME_AS_LOCAL = (
    "results/fig2/error_function.csv",
    "figures/fig2_error_function.pdf",
    "figures/fig2_error_function.png",
)
# The line the SLURM executor plugin (2.8) logs for every sbatch.
SUBMITTED = re.compile(r"submitted with SLURM jobid (\d+(?:_\d+)?)")


def _skip(reason: str) -> None:
    """Skip with the reason printed; a failure instead when SLURM is required."""
    if SLURM_REQUIRED:
        pytest.fail(f"LOCALBO_REQUIRE_SLURM is set but: {reason}")
    pytest.skip(reason)


def _run(cmd: list[str], timeout: float = 30) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)


def _check_cluster() -> None:
    for tool in ("sinfo", "sbatch", "sacct", "scancel", "timeout"):
        if shutil.which(tool) is None:
            _skip(f"'{tool}' not found: no SLURM here (start one: bash .ci/slurm/start.sh)")
    if importlib.util.find_spec("snakemake_executor_plugin_slurm") is None:
        _skip("snakemake-executor-plugin-slurm is not installed")
    try:
        sinfo = _run(["sinfo", "-h", "-o", "%T"])
        # the plugin polls with sacct and waits forever, silently, if sacct fails
        sacct = _run(["sacct", "-n", "-X", "-S", "now-1hours"])
    except subprocess.TimeoutExpired:
        _skip("sinfo or sacct did not answer within 30 s (slurmctld or slurmdbd down)")
    states = [s.rstrip("*~#") for s in sinfo.stdout.split()]
    if sinfo.returncode != 0 or not {"idle", "mixed", "allocated", "completing"} & set(states):
        _skip(f"no usable SLURM node (sinfo rc={sinfo.returncode}, states={states})")
    if sacct.returncode != 0:
        _skip(f"sacct fails (no job accounting?): {sacct.stderr.strip()!r}")


def _start(tmp_path, *args: str) -> tuple[subprocess.Popen, Path]:
    """Snakemake through the SLURM profile on tmp_path/run, in the background; its log path."""
    cmd = [
        "timeout",
        "-s",
        "KILL",
        str(TIMEOUT),
        *snakemake_command(tmp_path / "run", "--workflow-profile", str(PROFILE), *args),
    ]
    log_path = tmp_path / "snakemake.log"
    with open(log_path, "w") as log:
        proc = subprocess.Popen(
            cmd,
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            cwd=REPO,
            env={**os.environ, **RUN_ENV},  # sbatch passes the environment on to the jobs
        )
    return proc, log_path


def _finish(proc: subprocess.Popen, log_path: Path) -> list[str]:
    """Wait for the run; fail with the log's tail unless it succeeded; its SLURM job ids."""
    returncode = proc.wait(timeout=TIMEOUT + 60)
    log_text = log_path.read_text()
    job_ids = sorted(set(SUBMITTED.findall(log_text)), key=int)
    if returncode != 0:
        if job_ids:  # leave no job of a failed run in the queue
            _run(["scancel", *job_ids])
        tail = "\n".join(log_text.splitlines()[-60:])
        pytest.fail(f"snakemake failed with rc={returncode}; log tail:\n{tail}")
    assert job_ids, "no 'submitted with SLURM jobid' line in the snakemake log"
    return job_ids


def _accounting(job_ids: list[str]) -> dict[str, tuple[str, str, str]]:
    """JobID -> (State, Comment, ReqMem) of the allocations, once accounting has every job
    in a final state (it may lag a moment behind the controller)."""
    for _ in range(20):
        out = _run(
            ["sacct", "-n", "-X", "-P", "-j", ",".join(job_ids), "-o", "JobID,State,Comment,ReqMem"]
        )
        assert out.returncode == 0, out.stderr
        rows = {
            job: (state.split()[0], comment, mem)
            for job, state, comment, mem in (line.split("|") for line in out.stdout.splitlines())
        }
        if set(job_ids) <= set(rows) and not {"PENDING", "RUNNING"} & {r[0] for r in rows.values()}:
            return rows
        time.sleep(1)
    return rows


def test_slurm_runs_long_jobs_alone_bundles_short_ones_and_makes_the_local_outputs(
    tmp_path, request
):
    """`TARGETS` through the profile: the Fig. 1 run and the error function each in an
    allocation of their own, the sample paths and Fig. 2's table and plot in the profile's
    bundles, ALLOCATIONS in all by SLURM's accounting; Fig. 2's table and figure equal the local
    tiny run's (taken, or made, while the cluster works), byte for byte."""
    _check_cluster()
    proc, log_path = _start(tmp_path, *TARGETS)
    try:
        tiny_run = request.getfixturevalue("tiny_run")
    except BaseException:
        proc.terminate()  # `timeout` passes it on to Snakemake, which cancels its jobs
        raise
    job_ids = _finish(proc, log_path)
    rows = _accounting(job_ids)
    assert {job: row[0] for job, row in rows.items()} == dict.fromkeys(job_ids, "COMPLETED"), rows
    comments = [row[1] for row in rows.values()]
    # the plugin comments a job "rule_<rule>" with "_wildcards_<values>" after it, if it has any
    alone = {c.split("_wildcards_")[0] for c in comments if not c.startswith("rule_bundle_")}
    assert alone == {f"rule_{rule}" for rule in ALONE}, comments
    assert len(job_ids) == ALLOCATIONS, comments
    paths = sorted((tmp_path / "run" / "results/fig1/paths").rglob("*.npz"))
    assert len(paths) == 2 and all(p.stat().st_size > 0 for p in paths)
    for name in SAME_AS_LOCAL:
        assert (tmp_path / "run" / name).read_bytes() == (tiny_run / name).read_bytes(), name


def test_a_job_cancelled_by_the_scheduler_is_resubmitted(tmp_path):
    """scancel of the running Fig. 3 path job: Snakemake sees it fail and submits it again (the
    profile's `retries`); sacct shows both attempts; the output is complete and valid."""
    _check_cluster()
    target = "results/fig3/path.npz"
    proc, log_path = _start(tmp_path, target)
    deadline = time.monotonic() + TIMEOUT
    cancelled = None
    while cancelled is None and time.monotonic() < deadline and proc.poll() is None:
        # only a job this test's Snakemake submitted (its log names it): another run on the
        # same cluster may have a Fig. 3 path job running too
        ours = set(SUBMITTED.findall(log_path.read_text()))
        queue = [q.split("|") for q in _run(["squeue", "-h", "-o", "%i|%T|%k"]).stdout.split()]
        running = [
            job
            for job, state, comment in queue
            if job in ours and state == "RUNNING" and comment == "rule_fig3_path"
        ]
        if running:
            cancelled = running[0]
            assert _run(["scancel", cancelled]).returncode == 0
        time.sleep(0.2)
    assert cancelled is not None, "the job never ran, or ended before it could be cancelled"
    job_ids = _finish(proc, log_path)
    rows = _accounting(job_ids)
    attempts = [(job, row[0]) for job, row in rows.items() if row[1] == "rule_fig3_path"]
    assert attempts == [(cancelled, "CANCELLED"), (attempts[-1][0], "COMPLETED")], rows
    with np.load(tmp_path / "run" / target, allow_pickle=False) as data:
        assert all(np.all(np.isfinite(data[key])) for key in data.files)


def test_a_job_killed_for_its_memory_comes_back_with_more(tmp_path):
    """The test cluster enforces --mem (OverMemoryKill, .ci/slurm/start.sh). The Fig. 3 path
    job asks for 150 MB times the attempt (`--set-resources`, the way a user overrides a rule's
    estimate): the first attempt, 150 MB, is killed (Snakemake and the script need about
    230 MB); the second, 300 MB, completes."""
    _check_cluster()
    target = "results/fig3/path.npz"
    job_ids = _finish(*_start(tmp_path, target, "--set-resources", "fig3_path:mem_mb=150*attempt"))
    rows = _accounting(job_ids)
    attempts = [(row[0], row[2]) for row in rows.values() if row[1] == "rule_fig3_path"]
    assert attempts == [("FAILED", "150M"), ("COMPLETED", "300M")], rows
    slurm_logs = "".join(p.read_text() for p in (tmp_path / "run").rglob("slurm_logs/**/*.log"))
    assert "exceeded memory limit" in slurm_logs
    with np.load(tmp_path / "run" / target, allow_pickle=False) as data:
        assert all(np.all(np.isfinite(data[key])) for key in data.files)
