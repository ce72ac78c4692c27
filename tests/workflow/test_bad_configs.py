"""Broken configs stop Snakemake before any job runs, with a message naming the key."""

import pytest

from tests.workflow.helpers import TINY, snakemake

pytestmark = pytest.mark.workflow

BAD_CONFIGS = {
    "seed-negative": ("seed: -1\n", "seed"),
    "seed-string": ("seed: abc\n", "seed"),
    "unknown-top-level-key": ("figg2: {}\n", "figg2"),
    "unknown-kernel": ("fig2:\n  kernel: periodic\n", "kernel"),
    "noise-levels-empty": ("fig2:\n  noise_levels: []\n", "noise_levels"),
    "sigma-negative": ("fig2:\n  noise_levels: [0.1, -0.1]\n", "noise_levels"),
    "noise-levels-duplicate": ("fig2:\n  noise_levels: [0.1, 0.1]\n", "noise_levels"),
    "restarts-zero": ("fig2:\n  restarts: 0\n", "restarts"),
    "max-iterations-float": ("fig2:\n  max_iterations: 2.5\n", "max_iterations"),
    "dimension-zero": ("fig2:\n  panel_a: {d: 0, b_min: 20, b_max: 40, num: 2}\n", "panel_a"),
    "b-range-reversed": ("fig2:\n  panel_a: {d: 2, b_min: 50, b_max: 20, num: 2}\n", "b_min"),
    "d-range-reversed": ("fig2:\n  panel_b: {b: 8, d_min: 9, d_max: 3, num: 2}\n", "d_min"),
    "batch-size-string": ("fig2:\n  panel_b: {b: many, d_min: 1, d_max: 3, num: 2}\n", "panel_b"),
    "unknown-section-key": ("fig2:\n  bogus: 1\n", "bogus"),
    "lengthscale-negative": ("fig2:\n  lengthscale: -1.0\n", "lengthscale"),
    "perturbation-zero": ("fig2:\n  perturbation: 0\n", "perturbation"),
    "nugget-zero": ("fig2:\n  min_noise_var: 0\n", "min_noise_var"),
    "section-not-a-mapping": ("fig2: 3\n", "fig2"),
    "duplicate-dimensions": ("fig1:\n  dims: [5, 5]\n", "dims"),
    "budget-below-one-batch": ("fig1:\n  budget: 3\n", "fig1.budget"),
    "budget-below-one-fig3-batch": ("fig3:\n  d: 6000\n", "fig3.d"),
    "unknown-step-rule": ("fig1:\n  local_bo: {step_rule: adam}\n", "step_rule"),
    "chunk-size-zero": ("fig3:\n  chunk_size: 0\n", "chunk_size"),
    "band-above-one": ("fig3:\n  band: 1.5\n", "band"),
    "start-outside-box": ("fig1:\n  box: {lower: 1.0, upper: 5.0}\n", "fig1.box"),
    "no-noiseless-level": (
        "fig1:\n  local_bo: {noise_levels: [0.1]}\n",
        "fig1.local_bo.noise_levels",
    ),
    "unknown-schedule": ("fig1:\n  local_bo: {schedule: d_t3}\n", "schedule"),
    "delta-above-1": ("fig1:\n  gp_ucb: {delta: 1.5}\n", "delta"),
    "no-paths": ("fig1:\n  num_paths: 0\n", "num_paths"),
    "unknown-fig4-case": (
        "gradient_estimation:\n  fig4: [l1_n5, missing_case]\n",
        "gradient_estimation.fig4",
    ),
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
