"""The SLURM profile's groups name rules the workflow has (Snakemake ignores a name it lacks)."""

import re
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[2]
PROFILE = yaml.safe_load((REPO / "workflow" / "profiles" / "slurm" / "profile.yaml").read_text())


def rule_names() -> set[str]:
    """Every rule of workflow/rules/*.smk, `use rule ... as` ones included."""
    pattern = re.compile(r"^(?:rule (\w+):|use rule \w+ as (\w+))", re.MULTILINE)
    return {
        a or b
        for path in (REPO / "workflow" / "rules").glob("*.smk")
        for a, b in pattern.findall(path.read_text())
    }


def test_every_grouped_rule_exists_and_every_group_has_a_size():
    rules = rule_names()
    assert {"fig1_run", "error_function", "rbf_error_function"} <= rules
    assert set(PROFILE["groups"]) <= rules, set(PROFILE["groups"]) - rules
    assert set(PROFILE["groups"].values()) == set(PROFILE["group-components"])
