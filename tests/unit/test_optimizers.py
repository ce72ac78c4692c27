"""The optimizer plug-ins: one contract every registered method, and every variant of one that
config/config.yaml runs at other settings, meets (budget, reproducible, converges on a
quadratic), the registry, and a throwaway plug-in written in a few lines."""

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest
import yaml

from localbo.kernels import RBF
from localbo.methods import builtin
from localbo.objective import Box, NoisyObjective, OptimizationResult, Trace, finish
from localbo.optimizers import (
    Cost,
    NoSettings,
    Optimizer,
    optimizer_class,
    register,
    run_on_path,
)
from localbo.pipeline.fig1 import method_from_config
from localbo.pipeline.sections import ConfigError
from localbo.sample_paths import FourierSamplePath
from localbo.seeding import rng_for
from tests.unit.quadratic import Quadratic

BUILT_IN = sorted(builtin())
# smaller acquisition searches, so the contract runs in seconds
KNOBS = {"gp_ucb": {"raw_samples": 32, "local_samples": 32, "restarts": 1}}
SECTIONS = yaml.safe_load((Path(__file__).parents[2] / "config" / "config.yaml").read_text())[
    "fig1"
]["methods"]
# the paper scale's variants at settings of their own (a successor as its authors run it)
VARIANTS = sorted(
    name
    for name, section in SECTIONS.items()
    if section and section.get("optimizer")
    and method_from_config(name, section, name).optimizer != optimizer_class(section["optimizer"])()
)  # fmt: skip
METHODS = BUILT_IN + VARIANTS


def optimizer(name):
    if name in VARIANTS:
        return method_from_config(name, SECTIONS[name], name).optimizer
    cls = optimizer_class(name)
    return cls(cls.Settings(**KNOBS.get(name, {})))


def test_the_variants_are_the_successors_as_their_authors_run_them():
    assert {"mpd_reference", "minucb_reference", "nestbo_reference"} <= set(VARIANTS)


@pytest.fixture(scope="module")
def path():
    return FourierSamplePath.draw(RBF(), 3, 256, rng_for(30, "path"))


@pytest.mark.parametrize("name", METHODS)
@pytest.mark.parametrize("sigma", [0.0, 0.1])
def test_every_method_respects_its_budget_and_is_reproducible(path, name, sigma):
    def run(seed):
        return run_on_path(
            optimizer(name),
            path,
            RBF(),
            sigma,
            25,
            Box(-2, 2, 3),
            noise_rng=rng_for(seed, "noise"),
            rng=rng_for(seed, "method"),
        )

    a, b = run(34), run(34)
    assert a.evaluations <= 25
    if optimizer(name).spends_whole_budget(sigma):
        assert a.evaluations == 25
    np.testing.assert_array_equal(a.x, b.x)
    assert a.value == b.value
    assert a.summary()["evaluations"] == a.evaluations
    if optimizer(name).uses_rng or sigma > 0:  # without either, every seed gives one run
        assert run(35).value != a.value


@pytest.mark.parametrize("name", METHODS)
def test_at_budget_zero_every_method_returns_its_start_with_a_trace(path, name):
    """Called directly below its `min_budget` (the config check refuses that), a method still
    returns its start, projected onto the box (GP-UCB and random search returned it outside),
    and a trace of one row (TuRBO-1 had none: arrays() failed). Local BO's noiseless driver is
    unconstrained (`local_bo.noiseless`), so its start stays as given."""
    box, x0 = Box(-2, 2, 3), np.array([0.5, -3.0, 1.0])
    result = run_on_path(
        optimizer(name), path, RBF(), 0.0, 0, box, rng_for(0, "noise"), rng_for(0, "method"), x0
    )
    assert result.evaluations == 0
    local_bo = optimizer(name).name == "local_bo"
    np.testing.assert_array_equal(result.x, x0 if local_bo else box.project(x0))
    arrays = result.trace.arrays()
    assert arrays["iterates"].shape[1] == 3 and all(len(a) >= 1 for a in arrays.values())


def test_every_method_with_settings_ships_a_bad_knob_case():
    """Each method's class lists settings its `Settings` refuses (`invalid_settings`)."""
    for name, cls in builtin().items():
        assert cls.Settings is NoSettings or cls.invalid_settings, name


