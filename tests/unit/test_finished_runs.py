"""A Fig. 1 job keeps each run as it finishes and its rerun resumes after the last one kept."""

import json
import logging

import numpy as np
import pytest

import localbo.pipeline.fig1_job as fig1_job
import localbo.pipeline.finished_runs as finished_runs
from localbo.io import load_npz
from localbo.objective import without_times
from localbo.pipeline.finished_runs import SUMMARY, FinishedRuns, fingerprint

LOG = logging.getLogger("test")


def counting_runs(monkeypatch, fail_at: int | None = None) -> list[int]:
    """Count the runs `run_chunk` makes; with `fail_at`, that run raises (a killed job)."""
    made = []
    original = fig1_job.run_on_path

    def run(*args, **kwargs):
        made.append(len(made))
        if len(made) - 1 == fail_at:
            raise KeyboardInterrupt("killed")
        return original(*args, **kwargs)

    monkeypatch.setattr(fig1_job, "run_on_path", run)
    return made


def test_a_killed_job_resumes_after_its_last_finished_run_with_the_same_outputs(
    job, tmp_path, monkeypatch
):
    params, files = job
    whole = fig1_job.run_chunk("turbo", 2, 0.0, params, files, FinishedRuns(tmp_path / "a"), LOG)

    finished = FinishedRuns(tmp_path / "b")
    counting_runs(monkeypatch, fail_at=2)
    with pytest.raises(KeyboardInterrupt):
        fig1_job.run_chunk("turbo", 2, 0.0, params, files, finished, LOG)
    assert sorted(p.name for p in finished.directory.iterdir()) == ["p0.npz", "p1.npz"]

    kept = [json.loads(str(load_npz(finished.directory / f"p{i}.npz")[SUMMARY])) for i in (0, 1)]
    made = counting_runs(monkeypatch)
    resumed = fig1_job.run_chunk("turbo", 2, 0.0, params, files, finished, LOG)
    assert len(made) == 1  # path 2 only
    assert list(map(without_times, resumed[0])) == list(map(without_times, whole[0]))
    assert [s["seconds"] for s in resumed[0][:2]] == [s["seconds"] for s in kept]  # the killed
    # attempt's times; its CPU counts as spent before this attempt, which ran path 2 only
    assert [s["cpu_seconds_before"] for s in resumed[0]] == [s["cpu_seconds"] for s in kept] + [0]
    assert list(resumed[1]) == list(whole[1])  # the same keys in the same order
    assert "p0_tr_center" in resumed[1]  # a method's own trace fields come back too
    for name, array in whole[1].items():
        assert resumed[1][name].dtype == array.dtype, name
        np.testing.assert_array_equal(resumed[1][name], array, err_msg=name)


@pytest.mark.slow
def test_runs_kept_with_other_parameters_paths_or_code_are_run_again(job, tmp_path, monkeypatch):
    params, files = job
    finished = FinishedRuns(tmp_path / "kept")
    fig1_job.run_chunk("turbo", 2, 0.0, params, files, finished, LOG)
    made = counting_runs(monkeypatch)
    fig1_job.run_chunk("turbo", 2, 0.0, params, files, finished, LOG)
    assert len(made) == 0  # every run kept
    others = [
        ("turbo", 2, 0.0, {**params, "budget": 30}, files),
        ("turbo", 2, 0.0, {**params, "method_settings": {"candidates": 50}}, files),
        ("turbo", 2, 0.1, params, files),
        ("random_search", 2, 0.0, params, files),
    ]
    for method, d, sigma, other, paths in others:
        made.clear()
        fig1_job.run_chunk(method, d, sigma, other, paths, FinishedRuns(finished.directory), LOG)
        assert len(made) == 3, (method, sigma, other)
        fig1_job.run_chunk("turbo", 2, 0.0, params, files, finished, LOG)  # the original back

    made.clear()
    # path 0 is path 2's file now
    fig1_job.run_chunk("turbo", 2, 0.0, params, files[::-1], finished, LOG)
    assert len(made) == 2  # only path 1 has its own file still

    fig1_job.run_chunk("turbo", 2, 0.0, params, files, finished, LOG)
    monkeypatch.setattr(finished_runs, "source_digest", lambda: "other code")
    made.clear()
    fig1_job.run_chunk("turbo", 2, 0.0, params, files, finished, LOG)
    assert len(made) == 3


def test_an_unreadable_kept_run_is_run_again(job, tmp_path, monkeypatch):
    params, files = job
    finished = FinishedRuns(tmp_path / "kept")
    whole = fig1_job.run_chunk("turbo", 2, 0.0, params, files, finished, LOG)
    content = (finished.directory / "p1.npz").read_bytes()
    (finished.directory / "p1.npz").write_bytes(content[: len(content) // 2])  # a crash mid-write
    (finished.directory / "p2.npz").write_bytes(b"")
    made = counting_runs(monkeypatch)
    again = fig1_job.run_chunk("turbo", 2, 0.0, params, files, finished, LOG)
    assert len(made) == 2
    assert list(map(without_times, again[0])) == list(map(without_times, whole[0]))


def test_a_kept_run_is_found_by_its_fingerprint_only(tmp_path):
    finished = FinishedRuns(tmp_path / "runs")
    file = tmp_path / "input.npz"
    file.write_bytes(b"path")
    key = fingerprint({"budget": 5}, "p3", [file])
    summary, arrays = {"value": -1.5, "stop": "budget"}, {"x": np.arange(3.0)}
    finished.put("p3", key, summary, arrays)
    got_summary, got_arrays = finished.get("p3", key)
    assert got_summary == summary and list(got_arrays) == ["x"]
    np.testing.assert_array_equal(got_arrays["x"], arrays["x"])
    assert finished.get("p3", fingerprint({"budget": 6}, "p3", [file])) is None
    assert finished.get("p3", fingerprint({"budget": 5}, "p4", [file])) is None
    assert finished.get("p4", key) is None
    file.write_bytes(b"other path")
    assert finished.get("p3", fingerprint({"budget": 5}, "p3", [file])) is None
    finished.clear()
    assert not finished.directory.exists()
