"""The pipeline's typed settings: one source of defaults, and bad configs named by their key.

Direction: the settings dataclasses own every default. The JSON schema's defaults and
config/config.yaml (the paper scale) are checked against them here, so none can drift.
"""

import copy
import math
import re
from pathlib import Path
from types import SimpleNamespace

import pytest
import yaml
from snakemake.utils import update_config

from localbo.full_batch_lbfgs import OPTIMIZERS
from localbo.gradient_estimation import DESIGN_CRITERIA
from localbo.hyperparameters import FIT_STARTS
from localbo.kernels import KERNELS
from localbo.methods import builtin
from localbo.methods.local_bo import BATCH_SCHEDULES, STEP_RULES, LocalBOSettings
from localbo.methods.local_bo.noiseless import MINIMIZERS
from localbo.optimizers import Optimizer
from localbo.pipeline.fig1 import MethodJobs, method_defaults
from localbo.pipeline.gradient_estimation import FITS, PROCEDURES
from localbo.pipeline.local_solutions_figure import LAYOUTS
from localbo.pipeline.rates import SET_BY_RATES
from localbo.pipeline.resources import (
    MEMORY_FACTOR,
    RUNTIME_FACTOR,
    RUNTIME_FLOOR_MINUTES,
    START_UP,
    scheduled,
)
from localbo.pipeline.schema import schema_errors
from localbo.pipeline.sections import ConfigError, as_config
from localbo.pipeline.sensitivity import START_BOXES
from localbo.pipeline.settings import default_config, load_settings
from localbo.subdifferentials import TEST_FUNCTIONS

REPO = Path(__file__).resolve().parents[2]
SCHEMA = REPO / "config" / "schemas" / "config.schema.yaml"
CONFIG = yaml.safe_load((REPO / "config" / "config.yaml").read_text())
TINY = yaml.safe_load((REPO / "tests" / "workflow" / "tiny.yaml").read_text())


def schema_defaults(node, here=SCHEMA.parent, root=None):
    """The defaults a schema declares, nested like the config (objects by their properties)."""
    if "$ref" in node:
        ref = node["$ref"]
        if ref.startswith("#/"):
            target = root
            for part in ref[2:].split("/"):
                target = target[part]
            return schema_defaults(
                {**target, **{k: v for k, v in node.items() if k != "$ref"}}, here, root
            )
        loaded = yaml.safe_load((here / ref).read_text())
        return schema_defaults(loaded, here, loaded)
    if "properties" in node:
        return {
            key: schema_defaults(sub, here, root)
            for key, sub in node["properties"].items()
            if "default" in sub or "properties" in sub or "$ref" in sub
        }
    return node["default"]


def leaves(tree, prefix=""):
    """(dotted key, value) of every leaf of a nested mapping."""
    for key, value in tree.items():
        if isinstance(value, dict) and value:
            yield from leaves(value, f"{prefix}{key}.")
        else:
            yield f"{prefix}{key}", value


def split_methods(config):
    """(the config without fig1.methods, the method sections)."""
    config = copy.deepcopy(config)
    return config, config["fig1"].pop("methods")


def test_schema_defaults_are_the_settings_defaults():
    root = yaml.safe_load(SCHEMA.read_text())
    declared, methods = split_methods(schema_defaults(root, root=root))
    expected, no_methods = split_methods(default_config())
    assert no_methods == {}  # the config names the methods, there is no default list
    assert declared == expected
    assert set(methods) == {"local_bo", "gp_ucb", "random_search"}
    for name, section in methods.items():  # the schema's section of each built-in method
        assert section == method_defaults(name), name
    fig1 = yaml.safe_load((SCHEMA.parent / "fig1.schema.yaml").read_text())
    plug_in = schema_defaults(fig1["$defs"]["method"], root=fig1)
    assert plug_in == as_config(
        MethodJobs(Optimizer.default_noise_levels, Optimizer.default_paths_per_job)
    )


