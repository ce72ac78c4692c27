"""Broken configs stop Snakemake before any job runs, with a message naming the key: one schema
error and one semantic error end to end (every other case runs in-process,
tests/unit/test_pipeline_settings.py)."""

import pytest

from tests.workflow.helpers import TINY, snakemake

pytestmark = pytest.mark.workflow

BAD_CONFIGS = {
    "schema-unknown-section-key": ("fig2:\n  bogus: 1\n", "bogus"),
    "semantic-budget-below-one-fig3-batch": ("fig3:\n  d: 6000\n", "fig3.d"),
}


@pytest.mark.parametrize("name", sorted(BAD_CONFIGS))
def test_bad_config_fails_fast_naming_the_key(tmp_path, name):
    text, key = BAD_CONFIGS[name]
    bad = tmp_path / "bad.yaml"
    bad.write_text(text)
    workdir = tmp_path / "run"
    # over the tiny config, so a check that does not fire runs seconds of work, not the paper
    proc = snakemake(workdir, "--cores", "1", configfiles=(TINY, bad), check=False, timeout=120)
    assert proc.returncode != 0
    output = proc.stdout + proc.stderr
    assert key in output, output[-2000:]
    assert "Error" in output
    assert not (workdir / "results").exists() and not (workdir / "logs").exists()