@pytest.mark.parametrize(
    ("name", "knobs"),
    [(name, knobs) for name, cls in builtin().items() for knobs in cls.invalid_settings],
)
def test_a_knob_out_of_range_is_refused_by_the_settings(name, knobs):
    """The library called directly refuses it as the config does, not later with an unrelated
    error; the message names the knob, and the pipeline reports it under its dotted key."""
    knob = next(iter(knobs))
    with pytest.raises(ValueError, match=f"^{knob}: must be "):
        optimizer_class(name).Settings(**knobs)
    with pytest.raises(ConfigError, match=rf"^fig1\.methods\.{name}\.{knob}: must be "):
        method_from_config(name, knobs, f"fig1.methods.{name}")


def test_none_where_a_count_is_due_is_refused_naming_the_knob():
    """The config's types refuse it first; a library caller gets the knob, not a TypeError."""
    with pytest.raises(ValueError, match=r"^success_tolerance: must be >= 1, got None"):
        optimizer_class("turbo").Settings(success_tolerance=None)


@pytest.mark.parametrize(("box_d", "x0"), [(3, np.zeros(2)), (4, None)], ids=["x0", "path"])
def test_a_start_box_or_path_of_another_dimension_is_refused(path, box_d, x0):
    with pytest.raises(ValueError, match="disagree"):
        run_on_path(
            optimizer("random_search"),
            path,
            RBF(),
            0.0,
            10,
            Box(-5, 5, box_d),
            rng_for(1),
            rng_for(2),
            x0=x0,
        )


@pytest.mark.parametrize("name", METHODS)
def test_every_method_improves_a_quadratic_from_its_start(name):
    """200 noiseless evaluations in [-1, 1]^2 at least halve f(x0) (random search misses with
    probability 0.949^200 < 1e-4 per seed)."""
    f = Quadratic([0.3, -0.2], [1.0, 1.0])
    x0 = np.zeros(2)
    objective = NoisyObjective(f, 0.0, 200)
    result = optimizer(name).minimize(objective, RBF(), x0, Box(-1, 1, 2), rng_for(36, name))
    assert result.evaluations <= 200
    assert result.value < 0.5 * f(x0[None])[0]


def test_registry_finds_the_built_in_methods_by_name():
    assert BUILT_IN
    for name in BUILT_IN:
        cls = optimizer_class(name)
        assert cls.name == name and issubclass(cls, Optimizer)
        assert cls().cost(10, 5000).seconds > 0
    assert optimizer_class("gp_ucb").label == "GP-UCB"


def test_unknown_method_or_knob_is_an_error_naming_it():
    with pytest.raises(ValueError, match="cma_es"):
        optimizer_class("cma_es")
    with pytest.raises(ValueError, match="registers no optimizer named 'nothing'"):
        optimizer_class("nothing", "localbo.kernels")
    with pytest.raises(
        ValueError, match=r"registered by 'localbo\.methods\.gp_ucb', not 'localbo\.kernels'"
    ):
        optimizer_class("gp_ucb", "localbo.kernels")


@dataclass(frozen=True)
class StaySettings:
    """The only knob of the throwaway method."""

    evaluate_start: bool = True


@register
class StayAtStart(Optimizer):
    """A throwaway plug-in: evaluate x0 and return it."""

    name = "stay_at_start_unit"
    Settings = StaySettings

    def minimize(self, objective, kernel, x0, box, rng):
        trace = Trace()
        if self.settings.evaluate_start:
            objective(x0[None, :])
        trace.record(objective, x0)
        return finish(objective, x0, trace, stop="done")


class StayLabelled(StayAtStart):
    name = "stay_labelled_unit"


def test_a_subclass_gets_its_own_label_and_job_defaults_are_inherited():
    assert StayLabelled.label == "stay labelled unit"
    assert StayLabelled.default_paths_per_job == Optimizer.default_paths_per_job == 10
    assert optimizer_class("local_bo").default_noise_levels == (0.0, 0.05, 0.2)


def test_a_plug_in_is_a_class_with_one_method():
    cls = optimizer_class("stay_at_start_unit", __name__)
    assert cls is StayAtStart and cls.label == "stay at start unit"
    assert cls() == cls(StaySettings()) != cls(StaySettings(evaluate_start=False))
    path = FourierSamplePath.draw(RBF(), 2, 64, rng_for(37, "path"))
    result = run_on_path(cls(), path, RBF(), 0.0, 10, Box(-1, 1, 2), None, rng_for(0))
    assert isinstance(result, OptimizationResult)
    assert result.evaluations == 1 and result.value == path(np.zeros((1, 2)))[0]
    assert cls().cost(2, 10) == Cost(seconds=0.1)
    with pytest.raises(TypeError, match="StaySettings"):
        cls(NoSettings())