# The keys of a method section that place its runs at the paper scale or name it rather than set
# a default: of a built-in method, the d it runs at and its label ("our choices" where its
# authors' variant runs); a variant (a section with an `optimizer`) sets any key, being the
# method at other settings.
PLAN_KEYS = ("dims", "label")


def test_config_yaml_is_the_settings_defaults():
    """config/config.yaml is the paper scale: every value it writes is a default, every key
    known; every method it names has its defaults (a method added there needs no other edit),
    but for where they run and their names (`PLAN_KEYS`); a variant (a section with an
    `optimizer`) has its optimizer's defaults but for the keys it sets."""
    written, methods = split_methods(CONFIG)
    defaults = dict(leaves(split_methods(default_config())[0]))
    for key, value in leaves(written):
        assert defaults[key] == value, key
    optimizers = {name: section.get("optimizer") or name for name, section in methods.items()}
    built = [name for name, optimizer in optimizers.items() if name == optimizer]
    assert sorted(built) == sorted(builtin())  # every built-in method, and only those
    expected = {}
    for name, section in methods.items():
        expected[name] = method_defaults(optimizers[name])
        for key, value in section.items():
            if optimizers[name] != name or key in PLAN_KEYS:
                expected[name][key] = value
            assert expected[name][key] == value, f"fig1.methods.{name}.{key}"
    config = copy.deepcopy(CONFIG)
    loaded, loaded_methods = split_methods(as_config(load_settings(config, SCHEMA)))
    assert loaded == split_methods(default_config())[0]
    assert loaded_methods == expected


def test_config_yaml_names_every_key_a_method_section_takes():
    """The comment above `fig1.methods` lists the job keys common to every method."""
    text = (REPO / "config" / "config.yaml").read_text()
    comment = text.split("Keys common to every method:", 1)[1].split("  methods:", 1)[0]
    for key in MethodJobs.__dataclass_fields__:
        assert re.search(rf"\b{key} \(", comment), key


def enums(node, where=""):
    """Each `enum` a schema declares, by where it stands: {path: list of names}."""
    found = {}
    if isinstance(node, dict):
        if "enum" in node:
            found[where] = node["enum"]
        for key, value in node.items():
            found |= enums(value, f"{where}/{key}")
    return found


def test_every_schema_enum_is_its_registry_in_the_code():
    """The names a schema allows are the names the code knows (a kernel, schedule or test
    function added in the code and not in the schema, or the other way round, fails here)."""
    registries = {
        "fig1/properties/kernel": KERNELS,
        "fig1/properties/layout": LAYOUTS,
        "fig1/properties/methods/properties/local_bo/properties/schedule": BATCH_SCHEDULES,
        "fig1/properties/methods/properties/local_bo/properties/step_rule": STEP_RULES,
        "fig2/properties/kernel": KERNELS,
        "gradient_estimation/properties/kernel": KERNELS,
        "gradient_estimation/properties/fit/properties/start": FIT_STARTS,
        "gradient_estimation/properties/paper_fit/properties/start": FIT_STARTS,
        "gradient_estimation/properties/fit/properties/optimizer": OPTIMIZERS,
        "gradient_estimation/properties/paper_fit/properties/optimizer": OPTIMIZERS,
        "gradient_estimation/properties/design/properties/optimizer": OPTIMIZERS,
        "gradient_estimation/properties/paper_design/properties/optimizer": OPTIMIZERS,
        "gradient_estimation/properties/design/properties/criterion": DESIGN_CRITERIA,
        "gradient_estimation/properties/paper_design/properties/criterion": DESIGN_CRITERIA,
        "gradient_estimation/properties/cases/additionalProperties/properties/function": (
            TEST_FUNCTIONS
        ),
        "gradient_estimation/properties/cases/additionalProperties/properties/fit": FITS,
        "sensitivity/properties/fig3/properties/minimizer/items": tuple(MINIMIZERS),
        "sensitivity/properties/fig3/properties/start_box/items": START_BOXES,
        "sensitivity/properties/gradient_estimation/properties/design/items": PROCEDURES,
        "sensitivity/properties/gradient_estimation/properties/fit/items": PROCEDURES,
    }
    declared = {}
    for path in sorted(SCHEMA.parent.glob("*.schema.yaml")):
        name = path.name.removesuffix(".schema.yaml")
        for where, names in enums(yaml.safe_load(path.read_text())).items():
            declared[name + where] = names
    assert set(declared) == set(registries)
    for where, names in declared.items():
        assert sorted(names) == sorted(registries[where]), where


