"""The SLURM profile's groups name rules the workflow has (Snakemake ignores a name it lacks)."""

from pathlib import Path
from types import SimpleNamespace

import yaml

from localbo.gallery.provenance import figure_of_rule
from localbo.pipeline.fig1 import Fig1Settings
from localbo.pipeline.resources import runtime_minutes
from localbo.pipeline.settings import load_settings, merged_config

REPO = Path(__file__).resolve().parents[2]
PROFILE = yaml.safe_load((REPO / "workflow" / "profiles" / "slurm" / "profile.yaml").read_text())


def test_every_grouped_rule_exists_and_every_group_has_a_size():
    rules = set(figure_of_rule(REPO / "workflow" / "rules"))
    assert {"fig1_run", "error_function", "rbf_error_function"} <= rules
    assert set(PROFILE["groups"]) <= rules, set(PROFILE["groups"]) - rules
    assert set(PROFILE["groups"].values()) == set(PROFILE["group-components"])


def test_only_short_jobs_of_a_fixed_size_are_bundled():
    """Snakemake removes the outputs of every member of a failed group job, the finished ones
    too, and runs them all again: only jobs that ask for at most 10 minutes at paper scale are
    bundled, whatever their wildcards, and no job that grows with the config (a Fig. 1 run, an
    error function, a restart chunk)."""
    costs = load_settings(merged_config([REPO / "config" / "config.yaml"])).job_costs()
    for rule in PROFILE["groups"]:
        for d in Fig1Settings().dims:
            wildcards = SimpleNamespace(d=str(d), i="0")
            assert runtime_minutes(costs[rule](wildcards)) <= 10, (rule, d)
    assert not {"fig1_run", "error_function", "rbf_error_function", "restart_chunk"} & set(
        PROFILE["groups"]
    )


def test_default_resources_grow_with_the_attempt():
    """A table or plot job killed for its memory or time comes back with more, as the rules' own
    resources do (Snakemake evaluates the expressions with `attempt` in scope)."""
    defaults = PROFILE["default-resources"]
    for key in ("mem_mb", "runtime"):
        assert eval(str(defaults[key]), {"attempt": 2}) == 2 * eval(
            str(defaults[key]), {"attempt": 1}
        ), key
