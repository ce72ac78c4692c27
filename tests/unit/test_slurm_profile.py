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