def test_tiny_config_loads_and_keeps_its_overrides():
    config = copy.deepcopy(CONFIG)
    update_config(config, TINY)
    settings = load_settings(config, SCHEMA)
    assert settings.fig1.dims == (1, 3)
    assert settings.fig1.budget_of("gp_ucb") == 12
    assert settings.fig1.method("local_bo").optimizer.settings.design_max_iterations == 20


def test_a_null_method_section_leaves_the_method_out():
    config = copy.deepcopy(CONFIG)
    update_config(config, {"fig1": {"methods": {"gp_ucb": None}}})
    others = [name for name in CONFIG["fig1"]["methods"] if name != "gp_ucb"]
    assert list(load_settings(config, SCHEMA).fig1.methods.methods) == others


def test_a_method_runs_at_its_own_dims_only():
    """`dims` of a method section (a slow method run in parts, d by d) selects its jobs."""
    config = copy.deepcopy(CONFIG)
    update_config(config, {"fig1": {"methods": {"gp_ucb": {"dims": [30, 50]}}}})
    settings = load_settings(config, SCHEMA)
    files = settings.fig1_jobs().run_files("{method} {d} {sigma} {chunk}")
    assert {f.split()[1] for f in files if f.startswith("gp_ucb ")} == {"30", "50"}
    assert {f.split()[1] for f in files if f.startswith("turbo ")} == {
        str(d) for d in settings.fig1.dims
    }
    assert settings.fig1.dims_of("gp_ucb") == (30, 50)
    update_config(config, {"fig1": {"methods": {"gp_ucb": {"dims": []}}}})
    with pytest.raises(ConfigError, match=r"fig1\.methods\.gp_ucb\.dims: empty"):
        load_settings(config)  # not only the schema: an empty list is not "every d"


def test_jobs_hold_the_configs_value_of_every_knob_their_runs_read():
    """A knob left out of a job's params is rebuilt at its default: every knob a run reads must
    be there, at the config's value (here every local-BO knob off its default)."""
    knobs = {
        "min_noise_var": 1e-9, "design_max_iterations": 7, "design_optimize_max_b": 9,
        "design_perturbation": 0.3, "bfgs_gtol": 1e-5, "schedule": "d_t", "batch_factor": 2.0,
        "step_rule": "fixed", "step_size": 0.5, "data_window": 3,
    }  # fmt: skip
    assert set(knobs) == set(as_config(LocalBOSettings()))
    config = copy.deepcopy(CONFIG)
    update_config(config, {"fig1": {"methods": {"local_bo": knobs}}})
    settings = load_settings(config, SCHEMA)
    for sigma in ("0.0", "0.05"):
        wildcards = SimpleNamespace(method="local_bo", d="5", sigma=sigma, chunk="0")
        held = settings.fig1_jobs().run_params(wildcards)["method_settings"]
        read = LocalBOSettings().read_at(float(sigma))
        assert held == {k: knobs[k] for k in read}, sigma
    assert settings.fig3_jobs().model_params()["local_bo"] == {
        k: knobs[k] for k in LocalBOSettings().read_at(0.0)
    }
    rates = settings.rates_jobs().run_params()["local_bo"]
    assert rates == {k: v for k, v in knobs.items() if k not in SET_BY_RATES}


