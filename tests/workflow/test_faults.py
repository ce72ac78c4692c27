"""Faults: identical reruns give identical files; a SIGKILLed run resumes to valid outputs; a
second Snakemake is refused by the lock; a full disk fails a job cleanly and the rerun is exact."""

import errno
import json
import os
import signal
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pytest

from tests.workflow.helpers import (
    REPO,
    TINY,
    different_files,
    snakemake,
    snakemake_command,
)

pytestmark = pytest.mark.workflow


def test_two_runs_from_scratch_are_byte_identical(tiny_run, tmp_path):
    """A second tiny run writes the first's tables and figures byte for byte."""
    snakemake(tmp_path, "--cores", "2")
    different = different_files(tiny_run, tmp_path)
    assert not different, f"files differ between identical runs: {different}"


def test_one_job_rerun_alone_reproduces_its_output(tiny_run, tmp_path):
    estimate = sorted((tiny_run / "results/fig2/estimates").glob("*.json"))[0]
    target = estimate.relative_to(tiny_run)
    snakemake(tmp_path, "--cores", "1", str(target))
    ours, theirs = json.loads((tmp_path / target).read_text()), json.loads(estimate.read_text())
    for point in ours + theirs:
        point.pop("seconds")
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


# Figs. 1 and 2 of the tiny run, in a third of the whole run's time: jobs that keep each finished
# point (the error function's batch) or run (Fig. 1's)
KILLED_TARGETS = ("figures/fig2_error_function.pdf", "figures/fig1_local_solutions.png")


# the tiny Fig. 2 with points of about 0.3 s each instead of 0.03 s: the batch is killed
# between its points, not after its last
SLOWER_POINTS = """
fig2:
  panel_a: {d: 2, b_min: 64, b_max: 128, num: 2}
  panel_b: {b: 128, d_min: 2, d_max: 3, num: 2}
  estimate: {restarts: 1, max_iterations: 300}
"""


def test_sigkill_part_way_then_resume(tmp_path):
    slower = tmp_path.parent / f"{tmp_path.name}-slower.yaml"
    slower.write_text(SLOWER_POINTS)
    configs = (TINY, slower)
    cmd = snakemake_command(tmp_path, "--cores", "2", *KILLED_TARGETS, configfiles=configs)
    proc = subprocess.Popen(
        cmd, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )
    deadline = time.monotonic() + 300
    estimates = tmp_path / "results" / "fig2" / "estimates"
    while time.monotonic() < deadline and proc.poll() is None:
        if len(list(estimates.glob("*.finished/*.npz"))) >= 2:  # two points of a batch kept
            break
        time.sleep(0.05)
    assert proc.poll() is None, "the pipeline finished before it could be killed"
    os.killpg(proc.pid, signal.SIGKILL)  # Snakemake and every job it started
    proc.wait()
    assert not (tmp_path / "figures" / "fig2_error_function.pdf").exists()
    assert_outputs_valid(tmp_path)

    snakemake(tmp_path, "--unlock", "--cores", "1", configfiles=configs)
    snakemake(tmp_path, "--cores", "2", "--rerun-incomplete", *KILLED_TARGETS, configfiles=configs)
    assert assert_outputs_valid(tmp_path) > 2
    logs = (tmp_path / "logs" / "error_function").glob("*.log")
    assert any("kept from an earlier attempt" in log.read_text() for log in logs)
    assert (tmp_path / "figures" / "fig1_local_solutions.png").stat().st_size > 1000
    assert not list(tmp_path.rglob("*.finished")), "kept runs outlived their jobs"
    assert (tmp_path / "figures" / "fig2_error_function.pdf").stat().st_size > 1000


def test_a_second_snakemake_in_the_same_directory_is_refused_and_the_first_finishes(tmp_path):
    """Snakemake's lock: the second process stops at once, naming the lock; the first, busy with
    the same outputs, completes with valid results."""
    # stderr to a file: a pipe read only at the end fills (64 KB of job log) and stalls the run
    first_log = tmp_path.parent / f"{tmp_path.name}-first.log"
    with open(first_log, "w") as log:
        first = subprocess.Popen(
            snakemake_command(tmp_path, "--cores", "2", *KILLED_TARGETS),
            cwd=REPO,
            stdout=subprocess.DEVNULL,
            stderr=log,
            start_new_session=True,
        )
    locks = tmp_path / ".snakemake" / "locks"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not (locks.exists() and any(locks.iterdir())):
        assert first.poll() is None, "the first run ended before it took its lock"
        time.sleep(0.05)
    # --rerun-incomplete: without it, a second run that starts while the first has jobs running
    # may stop at the incomplete-files check before it reaches the lock (seen in CI once the jobs
    # got faster); with it, only the lock can refuse it
    second = snakemake(tmp_path, "--cores", "1", "--rerun-incomplete", check=False, timeout=120)
    assert second.returncode != 0
    assert "cannot be locked" in second.stdout + second.stderr, second.stderr[-2000:]
    assert first.wait(timeout=600) == 0, first_log.read_text()[-2000:]
    assert assert_outputs_valid(tmp_path) > 5
    assert all((tmp_path / target).exists() for target in KILLED_TARGETS)


@contextmanager
def full_filesystem(directory: Path) -> Iterator[Path]:
    """A 64 KB tmpfs mounted on `directory` and filled to the last byte by one filler file,
    which the caller deletes to free the space; unmounted at the end. Skips where mounting is not
    allowed (not root, or no CAP_SYS_ADMIN): CI runs as root."""
    directory.mkdir(parents=True)
    mount = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(directory)],
        capture_output=True,
        text=True,
    )
    if mount.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mount.stderr.strip()}")
    try:
        filler = directory / "filler"
        with open(filler, "wb", buffering=0) as handle:
            try:
                while True:
                    handle.write(b"\0" * 4096)
            except OSError as err:
                assert err.errno == errno.ENOSPC
        yield filler
    finally:
        subprocess.run(["umount", "-l", str(directory)], check=True)


def test_a_full_disk_fails_the_job_by_name_leaves_nothing_and_the_rerun_is_identical(
    tiny_run, tmp_path
):
    """results/ on a full filesystem: the job fails and its log names the full disk, no output
    (nor a temporary file) remains; once space is freed, the rerun writes what a run that never
    failed wrote, byte for byte."""
    target = Path("results/fig1/paths/d3/path0.npz")
    with full_filesystem(tmp_path / "results") as filler:
        failed = snakemake(tmp_path, "--cores", "1", str(target), check=False, timeout=300)
        assert failed.returncode != 0
        log = (tmp_path / "logs/fig1_path/d3_path0.log").read_text()
        assert "No space left on device" in log, log[-2000:]
        assert not (tmp_path / target).exists()
        assert not list((tmp_path / "results").rglob(f".{target.name}*"))  # nor a temporary file
        filler.unlink()
        snakemake(tmp_path, "--cores", "1", str(target))
        assert (tmp_path / target).read_bytes() == (tiny_run / target).read_bytes()
