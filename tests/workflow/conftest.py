"""One tiny run of the whole pipeline, shared by every workflow test that only reads outputs."""

import pytest

from tests.workflow.helpers import snakemake


@pytest.fixture(scope="session")
def tiny_run(tmp_path_factory):
    workdir = tmp_path_factory.mktemp("tiny")
    snakemake(workdir, "--cores", "2")
    return workdir
