"""The sensitivity study: each choice varied alone from our defaults, each setting run once,
the jobs' parameters differ from ours in the one knob, and the table joins the comparison."""

import dataclasses
import math
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
import yaml

from localbo.pipeline.paper_claims import CLAIMS, FIG3_PUBLISHED
from localbo.pipeline.paper_comparison import Ours, PaperComparisonSettings, compare
from localbo.pipeline.sections import as_config
from localbo.pipeline.sensitivity import DEFAULT
from localbo.pipeline.sensitivity_table import TABLE_COLUMNS, amplitude, causes, table
from localbo.pipeline.settings import load_settings

REPO = Path(__file__).resolve().parents[2]
SCHEMA = REPO / "config" / "schemas" / "config.schema.yaml"


@pytest.fixture(scope="module")
def jobs():
    config = yaml.safe_load((REPO / "config" / "config.yaml").read_text())
    return load_settings(config, SCHEMA).sensitivity_jobs()


def test_each_fig3_choice_takes_its_other_values_alone_and_ours_runs_once(jobs):
    settings = jobs.fig3_settings()
    choices = jobs.settings.fig3
    others = sum(len(getattr(choices, c)) - 1 for c in jobs.fig3_defaults())
    assert len(settings) == 1 + others and settings[DEFAULT] == ("", None)
    ours = jobs.fig3_params(SimpleNamespace(setting=DEFAULT))
    assert ours["paths"] == list(range(choices.paths)) and ours["main"] == 0
    for name, (choice, value) in settings.items():
        if name == DEFAULT:
            continue
        params = jobs.fig3_params(SimpleNamespace(setting=name))
        changed = {k for k in params if params[k] != ours[k]}
        assert changed == {choice} and params[choice] == value, name


def test_fig3s_default_setting_is_fig3s_own_model(jobs):
    """Our setting runs Fig. 3's paths with Fig. 3's model, budget and box."""
    ours = jobs.fig3_params(SimpleNamespace(setting=DEFAULT))
    chunk = jobs.fig3.chunk_params(SimpleNamespace(chunk="0"))
    assert {k: ours[k] for k in chunk if k != "runs"} == {
        k: v for k, v in chunk.items() if k != "runs"
    }
    assert (ours["minimizer"], ours["start_box"]) == ("bfgs", "fig1")


def test_each_gradient_setting_changes_one_knob_of_its_procedure(jobs):
    from localbo.pipeline.gradient_estimation import PROCEDURES

    settings = jobs.gradient_settings()
    assert {p for p, _, _ in settings.values()} == set(PROCEDURES)
    for name, (procedure, choice, value) in settings.items():
        case = jobs.gradient.distributed[0]
        mine = jobs.gradient_params(SimpleNamespace(setting=name, case=case))
        own = jobs.gradient.draw_params(SimpleNamespace(case=case, procedure=procedure))
        assert value != jobs.gradient_own(procedure)[choice], name
        changed = {
            f"{part}.{k}" for part in ("design", "fit") for k in own[part]
            if own[part][k] != mine[part][k]
        }  # fmt: skip
        if mine["case"] != own["case"]:
            changed.add("case.noise_std")
        s = jobs.gradient.settings
        expected = {
            "design": {f"design.{k}" for k, v in as_config(s.design).items()
                       if as_config(s.paper_design)[k] != v},
            "fit": {f"fit.{k}" for k, v in as_config(s.fit).items()
                    if as_config(s.paper_fit)[k] != v},
            "noise_floor": {"fit.noise_var_bounds"},
            "lengthscale_floor": {"fit.lengthscale_bounds"},
            "noise_std": {"case.noise_std"},
        }[choice]  # fmt: skip
        assert changed == expected, (name, changed)
        assert mine["case"]["noise_std"] == (
            value if choice == "noise_std" else own["case"]["noise_std"]
        )


def test_a_paths_amplitude_is_the_root_mean_square_of_its_weights():
    rng = np.random.default_rng(0)
    w = rng.normal(size=4096)
    stored = math.sqrt(2.0) * math.sqrt(2 / 4096) * w  # outputscale 2
    assert amplitude(stored, 2.0) == pytest.approx(np.sqrt(np.mean(w**2)))


def test_the_table_judges_each_setting_by_its_rows_rule_and_names_the_cause(jobs):
    """A Fig. 3 setting whose 19 paths reach the paper's curve is consistent, one that stays
    above it is not: the comparison's inconsistent row names the first as its cause; a Fig. 1
    setting is judged as a median of 50 paths; a draws setting by its density."""
    ours = jobs.fig3_defaults()
    small = dataclasses.replace(
        jobs.settings.fig3, num_features=(ours["num_features"], 65536), budget=(ours["budget"],),
        minimizer=("bfgs",), start_box=("fig1",),
    )  # fmt: skip
    study = type(jobs)(dataclasses.replace(jobs.settings, fig3=small), jobs.fig3, jobs.gradient)
    params = study.table_params()
    params["gradient"], params["cases"] = {}, []

    def paths(lowest):
        return [{"path": p, "amplitude": 1.0, "k1": lowest + 0.05 * p, "k10": lowest - 0.5}
                for p in range(19)]  # fmt: skip

    fig3 = {DEFAULT: paths(FIG3_PUBLISHED[1] + 0.2), "num_features-65536": paths(-18.5)}
    values = np.linspace(-13.4, -12.2, 50)
    fig1 = {name: values for name in params["fig1"]}
    alpha = PaperComparisonSettings().false_disagreement
    rows = table(fig3, fig1, {}, params, alpha, 999, 7)
    assert all(list(r) == TABLE_COLUMNS for r in rows)
    by = {(r["explains"], r["choice"], r["value"]): r for r in rows}
    assert by["fig3_best_of_1", "ours", ""]["verdict"] == "inconsistent"
    assert by["fig3_best_of_1", "num_features", 65536]["verdict"] == "consistent"
    assert by["fig1_median", "ours", ""]["verdict"] == "consistent"
    assert {r["explains"] for r in rows} <= {c.key for c in CLAIMS}
    found = causes(rows)
    assert found["fig3_best_of_1"] == "num_features = 65536"
    assert found["fig1_median"] == "num_features = 1024; num_features = 16384; num_features = 65536"
    sample = np.array([r["k1"] for r in fig3[DEFAULT]])
    ours = {"fig3_best_of_1": [Ours("", sample[0], sample.min(), sample.max(), sample=sample)]}
    sections = ("fig1", "fig2", "fig3", "gradient_estimation")
    comparison = compare(ours, dict.fromkeys(sections, True), PaperComparisonSettings(), 7, found)
    (fig3_row,) = [r for r in comparison if r["quantity"].endswith("(k = 1)")]
    assert (fig3_row["verdict"], fig3_row["cause"]) == ("inconsistent", "num_features = 65536")
    assert {r["cause"] for r in comparison if r is not fig3_row} == {""}  # missing: no cause
