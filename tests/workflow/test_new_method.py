"""A built-in method is two files: its module in `localbo.methods` and its section in
config/config.yaml. Copied under a new name into a copy of the repository, the tests that derive
their lists from the registry and the config pass, and the tiny Fig. 1 runs and draws it."""

import csv
import os
import shutil
import subprocess
import sys

import pytest

from tests.workflow.helpers import REPO, RUN_ENV, TINY

pytestmark = pytest.mark.workflow

COPIED, NEW = "random_search", "random_search_twin"


def with_new_method(copy):
    """The repository in `copy`, with the two files of a method named NEW added."""
    for part in ("Snakefile", "pyproject.toml", "workflow", "config", "scripts", "envs", "src"):
        source = REPO / part
        if source.is_dir():
            shutil.copytree(source, copy / part, ignore=shutil.ignore_patterns("*.egg-info"))
        else:
            shutil.copy(source, copy / part)
    shutil.copytree(REPO / "tests", copy / "tests", ignore=shutil.ignore_patterns("__pycache__"))
    methods = copy / "src" / "localbo" / "methods"
    module = (methods / f"{COPIED}.py").read_text()
    assert f'name = "{COPIED}"' in module
    (methods / f"{NEW}.py").write_text(module.replace(f'name = "{COPIED}"', f'name = "{NEW}"'))
    config = (copy / "config" / "config.yaml").read_text()
    section = f"    {COPIED}:\n"
    start = config.index(section)
    end = config.index("\n    # ", start)  # the next method's comment
    copied = config[start:end].replace(section, f"    {NEW}:\n", 1)
    (copy / "config" / "config.yaml").write_text(config[:end] + "\n" + copied + config[end:])


def test_a_method_added_as_a_module_and_a_config_section_passes_and_is_drawn(tmp_path):
    copy = tmp_path / "repo"
    copy.mkdir()
    with_new_method(copy)
    env = {**os.environ, "PYTHONPATH": str(copy / "src"), **RUN_ENV}

    def run(*command, cwd=copy):
        proc = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True)
        assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
        return proc

    listed = run(sys.executable, "-c", "from localbo.methods import builtin; print(*builtin())")
    assert NEW in listed.stdout.split()
    tests = ["tests/unit/test_optimizers.py", "tests/unit/test_pipeline_settings.py"]
    run(sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *tests)
    work = tmp_path / "run"
    run(
        sys.executable,
        "-m",
        "snakemake",
        "-s",
        str(copy / "Snakefile"),
        "--directory",
        str(work),
        "--cores",
        "2",
        "figures/fig1_local_solutions.png",
        "--configfile",
        str(TINY),
        cwd=tmp_path,
    )
    with open(work / "results" / "fig1" / "local_solutions.csv") as handle:
        rows = [row for row in csv.DictReader(handle) if row["method"] == NEW]
    assert rows and all(row["evaluations"] for row in rows)
    assert (work / "figures" / "fig1_local_solutions.png").stat().st_size > 10_000
