"""Static guarantees: safe array loading, no string evaluation, one environment in step with
pyproject.toml."""

import ast
import re
import tomllib

import yaml

from localbo.pipeline.settings import load_settings, merged_config
from tests.workflow.helpers import REPO

# a rule's name and body in a rules file
RULE = re.compile(r"^(?:rule|use rule \w+ as) (\w+)(?: with)?:\n((?:    .*\n|\n)+)", re.M)
CODE = sorted((REPO / "src").rglob("*.py")) + sorted((REPO / "scripts").glob("*.py"))


def calls(name: str):
    """(file, call node) for every call of a function or method called `name` in our code."""
    for path in CODE:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call):
                func = node.func
                called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
                if called == name:
                    yield path, node


def test_every_npz_is_read_without_pickle():
    loads = [
        (path, node)
        for path, node in calls("load")
        if isinstance(node.func, ast.Attribute) and getattr(node.func.value, "id", "") == "np"
    ]
    assert loads, "expected the npz reader in localbo.io"
    for path, node in loads:
        flags = {kw.arg: kw.value for kw in node.keywords}
        assert "allow_pickle" in flags, f"{path.name}:{node.lineno} np.load without allow_pickle"
        assert flags["allow_pickle"].value is False


def builtin_calls(name: str):
    """Calls of the builtin `name` (bare or as builtins.name), not of a method with that name
    such as re.compile."""
    for path, node in calls(name):
        func = node.func
        if isinstance(func, ast.Name) or getattr(func.value, "id", "") == "builtins":
            yield path, node


def test_nothing_evaluates_strings():
    for name in ("eval", "exec", "compile", "__import__"):
        found = [f"{p.name}:{n.lineno}" for p, n in builtin_calls(name)]
        assert not found, f"{name} called at {found}"
    for path in CODE:
        assert "shell=True" not in path.read_text(), path.name


def test_rules_run_scripts_not_shell_commands():
    """No rule passes config strings to a shell: every rule runs a Python script."""
    for smk in (REPO / "workflow" / "rules").glob("*.smk"):
        text = smk.read_text()
        assert not re.search(r"^\s+(shell|run):", text, re.M), smk.name


def test_every_rule_that_runs_a_script_has_a_log_and_a_benchmark_on_one_path():
    """logs/X.log beside benchmarks/X.tsv: a job's CPU is the larger of the two
    (localbo.pipeline.job_cpu), and each is found from the other."""
    scripts = found = 0
    for smk in (REPO / "workflow" / "rules").glob("*.smk"):
        for name, body in RULE.findall(smk.read_text()):
            log = re.search(r'^    log:\n\s+(?:\w+=)?"logs/(.+)\.log"', body, re.M)
            benchmark = re.search(r'^    benchmark:\n\s+"benchmarks/(.+)\.tsv"', body, re.M)
            scripts += "script:" in body
            if "script:" in body or log or benchmark:
                found += 1
                assert log and benchmark, f"{smk.name}: rule {name}"
                assert log.group(1) == benchmark.group(1), f"{smk.name}: rule {name}"
    assert scripts >= 15 and found >= 20


def test_every_rule_asks_for_its_own_padded_cost():
    """A compute rule's resources are its own cost model's, padded (`scheduled`), so the
    forecast and the scheduler read one model, and a job killed for memory or time is retried
    with more; every cost model is some rule's."""
    asked = {}
    for smk in (REPO / "workflow" / "rules").glob("*.smk"):
        for name, body in RULE.findall(smk.read_text()):
            resources = re.search(r"^    resources:\n((?:        .*\n)+)", body, re.M)
            if resources:
                asked[name] = resources.group(1).strip()
    assert asked == {name: f'**scheduled(COSTS["{name}"]),' for name in asked}
    assert set(asked) == set(
        load_settings(merged_config([REPO / "config" / "config.yaml"])).job_costs()
    )


def normalize(requirement: str) -> str:
    name = re.split(r"[<>=!~\[ ]", requirement.strip(), maxsplit=1)[0].lower()
    return {"matplotlib-base": "matplotlib"}.get(name, name)


def test_conda_env_matches_pyproject_dependencies():
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    wanted = {normalize(r) for r in project["dependencies"]}
    env = yaml.safe_load((REPO / "envs" / "localbo.yaml").read_text())
    conda = {normalize(d) for d in env["dependencies"] if isinstance(d, str)} - {"python", "pip"}
    assert conda == wanted
    assert any(isinstance(d, dict) and "-e .." in d.get("pip", []) for d in env["dependencies"])


# what the story of the work looks like: an issue or a gallery part by its number, a sitting
HISTORY = re.compile(r"\bissues? #?\d+|\bparts? \d+\b|\bsittings?\b", re.I)


def test_no_history_in_code_config_or_docs():
    """The code, config and docs say what is; which issue asked for a change, which gallery
    part or sitting measured what, is for CHANGELOG.md and git's log."""
    folders = ("src", "config", "workflow", "scripts", "docs")
    files = [p for f in folders for p in sorted((REPO / f).rglob("*")) if p.is_file()]
    files.append(REPO / "README.md")
    found = [
        f"{path.relative_to(REPO)}:{number}: {line.strip()}"
        for path in files
        if path.suffix in (".py", ".smk", ".yaml", ".md", ".rst", ".csv")
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if HISTORY.search(line)
    ]
    assert not found, "\n".join(found)
    assert HISTORY.search("as issue 10's test found") and HISTORY.search("gallery parts 24")


def test_the_citation_names_the_version_and_licence_of_pyproject():
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    citation = yaml.safe_load((REPO / "CITATION.cff").read_text())
    assert citation["version"] == project["version"]
    assert citation["license"] == project["license"]["text"]
    assert "MIT License" in (REPO / "LICENSE").read_text()
