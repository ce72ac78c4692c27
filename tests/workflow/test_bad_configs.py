"""Broken configs stop Snakemake before any job runs, with a message naming the key: one schema
error and one semantic error end to end (every other case runs in-process,
tests/unit/test_pipeline_settings.py)."""

import pytest

from localbo.pipeline.fig1 import Fig1Settings
from localbo.pipeline.sections import unknown_key
from tests.workflow.helpers import TINY, snakemake

FIG1_KEYS = Fig1Settings.__dataclass_fields__

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


def test_a_typo_prints_a_few_lines_naming_the_key(tmp_path):
    """Every problem on a line of its own, the last screen shows them: not the schema dump."""
    bad = tmp_path / "typo.yaml"
    bad.write_text("fig1: {num_pahts: 5}\n")
    proc = snakemake(tmp_path / "run", "-n", configfiles=(TINY, bad), check=False, timeout=120)
    assert proc.returncode != 0
    output = (proc.stdout + proc.stderr).strip().splitlines()
    assert len(output) <= 10, "\n".join(output)
    problems = [line.strip() for line in output if line.strip().startswith("fig1.")]
    assert problems == [f"fig1.num_pahts: {unknown_key(FIG1_KEYS)}"], "\n".join(output)
