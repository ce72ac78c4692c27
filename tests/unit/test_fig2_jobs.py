"""Error-function jobs: points batched `points_per_job` to a job give the estimates of one job
per point, and a killed batch's rerun resumes after its last finished point."""

import copy
import logging
from pathlib import Path
from types import SimpleNamespace

import pytest
import yaml
from snakemake.utils import update_config

import localbo.pipeline.fig2_job as fig2_job
from localbo.pipeline.fig2 import point_label
from localbo.pipeline.finished_runs import FinishedRuns
from localbo.pipeline.resources import START_UP
from localbo.pipeline.settings import load_settings

REPO = Path(__file__).resolve().parents[2]
SCHEMA = REPO / "config" / "schemas" / "config.schema.yaml"
CONFIG = yaml.safe_load((REPO / "config" / "config.yaml").read_text())
TINY = yaml.safe_load((REPO / "tests" / "workflow" / "tiny.yaml").read_text())["fig2"]
LOG = logging.getLogger("test")


def jobs(points_per_job: int, section: dict | None = None):
    config = copy.deepcopy(CONFIG)
    update_config(config, {"fig2": {**(section or {}), "points_per_job": points_per_job}})
    return load_settings(config, SCHEMA).fig2_jobs()


def test_points_are_laid_out_in_order_one_or_several_to_a_job():
    single, batched = jobs(1), jobs(7)
    points = [p for ps in single.jobs.values() for p in ps]
    assert list(single.jobs) == [point_label(*p) for p in points]
    assert len(points) == len(single.settings.points()) * len(single.settings.noise_levels)
    assert [p for ps in batched.jobs.values() for p in ps] == points
    assert list(batched.jobs) == [f"points{k}" for k in range(-(-len(points) // 7))]
    assert [len(ps) for ps in batched.jobs.values()][:-1] == [7] * (len(batched.jobs) - 1)


def test_a_batch_costs_its_points_and_runs_on_the_threads_of_its_largest():
    single, batched = jobs(1), jobs(1000)
    (everything,) = batched.jobs
    work = sum(
        single.cost(SimpleNamespace(points=name)).cpu_seconds - START_UP.cpu_seconds
        for name in single.jobs
    )
    whole = SimpleNamespace(points=everything)
    assert batched.cost(whole).cpu_seconds == pytest.approx(START_UP.cpu_seconds + work)
    largest = max(single.jobs, key=lambda name: single.cost(SimpleNamespace(points=name)).mem_mb)
    assert batched.cost(whole).mem_mb == single.cost(SimpleNamespace(points=largest)).mem_mb
    assert batched.threads(whole) == 2  # it holds b = 1e4 (large_b)
    assert single.threads(SimpleNamespace(points="d10_b20_sigma0.01")) == 1


def test_a_batch_estimates_what_jobs_of_one_point_do_and_resumes_after_a_kill(
    tmp_path, monkeypatch
):
    single, batched = jobs(1, TINY), jobs(3, TINY)
    name = next(iter(batched.jobs))
    params = batched.params(SimpleNamespace(points=name))
    alone = [
        fig2_job.estimate_points(
            single.params(SimpleNamespace(points=point_label(*p))),
            FinishedRuns(tmp_path / f"{point_label(*p)}.finished"),
            LOG,
        )[0][0]
        for p in batched.jobs[name]
    ]

    made, original = [], fig2_job.estimate_point

    def killed_at_the_third(*args):
        made.append(args[1])
        if len(made) == 3:
            raise KeyboardInterrupt("killed")
        return original(*args)

    monkeypatch.setattr(fig2_job, "estimate_point", killed_at_the_third)
    finished = FinishedRuns(tmp_path / "batch.finished")
    with pytest.raises(KeyboardInterrupt):
        fig2_job.estimate_points(params, finished, LOG)
    made.clear()
    monkeypatch.setattr(fig2_job, "estimate_point", lambda *a: made.append(a[1]) or original(*a))
    summaries, arrays = fig2_job.estimate_points(params, finished, LOG)
    assert made == params["points"][2:]  # the two finished points were kept
    without_seconds = [{k: v for k, v in s.items() if k != "seconds"} for s in summaries]
    assert without_seconds == [{k: v for k, v in s.items() if k != "seconds"} for s in alone]
    assert sorted(arrays) == sorted(
        f"{point_label(*p)}_{field}" for p in batched.jobs[name] for field in ("design", "history")
    )
