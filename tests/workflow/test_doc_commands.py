"""The docs' Snakemake commands as dry runs, the forecast they print, and the test lane they give.

Each runs as written in a scratch checkout (the repository's entries linked into a directory
of its own, so that Snakemake's state and a run directory land there), with the extension
guide's files beside them. The commands and their placeholders' examples are
tests/unit/test_doc_commands.py's.
"""

import os
import re
import subprocess
import sys

import pytest

from tests.unit.test_doc_commands import RUN_ELSEWHERE, argv, commands, kind
from tests.workflow.helpers import REPO

pytestmark = pytest.mark.workflow

# entries of the repository a run writes into: the scratch checkout has its own
WRITTEN = {".git", ".snakemake", "runs", "results", "logs", "benchmarks", "report.html"}
SNAKEMAKE = [c for c in commands() if kind(c[1]) == "snakemake" and c[1] not in RUN_ELSEWHERE]


@pytest.fixture(scope="module")
def checkout(tmp_path_factory):
    """A directory that reads as the repository: its entries linked, the guide's files added."""
    scratch = tmp_path_factory.mktemp("checkout")
    for entry in REPO.iterdir():
        if entry.name not in WRITTEN and not entry.name.startswith(".pytest"):
            (scratch / entry.name).symlink_to(entry)
    guide = (REPO / "docs" / "extending.md").read_text()
    module = re.search(r"```python\n(.*?)```", guide, re.S).group(1)
    outside = re.findall(r"```yaml\n(.*?)```", guide, re.S)[1]
    (scratch / "my_methods").mkdir()
    (scratch / "my_methods" / "hill_climb.py").write_text(module)
    (scratch / "my_methods.yaml").write_text(outside)
    return scratch


def run(checkout, words, timeout=300):
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    words = [sys.executable, *words[1:]] if words[0].startswith("python") else words
    return subprocess.run(
        words, cwd=checkout, env=env, capture_output=True, text=True, timeout=timeout
    )


@pytest.mark.parametrize(("doc", "command"), SNAKEMAKE, ids=[c for _, c in SNAKEMAKE])
def test_a_snakemake_command_of_the_docs_plans_its_run(checkout, doc, command):
    """A dry run: the config merges and passes its checks, the targets exist, the DAG builds."""
    words = argv(command)
    words += [] if "--unlock" in words else ["--dry-run", "--quiet"]
    proc = run(checkout, words)
    assert proc.returncode == 0, f"{doc}: {command}\n{proc.stderr[-3000:]}"


def forecast_blocks(doc: str) -> list[str]:
    """The doc's fenced blocks of a forecast (its table's header line first)."""
    text = (REPO / doc).read_text()
    return [b for b in re.findall(r"```\n(.*?)```", text, re.S) if b.split()[:1] == ["jobs"]]


def test_the_forecast_the_docs_print_is_the_forecast(checkout):
    """README.md's and docs/costs.md's forecast is what `plan` prints at paper scale."""
    (doc, command), *_ = [c for c in commands() if kind(c[1]) == "forecast"]
    proc = run(checkout, argv(command))
    assert proc.returncode == 0, proc.stderr[-3000:]
    for doc in ("README.md", "docs/costs.md"):
        (block,) = forecast_blocks(doc)
        assert block == proc.stdout, f"{doc}'s forecast is stale: run `{command}`"


def test_the_test_lane_of_the_readme_selects_tests(checkout):
    (lane,) = [c for d, c in commands() if kind(c) == "pytest" and "-m" in argv(c)[3:]]
    words = [w for w in argv(lane) if w not in ("-n", "2")] + ["--collect-only", "-q"]
    proc = subprocess.run(
        [sys.executable, *words[1:]], cwd=REPO, capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, proc.stdout[-3000:]
    assert int(re.search(r"(\d+)(?:/\d+)? tests? (?:collected|selected)", proc.stdout)[1]) > 100
