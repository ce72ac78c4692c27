"""Run the Snakemake pipeline through a real SLURM cluster.

The cluster is the private single-node one of ``.ci/slurm/start.sh``. The
test skips (with the reason printed) when SLURM is not there; set
``LOCALBO_REQUIRE_SLURM=1`` (``.ci/run`` does, after starting the cluster)
to turn every such skip into a failure so CI cannot pass without SLURM.

Overrides for development: ``LOCALBO_SLURM_SNAKEFILE``,
``LOCALBO_SLURM_CONFIGFILE`` (default: the repo's ``Snakefile`` and
``tests/workflow/tiny.yaml``), ``LOCALBO_SLURM_TIMEOUT`` (seconds, default 600),
``LOCALBO_SLURM_TARGETS`` (space-separated targets; default: Figs. 2 and 3, whose
compute rules are the grouped fan-outs of the cluster profile; an empty string runs the
whole workflow, about 5 minutes on the CI node).
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.slurm

REPO = Path(__file__).resolve().parents[2]
PROFILE = REPO / "workflow" / "profiles" / "slurm"
SNAKEFILE = Path(os.environ.get("LOCALBO_SLURM_SNAKEFILE", REPO / "Snakefile"))
CONFIGFILE = Path(
    os.environ.get("LOCALBO_SLURM_CONFIGFILE", REPO / "tests" / "workflow" / "tiny.yaml")
)
TIMEOUT = int(os.environ.get("LOCALBO_SLURM_TIMEOUT", "600"))
DEFAULT_TARGETS = " ".join(
    f"figures/{name}.{ext}"
    for name in ("fig2_error_function", "fig3_restarts")
    for ext in ("pdf", "png")
)
TARGETS = os.environ.get("LOCALBO_SLURM_TARGETS", DEFAULT_TARGETS).split()
REQUIRE = os.environ.get("LOCALBO_REQUIRE_SLURM", "") not in ("", "0")

# Figures that must exist after the run (relative to the working directory),
# at least; every other figures/* file the workflow lists (`--summary`) is
# checked as well.
EXPECTED_FIGURES = [
    "figures/fig2_error_function.pdf",
    "figures/fig2_error_function.png",
]

# Line the SLURM executor plugin (2.8) logs for every sbatch it does.
SUBMITTED = re.compile(r"submitted with SLURM jobid (\d+(?:_\d+)?)")


def _skip(reason: str):
    """Skip with the reason printed; a failure instead when SLURM is required."""
    print(f"test_slurm: {reason}", file=sys.stderr)
    if REQUIRE:
        pytest.fail(f"LOCALBO_REQUIRE_SLURM is set but: {reason}")
    pytest.skip(reason)


def _run(cmd: list[str], timeout: float = 30) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)


def _check_cluster() -> None:
    for tool in ("sinfo", "sbatch", "sacct", "scancel"):
        if shutil.which(tool) is None:
            _skip(f"'{tool}' not found: no SLURM here (start one: bash .ci/slurm/start.sh)")
    if shutil.which("timeout") is None:
        _skip("coreutils 'timeout' not found")
    if importlib.util.find_spec("snakemake_executor_plugin_slurm") is None:
        _skip("snakemake-executor-plugin-slurm is not installed")
    try:
        sinfo = _run(["sinfo", "-h", "-o", "%T"])
    except subprocess.TimeoutExpired:
        _skip("sinfo did not answer within 30 s: slurmctld not reachable")
    states = sinfo.stdout.split()
    if sinfo.returncode != 0 or not any(
        s.rstrip("*~#") in ("idle", "mixed", "allocated", "completing") for s in states
    ):
        _skip(
            f"SLURM cluster does not answer or has no usable node "
            f"(sinfo rc={sinfo.returncode}, states={states}, err={sinfo.stderr.strip()!r})"
        )
    # The slurm plugin polls with sacct and waits forever, silently, if sacct fails.
    try:
        sacct = _run(["sacct", "-n", "-X", "-S", "now-1hours"])
    except subprocess.TimeoutExpired:
        _skip("sacct did not answer within 30 s: no job accounting (slurmdbd)")
    if sacct.returncode != 0:
        _skip(f"sacct fails (no job accounting?): {sacct.stderr.strip()!r}")


def _sacct_states(job_ids: list[str]) -> dict[str, tuple[str, str]]:
    """JobID -> (State, Comment) for the given SLURM jobs (allocations only)."""
    out = _run(["sacct", "-n", "-X", "-P", "-j", ",".join(job_ids), "-o", "JobID,State,Comment"])
    assert out.returncode == 0, out.stderr
    rows = {}
    for line in out.stdout.splitlines():
        if line.strip():
            job_id, state, comment = [*line.split("|"), "", ""][:3]
            rows[job_id] = (state, comment)
    return rows


def _workflow_figures(workdir: Path) -> list[str]:
    """The figures/* outputs the workflow itself lists (snakemake --summary)."""
    cmd = [
        sys.executable,
        "-m",
        "snakemake",
        "--summary",
        "--workflow-profile",
        "none",
        "--configfile",
        str(CONFIGFILE),
        "--directory",
        str(workdir),
        "-s",
        str(SNAKEFILE),
    ]
    out = _run(cmd, timeout=300)
    assert out.returncode == 0, f"snakemake --summary failed:\n{out.stderr[-3000:]}"
    files = [line.split("\t", 1)[0] for line in out.stdout.splitlines()[1:]]
    return sorted(f for f in files if f.startswith("figures/"))


def test_pipeline_runs_on_slurm(tmp_path: Path) -> None:
    _check_cluster()
    if not SNAKEFILE.is_file():
        _skip(f"no Snakefile at {SNAKEFILE}")
    if not CONFIGFILE.is_file():
        _skip(f"no config file at {CONFIGFILE}")
    assert (PROFILE / "profile.yaml").is_file()

    workdir = tmp_path / "run"
    workdir.mkdir()
    log_path = tmp_path / "snakemake.log"
    cmd = [
        "timeout",
        "-s",
        "KILL",
        str(TIMEOUT),
        sys.executable,
        "-m",
        "snakemake",
        "--workflow-profile",
        str(PROFILE),
        "--configfile",
        str(CONFIGFILE),
        "--directory",
        str(workdir),
        "-s",
        str(SNAKEFILE),
        *TARGETS,
    ]
    print("running:", " ".join(cmd))
    t0 = time.monotonic()
    with open(log_path, "w") as log:
        proc = subprocess.run(
            cmd,
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            cwd=tmp_path,
            timeout=TIMEOUT + 60,
        )
    elapsed = time.monotonic() - t0
    log_text = log_path.read_text()
    job_ids = sorted(set(SUBMITTED.findall(log_text)))
    print(f"snakemake exited {proc.returncode} after {elapsed:.0f} s; SLURM jobs {job_ids}")

    if proc.returncode != 0:
        if job_ids:  # do not leave jobs of a killed run in the queue
            _run(["scancel", *job_ids])
        tail = "\n".join(log_text.splitlines()[-60:])
        killed = " (killed by timeout)" if proc.returncode in (137, -9) else ""
        pytest.fail(f"snakemake failed with rc={proc.returncode}{killed}; log tail:\n{tail}")

    if TARGETS:
        figures = sorted(t for t in TARGETS if t.startswith("figures/"))
    else:
        figures = sorted(set(EXPECTED_FIGURES) | set(_workflow_figures(workdir)))
    print("figures:", figures)
    missing_figs = [
        f for f in figures if not (workdir / f).is_file() or (workdir / f).stat().st_size == 0
    ]
    assert not missing_figs, f"figures missing or empty after the SLURM run: {missing_figs}"

    # Jobs really went through SLURM, and SLURM's accounting says they completed.
    assert job_ids, "no 'submitted with SLURM jobid' line in the snakemake log"
    rows = _sacct_states(job_ids)
    for _ in range(10):  # accounting may lag a moment behind the controller
        if set(job_ids) <= set(rows) and all(s == "COMPLETED" for s, _c in rows.values()):
            break
        time.sleep(1)
        rows = _sacct_states(job_ids)
    print("sacct:", rows)
    missing = set(job_ids) - set(rows)
    assert not missing, f"SLURM jobs unknown to sacct: {sorted(missing)}"
    bad = {j: s for j, (s, _c) in rows.items() if s != "COMPLETED"}
    assert not bad, f"SLURM jobs not COMPLETED: {bad}"
