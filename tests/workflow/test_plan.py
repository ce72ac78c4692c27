"""The cost forecast counts the jobs Snakemake would run, and only those."""

import json
import re
import subprocess
import sys
from collections import Counter

import pytest
import yaml

from localbo.gallery.provenance import figure_of_rule
from tests.workflow.helpers import REPO, TINY, snakemake

pytestmark = pytest.mark.workflow


def dry_run_counts(workdir) -> Counter:
    """Jobs per figure (rules file) of `snakemake -n` on the tiny config, its 'all' left out."""
    output = snakemake(workdir, "-n", "--cores", "2").stdout
    stats = output.split("Job stats:", 1)[1].split("\n\n", 1)[0]
    figure = figure_of_rule(REPO / "workflow" / "rules")
    counts: Counter = Counter()
    for rule, count in re.findall(r"^(\w+)\s+(\d+)$", stats, re.M):
        if rule not in ("all", "total"):
            counts[figure[rule]] += int(count)
    return counts


def plan(workdir, *targets) -> dict:
    command = [sys.executable, "-m", "localbo.pipeline.plan", *targets, "--json"]
    command += ["--cores", "1", "4", "--directory", str(workdir), "--configfile", str(TINY)]
    proc = subprocess.run(command, capture_output=True, text=True, timeout=300, check=True)
    return json.loads(proc.stdout)


def test_the_forecast_counts_the_dry_runs_jobs(tmp_path):
    forecast = plan(tmp_path)
    figures = {name: row["jobs"] for name, row in forecast["rows"].items() if " " not in name}
    assert figures == dry_run_counts(tmp_path)
    assert forecast["total"]["jobs"] == sum(figures.values())
    parts = {name[5:]: row["jobs"] for name, row in forecast["rows"].items() if name[:5] == "fig1 "}
    methods = yaml.safe_load((REPO / "config" / "config.yaml").read_text())["fig1"]["methods"]
    assert set(parts) == {"paths", *methods}
    assert sum(parts.values()) == figures["fig1"] - 3  # its table, its curves and its plot
    one, four = forecast["wall_hours"]["1"], forecast["wall_hours"]["4"]
    assert one == pytest.approx(forecast["total"]["cpu_hours"])  # one core: one job at a time
    assert one / 4 <= four < one
    # the cluster: the profile's cap on jobs at once, more than 4 cores of jobs
    profile = yaml.safe_load(
        (REPO / "workflow" / "profiles" / "slurm" / "profile.yaml").read_text()
    )
    assert forecast["cluster"]["jobs"] == profile["jobs"] > 4
    assert forecast["cluster"]["wall_hours"] <= four


def test_a_target_is_forecast_alone(tmp_path):
    """One figure's forecast counts its jobs and those it waits for, nothing else."""
    forecast = plan(tmp_path, "figures/fig2_error_function.pdf")
    assert set(forecast["rows"]) == {"fig2"}
    assert forecast["rows"]["fig2"]["jobs"] == dry_run_counts(tmp_path)["fig2"]


def test_finished_jobs_are_not_forecast(tiny_run):
    assert plan(tiny_run)["total"]["jobs"] == 0
