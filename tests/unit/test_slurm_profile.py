"""The SLURM profile's groups name rules the workflow has (Snakemake ignores a name it lacks)."""

import re
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


def _runtime_source(rule: str) -> str:
    """The `runtime=` expression of a rule (or a `use rule ... as` rule) in
    workflow/rules/*.smk, as written."""
    for path in sorted((REPO / "workflow" / "rules").glob("*.smk")):
        block = re.search(
            rf"^(?:rule {rule}|use rule \w+ as {rule} with):\n((?:[ \t]+.*\n|\n)*)",
            path.read_text(),
            re.M,
        )
        if block:
            return re.search(r"runtime=(.+),", block.group(1)).group(1)
    raise AssertionError(f"no rule {rule}")


def test_only_short_fixed_jobs_are_bundled():
    """Snakemake removes the outputs of every member of a failed group job, the finished ones
    too, and runs them all again: only jobs of a fixed runtime of at most 10 minutes are
    bundled, no job that grows with the config (a Fig. 1 run, an error function, a restart
    chunk)."""
    for rule in PROFILE["groups"]:
        minutes = re.fullmatch(r"per_attempt\((\d+)\)", _runtime_source(rule))
        assert minutes and int(minutes.group(1)) <= 10, (rule, _runtime_source(rule))
    for rule in ("fig1_run", "error_function", "rbf_error_function", "restart_chunk"):
        assert not re.fullmatch(r"per_attempt\(\d+\)", _runtime_source(rule)), rule


def test_default_resources_grow_with_the_attempt():
    """A table or plot job killed for its memory or time comes back with more, as the rules' own
    resources do (Snakemake evaluates the expressions with `attempt` in scope)."""
    defaults = PROFILE["default-resources"]
    for key in ("mem_mb", "runtime"):
        assert eval(str(defaults[key]), {"attempt": 2}) == 2 * eval(
            str(defaults[key]), {"attempt": 1}
        ), key