def test_a_method_runs_its_own_path_range_only_with_the_same_job_files():
    """`path_range` (a cell run in parts, paths by paths) selects whole jobs, named as in a run
    of every path, so the parts' runs are those of one run."""
    config = copy.deepcopy(CONFIG)
    update_config(config, {"fig1": {"methods": {"gp_ucb": {"path_range": [20, 30]}}}})
    jobs = load_settings(config, SCHEMA).fig1_jobs()
    files = jobs.run_files("{method} {d} {sigma} {chunk}")
    assert {f.split()[3] for f in files if f.startswith("gp_ucb ")} == {
        str(c) for c in range(20, 30)
    }
    assert jobs.chunks("gp_ucb")[25] == [25]
    update_config(config, {"fig1": {"methods": {"random_search": {"path_range": [0, 25]}}}})
    with pytest.raises(ConfigError, match=r"random_search.path_range: \[0, 25\] must fall on job"):
        load_settings(config, SCHEMA)  # random search runs 50 paths per job
    update_config(config, {"fig1": {"methods": {"random_search": {"path_range": [0, 50]}}}})
    assert load_settings(config, SCHEMA).fig1_jobs().jobs_of("random_search") == [0]


# (override over the tiny config, text the error must contain): the schema's cases and the
# semantic checks' cases, all in-process (tests/workflow/test_bad_configs.py runs two end to end)
BAD_CONFIGS = {
    "seed-negative": ("seed: -1\n", "seed"),
    "seed-string": ("seed: abc\n", "seed"),
    "unknown-top-level-key": ("figg2: {}\n", "figg2"),
    "unknown-kernel": ("fig2:\n  kernel: periodic\n", "kernel"),
    "noise-levels-empty": ("fig2:\n  noise_levels: []\n", "noise_levels"),
    "sigma-negative": ("fig2:\n  noise_levels: [0.1, -0.1]\n", "noise_levels"),
    "noise-levels-duplicate": ("fig2:\n  noise_levels: [0.1, 0.1]\n", "noise_levels"),
    "restarts-zero": ("fig2:\n  estimate: {restarts: 0}\n", "restarts"),
    "max-iterations-float": ("fig2:\n  estimate: {max_iterations: 2.5}\n", "max_iterations"),
    "dimension-zero": ("fig2:\n  panel_a: {d: 0, b_min: 20, b_max: 40, num: 2}\n", "panel_a"),
    "b-range-reversed": ("fig2:\n  panel_a: {d: 2, b_min: 50, b_max: 20, num: 2}\n", "b_min"),
    "d-range-reversed": ("fig2:\n  panel_b: {b: 8, d_min: 9, d_max: 3, num: 2}\n", "d_min"),
    "batch-size-string": ("fig2:\n  panel_b: {b: many, d_min: 1, d_max: 3, num: 2}\n", "panel_b"),
    "unknown-section-key": ("fig2:\n  bogus: 1\n", "bogus"),
    "lengthscale-negative": ("fig2:\n  lengthscale: -1.0\n", "lengthscale"),
    "perturbation-zero": ("fig2:\n  estimate: {perturbation: 0}\n", "perturbation"),
    "nugget-zero": ("fig2:\n  estimate: {min_noise_var: 0}\n", "min_noise_var"),
    "section-not-a-mapping": ("fig2: 3\n", "fig2"),
    "duplicate-dimensions": ("fig1:\n  dims: [5, 5]\n", "dims"),
    "budget-below-one-batch": ("fig1:\n  budget: 3\n", "fig1.budget"),
    "budget-below-one-fig3-batch": ("fig3:\n  d: 6000\n", "fig3.d"),
    "unknown-step-rule": ("fig1:\n  methods: {local_bo: {step_rule: adam}}\n", "step_rule"),
    "chunk-size-zero": ("fig3:\n  chunk_size: 0\n", "chunk_size"),
    "band-above-one": ("fig3:\n  band: 1.5\n", "band"),
    "more-restarts-than-runs": (
        "fig3:\n  num_restarts: 50\n  max_restarts: 100\n",
        "fig3.max_restarts: 100 is more than the fig3.num_restarts = 50",
    ),
    "start-outside-box": ("fig1:\n  box: {lower: 1.0, upper: 5.0}\n", "fig1.box"),
    "no-noiseless-level": (
        "fig1:\n  methods: {local_bo: {noise_levels: [0.1]}}\n",
        "fig1.methods.local_bo.noise_levels",
    ),
    "method-dims-outside-the-figure": (
        "fig1:\n  methods: {gp_ucb: {dims: [1, 7]}}\n",
        "fig1.methods.gp_ucb.dims: [7] not in fig1.dims",
    ),
    "method-path-range-outside": (
        "fig1:\n  methods: {gp_ucb: {path_range: [1, 9]}}\n",
        "fig1.methods.gp_ucb.path_range: [1, 9] must satisfy 0 <= first < stop",
    ),
    "method-path-range-empty": (
        "fig1:\n  methods: {gp_ucb: {path_range: [1, 1]}}\n",
        "fig1.methods.gp_ucb.path_range",
    ),
    "landscape-path-range": (
        "fig1:\n  methods: {local_bo: {paths_per_job: 1, path_range: [1, 2]}}\n",
        "fig1.methods.local_bo.path_range: the landscape section reads",
    ),
    "method-dims-empty": ("fig1:\n  methods: {turbo: {dims: []}}\n", "fig1.methods.turbo.dims: "),
    "unknown-schedule": ("fig1:\n  methods: {local_bo: {schedule: d_t3}}\n", "schedule"),
    "delta-above-1": ("fig1:\n  methods: {gp_ucb: {delta: 1.5}}\n", "delta"),
    "no-paths": ("fig1:\n  num_paths: 0\n", "num_paths"),
    "unknown-method": ("fig1:\n  methods: {cma_es: {}}\n", "fig1.methods.cma_es"),
    "unknown-plug-in-knob": (
        "fig1:\n  methods: {stay_at_start_unit: {module: tests.unit.test_optimizers, step: 1}}\n",
        "fig1.methods.stay_at_start_unit.step: unknown key",
    ),
    "plug-in-knob-of-the-wrong-type": (
        "fig1:\n  methods: {stay_at_start_unit: {module: tests.unit.test_optimizers,"
        " evaluate_start: maybe}}\n",
        "fig1.methods.stay_at_start_unit.evaluate_start: expected bool",
    ),
    "module-that-does-not-register-it": (
        "fig1:\n  methods: {my_local_bo: {module: localbo.methods.local_bo}}\n",
        "registers no optimizer named 'my_local_bo'",
    ),
    "every-method-null": (
        "fig1:\n  methods: {"
        + ", ".join(f"{name}: null" for name in CONFIG["fig1"]["methods"])
        + "}\n",
        "fig1.methods: no method",
    ),
    "plug-in-knob-of-a-method": (
        "fig1:\n  methods: {random_search: {chunk: 0.5, paths_per_job: 2}}\n",
        "chunk",
    ),
    "unknown-fig4-case": (
        "gradient_estimation:\n  fig4: [l1_n5, missing_case]\n",
        "gradient_estimation.fig4",
    ),
    "fig5-case-of-dimension-two": (
        "gradient_estimation:\n  fig5: [quadratic_n5]\n",
        "dimension 2",
    ),
    "fit-bounds-reversed": (
        "gradient_estimation:\n  fit: {noise_var_bounds: [1.0, 0.1]}\n",
        "gradient_estimation.fit.noise_var_bounds",
    ),
    "paper-fit-bounds-reversed": (
        "gradient_estimation:\n  paper_fit: {lengthscale_bounds: [10.0, 1.0]}\n",
        "gradient_estimation.paper_fit.lengthscale_bounds",
    ),
    "turbo-budget-below-its-design": (
        "fig1:\n  methods: {turbo: {budget: 1}}\n",
        "fig1.methods.turbo.budget: 1 evaluations are below",
    ),
    "local-bo-budget-below-one-gradient": (
        "fig1:\n  methods: {local_bo: {budget: 1}}\n",
        "fig1.methods.local_bo.budget: 1 evaluations are below the",
    ),
    "turbo-length-min-above-init": (
        "fig1:\n  methods: {turbo: {length_min: 2.0}}\n",
        "fig1.methods.turbo.length_min: must be in (0, length_init = 0.8]",
    ),
    "turbo-failure-tolerance-zero": (
        "fig1:\n  methods: {turbo: {failure_tolerance: 0}}\n",
        "fig1.methods.turbo.failure_tolerance: must be >= 1 or null",
    ),
    "mpd-window-zero": (
        "fig1:\n  methods: {mpd: {window_factor: 0}}\n",
        "fig1.methods.mpd.window_factor: must be >= 1",
    ),
    "mpd-probability-at-half": (
        "fig1:\n  methods: {mpd: {min_probability: 0.5}}\n",
        "fig1.methods.mpd.min_probability: must be in (0.5, 1)",
    ),
    "variant-at-fig1s-budget": (
        "fig1:\n  methods: {nestbo_short: {budget: null}}\n",
        "fig1.methods.nestbo_short.label: nestbo_short's name 'NeST-BO, our choices' is nestbo's",
    ),
    "variant-label-repeated": (
        "fig1:\n  methods: {minucb_reference: {label: random search}}\n",
        "fig1.methods.minucb_reference.label: minucb_reference's name 'random search'",
    ),
    "pair-at-two-budgets": (
        "fig1:\n  methods: {local_bo_short: {budget: 41}}\n",
        "and local_bo_short 41; a pair compares runs at one budget",
    ),
    "duplicate-rates-schedule": ("rates:\n  schedules: [d_t, d_t]\n", "schedules"),
    "duplicate-fig4-case": ("gradient_estimation:\n  fig4: [l1_n5, l1_n5]\n", "fig4"),
    "unknown-test-function": (
        "gradient_estimation:\n  cases: {sine: {function: sin, x: [0.0], n: 2}}\n",
        "gradient_estimation.cases.sine.function: 'sin' is not one of",
    ),
}


