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


def test_default_resources_grow_with_the_attempt():
    """A table or plot job killed for its memory or time comes back with more, as the rules' own
    resources do (Snakemake evaluates the expressions with `attempt` in scope)."""
    defaults = PROFILE["default-resources"]
    for key in ("mem_mb", "runtime"):
        assert eval(str(defaults[key]), {"attempt": 2}) == 2 * eval(
            str(defaults[key]), {"attempt": 1}
        ), key
