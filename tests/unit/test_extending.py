"""docs/extending.md's method, as the guide gives it: its module through the contract every
registered method is held to, in the package and outside it with `module:`, and its config
sections loaded as the guide writes them."""

import os
import re
import subprocess
import sys
import types
from pathlib import Path

import numpy as np
import pytest
import yaml
from snakemake.utils import update_config

from localbo.kernels import RBF
from localbo.methods import builtin
from localbo.objective import Box
from localbo.optimizers import optimizer_class, run_on_path
from localbo.pipeline.settings import load_settings
from localbo.seeding import rng_for
from tests.unit import test_optimizers as contract

REPO = Path(__file__).resolve().parents[2]
GUIDE = (REPO / "docs" / "extending.md").read_text()
MODULE, *_ = re.findall(r"```python\n(.*?)```", GUIDE, re.S)
IN_PACKAGE, OUTSIDE = re.findall(r"```yaml\n(.*?)```", GUIDE, re.S)[:2]
NAME = re.search(r'name = "(\w+)"', MODULE).group(1)
CONFIG = yaml.safe_load((REPO / "config" / "config.yaml").read_text())
SCHEMA = REPO / "config" / "schemas" / "config.schema.yaml"


@pytest.fixture(scope="module")
def method():
    """The guide's module as `localbo.methods.<name>` would be (without a file in the package:
    `builtin()` lists the package's files only)."""
    module = types.ModuleType(f"localbo.methods.{NAME}")
    sys.modules[module.__name__] = module
    exec(compile(MODULE, "docs/extending.md", "exec"), module.__dict__)
    yield optimizer_class(NAME)
    del sys.modules[module.__name__]


def test_the_guides_method_meets_the_contract(method, request):
    path = request.getfixturevalue("path")
    for sigma in (0.0, 0.1):
        contract.test_every_method_respects_its_budget_and_is_reproducible(path, NAME, sigma)
    contract.test_at_budget_zero_every_method_returns_its_start_with_a_trace(path, NAME)
    contract.test_every_method_improves_a_quadratic_from_its_start(NAME)
    for knobs in method.invalid_settings:
        contract.test_a_knob_out_of_range_is_refused_by_the_settings(NAME, knobs)
    assert NAME not in builtin() and method().cost(50, 5000).seconds < 0.01 * 5000


path = contract.path  # the contract's path fixture


def test_its_in_package_section_loads_as_the_guide_writes_it(method):
    config = yaml.safe_load(yaml.safe_dump(CONFIG))
    update_config(config, yaml.safe_load(IN_PACKAGE))
    methods = load_settings(config, SCHEMA).fig1.methods.methods
    assert methods[NAME].optimizer == method() and methods[NAME].jobs.noise_levels == (0.0,)


def test_outside_the_package_it_runs_with_its_module_on_the_path(tmp_path):
    """The `module:` route, in a fresh Python with PYTHONPATH as the guide sets it."""
    package = tmp_path / "my_methods"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / f"{NAME}.py").write_text(MODULE)
    override = yaml.safe_load(OUTSIDE)
    module = override["fig1"]["methods"][NAME]["module"]
    probe = f"""
from pathlib import Path
import yaml
from snakemake.utils import update_config
from localbo.pipeline.settings import load_settings
config = yaml.safe_load(open({str(REPO / "config" / "config.yaml")!r}))
update_config(config, {override!r})
method = load_settings(config, Path({str(SCHEMA)!r})).fig1.methods.methods[{NAME!r}]
print(type(method.optimizer).__module__, method.optimizer.settings)
"""
    out = subprocess.run(
        [sys.executable, "-c", probe],
        env={**os.environ, "PYTHONPATH": str(tmp_path)},
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert out.split()[0] == module and "step=0.05" in out


def test_a_duck_typed_objective_is_minimized_by_every_method():
    """f(X) and f.gradient(X) are all an objective needs: no value_and_gradient."""

    class Bowl:
        def __call__(self, X):
            return 0.5 * np.sum(np.atleast_2d(X) ** 2, axis=1)

        def gradient(self, X):
            return np.atleast_2d(X)

    for name in sorted(builtin()):
        result = run_on_path(
            contract.optimizer(name), Bowl(), RBF(), 0.0, 30, Box(-1, 1, 2),
            rng_for(0, "noise"), rng_for(0, name), np.array([0.5, -0.5]),
        )  # fmt: skip
        assert result.evaluations <= 30 and result.value <= 0.25, name
