"""The SLURM profile's groups: every rule but the long ones is bundled, in few allocations."""

import math
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from localbo.gallery.provenance import figure_of_rule

REPO = Path(__file__).resolve().parents[2]
PROFILE = yaml.safe_load((REPO / "workflow" / "profiles" / "slurm" / "profile.yaml").read_text())
# the jobs that keep an allocation each: they grow with the config (hours at paper scale)
OWN_ALLOCATION = {"fig1_run", "error_function", "rbf_error_function", "sensitivity_fig3"}


def test_every_rule_but_the_long_ones_is_grouped_and_every_group_has_a_size():
    rules = set(figure_of_rule(REPO / "workflow" / "rules"))
    grouped = set(PROFILE["groups"])
    assert grouped <= rules, grouped - rules  # Snakemake ignores a name it lacks
    assert not OWN_ALLOCATION & grouped
    # the Fig. 3 path job stays on its own: tests/workflow/test_slurm.py cancels and starves it
    assert rules - grouped == OWN_ALLOCATION | {"fig3_path"}
    assert set(PROFILE["groups"].values()) == set(PROFILE["group-components"])


@pytest.mark.workflow
def test_the_paper_scale_takes_at_most_100_allocations_besides_the_long_jobs(tmp_path):
    """Jobs counted from Snakemake's dry run at paper scale; a group of n jobs in bundles of N
    components takes at most ceil(n / N) allocations (fewer where its jobs connect)."""
    command = [sys.executable, "-m", "snakemake", "-s", str(REPO / "Snakefile"), "-n"]
    command += ["--directory", str(tmp_path), "--cores", "2"]
    out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    stats = out.split("Job stats:", 1)[1].split("\n\n", 1)[0]
    jobs = {rule: int(n) for rule, n in re.findall(r"^(\w+)\s+(\d+)$", stats, re.M)}
    jobs.pop("all"), jobs.pop("total")
    groups: dict[str, int] = {}
    for rule, group in PROFILE["groups"].items():
        groups[group] = groups.get(group, 0) + jobs.get(rule, 0)
    bundles = sum(math.ceil(n / PROFILE["group-components"][g]) for g, n in groups.items())
    alone = sum(n for rule, n in jobs.items() if rule not in {*PROFILE["groups"], *OWN_ALLOCATION})
    assert sum(n for rule, n in jobs.items() if rule not in OWN_ALLOCATION) > 400
    assert bundles + alone <= 100, (bundles, alone)


def test_default_resources_grow_with_the_attempt():
    """A table or plot job killed for its memory or time comes back with more, as the rules' own
    resources do (Snakemake evaluates the expressions with `attempt` in scope)."""
    defaults = PROFILE["default-resources"]
    for key in ("mem_mb", "runtime"):
        assert eval(str(defaults[key]), {"attempt": 2}) == 2 * eval(
            str(defaults[key]), {"attempt": 1}
        ), key
