"""The SLURM profile's groups name rules the workflow has (Snakemake ignores a name it lacks)."""

from pathlib import Path

import yaml

from localbo.pipeline.gallery import figure_of_rule

REPO = Path(__file__).resolve().parents[2]
PROFILE = yaml.safe_load((REPO / "workflow" / "profiles" / "slurm" / "profile.yaml").read_text())


def test_every_grouped_rule_exists_and_every_group_has_a_size():
    rules = set(figure_of_rule(REPO / "workflow" / "rules"))
    assert {"fig1_run", "error_function", "rbf_error_function"} <= rules
    assert set(PROFILE["groups"]) <= rules, set(PROFILE["groups"]) - rules
    assert set(PROFILE["groups"].values()) == set(PROFILE["group-components"])


def test_long_fig1_runs_are_not_bundled():
    """Snakemake removes the outputs of every member of a failed group job, the finished ones
    too; a Fig. 1 job runs up to half an hour or more, so each is its own SLURM job."""
    assert "fig1_run" not in PROFILE["groups"]
