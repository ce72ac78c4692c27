"""The landscape section: it reads Fig. 1's paths and runs, so its checks name the Fig. 1 keys
it needs; its jobs cover every path once and find the Fig. 1 run files that hold them."""

import copy
from pathlib import Path
from types import SimpleNamespace

import pytest
import yaml
from snakemake.utils import update_config

from localbo.pipeline.landscape import LandscapeSettings
from localbo.pipeline.sections import ConfigError
from localbo.pipeline.settings import load_settings

CONFIG = yaml.safe_load((Path(__file__).resolve().parents[2] / "config/config.yaml").read_text())


def settings(override: str):
    config = copy.deepcopy(CONFIG)
    update_config(config, yaml.safe_load(override))
    return load_settings(config)


@pytest.mark.parametrize(
    ("override", "message"),
    [
        ("landscape: {dims: [5, 7]}", "landscape.dims: d = 7 is not one of fig1.dims"),
        ("landscape: {num_paths: 51}", "landscape.num_paths: 51 paths"),
        ("fig1: {methods: {exact_gradient: null}}", "fig1.methods.exact_gradient: the landscape"),
        ("fig1: {methods: {local_bo: null}}", "fig1.methods.local_bo: the landscape"),
        (
            "fig1: {methods: {exact_gradient: {noise_levels: [0.1]}}}",
            "fig1.methods.exact_gradient.noise_levels: must contain 0",
        ),
        (
            "fig1: {methods: {local_bo: {dims: [1, 5]}}}",
            r"fig1.methods.local_bo.dims: the landscape section reads its runs at d = \[10, 20",
        ),
    ],
)
def test_checks_name_the_key(override, message):
    with pytest.raises(ConfigError, match=message):
        settings(override)


def test_jobs_cover_the_paths_and_read_the_fig1_runs_holding_them():
    jobs = settings(
        "landscape: {num_paths: 12, paths_per_job: 5}\n"
        "fig1: {methods: {local_bo: {paths_per_job: 4}}}"
    ).landscape_jobs()
    assert jobs.chunks() == [[0, 1, 2, 3, 4], [5, 6, 7, 8, 9], [10, 11]]
    assert len(jobs.run_files("{d}_{chunk}")) == 4 * 3
    wildcards = SimpleNamespace(d="10", chunk="1")
    pattern = "{method}/d{d}_sigma{sigma}_chunk{chunk}"
    # paths 5-9 are in local BO's chunks 1 (4-7) and 2 (8-11), all in exact_gradient's chunk 0
    assert jobs.fig1_runs("local_bo", pattern, wildcards) == [
        "local_bo/d10_sigma0.0_chunk1",
        "local_bo/d10_sigma0.0_chunk2",
    ]
    assert jobs.fig1_runs("exact_gradient", pattern, wildcards) == [
        "exact_gradient/d10_sigma0.0_chunk0"
    ]
    params = jobs.run_params(wildcards)
    assert params["paths"] == [5, 6, 7, 8, 9] and params["starts"] == 200
    assert params["minimizer"] == {"gtol": 1e-7, "ftol": 1e-15, "max_iterations": 2000}
    assert params["exact_bfgs_max_calls"] == 5000 // 11 and params["bfgs_gtol"] == 1e-6
    outputs = SimpleNamespace(summary="{method}/a", traces="{method}/b")
    inputs = {name: get(wildcards) for name, get in jobs.fig1_inputs(outputs).items()}
    assert inputs["local_bo_traces"] == ["local_bo/b", "local_bo/b"]
    assert inputs["exact_gradient_summary"] == ["exact_gradient/a"]
    assert 5 <= jobs.cost(SimpleNamespace(d="50", chunk="0")).cpu_seconds < 60
    assert LandscapeSettings().dims == (5, 10, 20, 50)