@pytest.mark.parametrize("name", sorted(BAD_CONFIGS))
def test_bad_config_is_refused_naming_the_key(name):
    text, key = BAD_CONFIGS[name]
    config = copy.deepcopy(CONFIG)
    update_config(config, TINY)
    update_config(config, yaml.safe_load(text))
    with pytest.raises(ConfigError) as refused:
        load_settings(config, SCHEMA)
    assert key in str(refused.value), str(refused.value)


def test_every_problem_is_reported_at_once():
    config = copy.deepcopy(CONFIG)
    update_config(config, TINY)
    update_config(config, {"fig1": {"box": {"lower": 1.0, "upper": 5.0}}, "fig3": {"d": 6000}})
    with pytest.raises(ConfigError) as refused:
        load_settings(config, SCHEMA)
    assert "fig1.box" in str(refused.value) and "fig3.d" in str(refused.value)


def test_schema_and_semantic_problems_are_reported_together_one_line_each():
    """A typo, a value the schema refuses, a plug-in method's unknown knob and a semantic
    problem in one config: all four named, each on its own line, none of the checks skipped."""
    config = copy.deepcopy(CONFIG)
    update_config(config, TINY)
    bad = {
        "fig1": {"num_pahts": 5, "methods": {"turbo": {"candidate": 3}}},
        "fig2": {"panel_a": {"num": 0}},
        "fig3": {"d": 6000},
    }
    update_config(config, bad)
    with pytest.raises(ConfigError) as refused:
        load_settings(config, SCHEMA)
    lines = str(refused.value).splitlines()
    assert lines[0] == "invalid config:"
    keys = sorted(line.strip().partition(":")[0] for line in lines[1:])
    assert keys == [
        "fig1.budget",  # one local-BO gradient in fig3.d = 6000 dimensions: the semantic check
        "fig1.methods.turbo.candidate",
        "fig1.num_pahts",
        "fig2.panel_a.num",
    ]


