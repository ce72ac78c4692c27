"""Run the pipeline through a real SLURM cluster with the workflow's cluster profile.

The cluster is the private one-node cluster of `.ci/slurm/start.sh` (slurmctld, slurmd, slurmdbd
with MariaDB, munge). Where no cluster answers, the test skips with the reason printed; with
LOCALBO_REQUIRE_SLURM=1 (`.ci/run` sets it once the cluster is up) it fails instead.
Figs. 2 and 3 are run: their compute rules are the grouped fan-outs of the profile.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import time

import pytest

from tests.workflow.helpers import REPO, snakemake_command

pytestmark = pytest.mark.slurm

PROFILE = REPO / "workflow" / "profiles" / "slurm"
TIMEOUT = 600
REQUIRE = os.environ.get("LOCALBO_REQUIRE_SLURM", "") not in ("", "0")
TARGETS = [
    f"figures/{name}.{ext}"
    for name in ("fig2_error_function", "fig3_restarts")
    for ext in ("pdf", "png")
]
# The line the SLURM executor plugin (2.8) logs for every sbatch.
SUBMITTED = re.compile(r"submitted with SLURM jobid (\d+(?:_\d+)?)")


def _skip(reason: str) -> None:
    """Skip with the reason printed; a failure instead when SLURM is required."""
    if REQUIRE:
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


def _sacct_states(job_ids: list[str]) -> dict[str, str]:
    """JobID -> State for the given SLURM jobs (allocations only)."""
    out = _run(["sacct", "-n", "-X", "-P", "-j", ",".join(job_ids), "-o", "JobID,State"])
    assert out.returncode == 0, out.stderr
    return dict(line.split("|", 1) for line in out.stdout.splitlines() if line.strip())


def test_pipeline_runs_on_slurm(tmp_path):
    _check_cluster()
    workdir = tmp_path / "run"
    cmd = [
        "timeout",
        "-s",
        "KILL",
        str(TIMEOUT),
        *snakemake_command(workdir, "--workflow-profile", str(PROFILE), *TARGETS),
    ]
    log_path = tmp_path / "snakemake.log"
    with open(log_path, "w") as log:
        proc = subprocess.run(
            cmd,
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            cwd=REPO,
            timeout=TIMEOUT + 60,
        )
    log_text = log_path.read_text()
    job_ids = sorted(set(SUBMITTED.findall(log_text)))
    if proc.returncode != 0:
        if job_ids:  # leave no job of a failed run in the queue
            _run(["scancel", *job_ids])
        tail = "\n".join(log_text.splitlines()[-60:])
        pytest.fail(f"snakemake failed with rc={proc.returncode}; log tail:\n{tail}")

    for target in TARGETS:
        assert (workdir / target).stat().st_size > 1000, target
    # the jobs really went through SLURM, and its accounting says they completed
    assert job_ids, "no 'submitted with SLURM jobid' line in the snakemake log"
    for _ in range(10):  # accounting may lag a moment behind the controller
        states = _sacct_states(job_ids)
        if set(job_ids) <= set(states) and set(states.values()) == {"COMPLETED"}:
            break
        time.sleep(1)
    assert states == dict.fromkeys(job_ids, "COMPLETED"), states
