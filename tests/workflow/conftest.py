"""One tiny run of the whole pipeline, shared by every workflow test that only reads outputs."""

import fcntl
import os

import pytest

from tests.workflow.helpers import snakemake


@pytest.fixture(scope="session")
def tiny_run(tmp_path_factory):
    """The tiny run's directory. Made once per test session: under pytest-xdist the first worker
    to ask makes it in the directory the workers' temporary directories share, and the others
    wait for it (a file lock) and read it, so its readers need not share a worker."""
    shared = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = shared.parent
    workdir, done = shared / "tiny", shared / "tiny.done"
    with open(shared / "tiny.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if not done.exists():
            snakemake(workdir, "--cores", "2")
            done.touch()
    return workdir