def test_schema_errors_name_each_key_and_what_was_expected():
    config = copy.deepcopy(CONFIG)
    update_config(config, {"fig1": {"dims": [1, "a"], "kernel": "rbf2"}, "seed": -1})
    assert schema_errors(config, SCHEMA) == [
        "fig1.dims[1]: 'a' is not of type 'integer'",
        "fig1.kernel: 'rbf2' is not one of ['rbf', 'matern52']",
        "seed: -1 is less than the minimum of 0",
    ]
    del config["rates"]
    assert "rates: missing" in schema_errors(config, SCHEMA)


def test_resources_are_the_padded_cost_and_grow_with_the_attempt():
    config = copy.deepcopy(CONFIG)
    cost_of = load_settings(config, SCHEMA).job_costs()["error_function"]
    wildcards = SimpleNamespace(points="d10_b10000_sigma0.1")
    cost, resources = cost_of(wildcards), scheduled(cost_of)
    assert cost.mem_mb > 1000 and cost.cpu_seconds > 60  # a b = 1e4 design
    assert resources["mem_mb"](wildcards, 1) == math.ceil(MEMORY_FACTOR * cost.mem_mb)
    assert resources["runtime"](wildcards, 2, 1) == RUNTIME_FLOOR_MINUTES + math.ceil(
        RUNTIME_FACTOR * cost.cpu_seconds / 2 / 60
    )
    for key, args in (("mem_mb", (wildcards,)), ("runtime", (wildcards, 2))):
        assert resources[key](*args, 3) == 3 * resources[key](*args, 1), key


