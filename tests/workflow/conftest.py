"""Runs of the pipeline shared by every workflow test that only reads outputs."""

import fcntl
import os
from pathlib import Path

import pytest

from tests.workflow.helpers import QUICK, TINY, snakemake


def shared_run(tmp_path_factory: pytest.TempPathFactory, name: str, configfile: Path) -> Path:
    """The directory of one run of the pipeline with `configfile` over the default, made once
    per test session: under pytest-xdist the first worker to ask makes it in the directory the
    workers' temporary directories share, and the others wait for it (a file lock) and read it,
    so its readers need not share a worker."""
    shared = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = shared.parent
    workdir, done = shared / name, shared / f"{name}.done"
    with open(shared / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if not done.exists():
            snakemake(workdir, "--cores", "2", configfiles=(configfile,))
            done.touch()
    return workdir


@pytest.fixture(scope="session")
def tiny_run(tmp_path_factory):
    """The directory of one run of tests/workflow/tiny.yaml."""
    return shared_run(tmp_path_factory, "tiny", TINY)


@pytest.fixture(scope="session")
def quick(tmp_path_factory):
    """The results of one run of config/quick.yaml."""
    return shared_run(tmp_path_factory, "quick", QUICK) / "results"
