"""Each config writes to its run directory (`run_directory`), so two configs run in one place
leave each other's files alone."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.workflow.helpers import REPO, RUN_ENV, TINY

pytestmark = pytest.mark.workflow
TARGET = Path("results/fig2/error_function.csv")  # two cheap jobs of the tiny config


def run(cwd, *args):
    """Snakemake started in `cwd` without --directory, as a user runs it."""
    command = [sys.executable, "-m", "snakemake", "-s", str(REPO / "Snakefile"), *args]
    env = {**os.environ, **RUN_ENV}
    proc = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]


def files(folder):
    """Every file below `folder` with its content."""
    return {p.relative_to(folder): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def test_two_configs_in_one_place_leave_each_others_files_alone(tmp_path):
    first, second = tmp_path / "first.yaml", tmp_path / "second.yaml"
    first.write_text("run_directory: runs/first\n")
    second.write_text("run_directory: runs/second\nfig2: {noise_levels: [0.5]}\n")
    run(tmp_path, str(TARGET), "--cores", "2", "--configfile", str(TINY), str(first))
    before = files(tmp_path / "runs" / "first")
    assert TARGET in before
    run(tmp_path, str(TARGET), "--cores", "2", "--configfile", str(TINY), str(second))
    assert files(tmp_path / "runs" / "first") == before  # untouched
    assert (tmp_path / "runs" / "second" / TARGET).read_bytes() != before[TARGET]
    # nothing of either run beside the run directories (but Snakemake's own log)
    assert {p.name for p in tmp_path.iterdir()} == {"runs", ".snakemake", "first.yaml",
                                                   "second.yaml"}  # fmt: skip