def test_fig3_costs_more_when_its_runs_grow():
    """A Fig. 3 chunk's cost follows fig3.d, Fig. 1's local-BO budget and Fig. 3's features
    (Fig. 1's when it has none of its own), linearly (its runs' steps grow with the budget, a
    path evaluation is O(M d))."""

    def work(**changes):
        config = copy.deepcopy(CONFIG)
        update_config(config, changes)
        return (
            load_settings(config, SCHEMA).fig3_jobs().chunk_cost(None).cpu_seconds
            - START_UP.cpu_seconds
        )

    assert work(fig1={"budget": 50000}) == pytest.approx(10 * work())
    assert work(fig3={"num_features": 32768}) == pytest.approx(2 * work())
    assert work(fig3={"num_features": None}) == pytest.approx(work() / 4)  # Fig. 1's 4096
    assert work(fig3={"num_features": None}, fig1={"num_features": 8192}) == pytest.approx(
        work() / 2
    )
    assert work(fig3={"d": 200}) == pytest.approx(2 * work())


def test_labels_give_a_methods_budget_where_it_is_not_fig1s():
    quick = yaml.safe_load((REPO / "config" / "quick.yaml").read_text())
    config = copy.deepcopy(CONFIG)
    paper = load_settings(copy.deepcopy(config), SCHEMA).fig1_jobs().labels()
    assert paper["gp_ucb"] == "GP-UCB"  # at fig1.budget
    short = CONFIG["fig1"]["methods"]["nestbo_short"]["budget"]
    nestbo = CONFIG["fig1"]["methods"]["nestbo"]["label"]  # the variant takes its label
    assert paper["nestbo_short"] == f"{nestbo} ({short} evaluations)"
    update_config(config, quick)
    labels = load_settings(config, SCHEMA).fig1_jobs().labels()
    budget = quick["fig1"]["methods"]["gp_ucb"]["budget"]
    assert labels["gp_ucb"] == f"GP-UCB ({budget} evaluations)"
    assert labels["local_bo"] == "local BO"


def test_the_mpd_reference_part_runs_its_pair_and_cheap_checks_only():
    """config/mpd_reference.yaml is a gallery part of minutes: every method of config.yaml it
    does not null costs little (the checks), so a method added to config.yaml that it forgets to
    null fails here by its cost model."""
    config = copy.deepcopy(CONFIG)
    update_config(config, yaml.safe_load((REPO / "config" / "mpd_reference.yaml").read_text()))
    jobs = load_settings(config, SCHEMA).fig1_jobs()
    cpu = {}
    for name in jobs.method_names:
        m = jobs.settings.method(name)
        cpu[name] = sum(
            jobs.run_cost(SimpleNamespace(method=name, d=str(d), chunk=str(c))).cpu_seconds
            for d in jobs.settings.dims_of(name)
            for _ in m.jobs.noise_levels
            for c in jobs.jobs_of(name)
        )
    assert {"mpd_reference", "mpd_short"} <= set(cpu)
    assert sum(cpu.values()) < 3600, cpu
