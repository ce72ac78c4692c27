"""The READMEs name files, scripts and library names that exist.

Review found both READMEs naming a renamed function, a bench script they never described and a
results file never committed; these checks keep such names honest as the code moves.
"""

import pkgutil
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "bench"
# each doc and where its bare names live
DOCS = {
    "README.md": ROOT,
    "bench/README.md": BENCH,
    "config/README.md": ROOT / "config",
    "CHANGELOG.md": ROOT,
    **{f"docs/{path.name}": ROOT for path in sorted((ROOT / "docs").glob("*.md"))},
}
TOP_LEVEL = (
    "src/",
    "tests/",
    "bench/",
    "config/",
    "workflow/",
    "figures/",
    ".ci/",
    "scripts/",
    "envs/",
    "docs/",
)
# bench results of issue 2 that bench/README.md says were never committed; the commands it gives
# write them again
NOT_COMMITTED = {
    "results/error_function.json",
    "results/fig2_jobs.json",
    "results/profile_gradient_trace.txt",
}


def quoted(doc: str) -> set[str]:
    """The backticked tokens without spaces of a doc."""
    return set(re.findall(r"`([^`\s]+)`", (ROOT / doc).read_text()))


def is_placeholder(token: str) -> bool:
    return any(mark in token for mark in ("*", "<", "{", "NAME", "...")) or token.endswith("/")


def resolves(dotted: str) -> bool:
    """Whether `localbo.a.b.c` names a module or an attribute of one."""
    try:
        pkgutil.resolve_name(dotted)
    except (ImportError, AttributeError, ValueError):
        return False
    return True


@pytest.mark.parametrize("doc", DOCS)
def test_named_repository_files_exist(doc):
    base = DOCS[doc]
    missing = []
    for token in quoted(doc):
        if is_placeholder(token) or token in NOT_COMMITTED:
            continue
        if re.fullmatch(r"figures/[^/]+\.(pdf|png)", token):
            continue  # a pipeline output (gitignored), not a committed file
        repository_path = token.startswith(TOP_LEVEL)
        bench_name = base == BENCH and re.fullmatch(r"(results/)?[\w-]+\.(py|jsonl?|txt)", token)
        exists = (ROOT / token).exists() or (base / token).exists()
        if (repository_path or bench_name) and not exists:
            missing.append(token)
    assert not missing, f"{doc} names files that do not exist: {sorted(missing)}"


# The changelog names modules as each version had them.
@pytest.mark.parametrize("doc", [doc for doc in DOCS if doc != "CHANGELOG.md"])
def test_named_library_names_resolve(doc):
    names = set(re.findall(r"(?<![/\w])localbo(?:\.\w+)+", (ROOT / doc).read_text()))
    assert names or doc != "README.md"
    assert not [name for name in sorted(names) if not resolves(name)], doc


def test_every_bench_script_is_described():
    table = (BENCH / "README.md").read_text()
    scripts = sorted(path.name for path in BENCH.glob("*.py"))
    assert scripts
    assert not [name for name in scripts if f"| `{name}` |" not in table]


@pytest.mark.parametrize("doc", DOCS)
def test_named_links_resolve(doc):
    """Every relative Markdown link of a doc points at a file that exists."""
    base = (ROOT / doc).parent
    links = re.findall(r"\]\(([^)#\s]+)\)", (ROOT / doc).read_text())
    assert not [link for link in links if "://" not in link and not (base / link).exists()]


def test_no_markdown_line_is_over_200_characters():
    """Tables and prose a reader can read without scrolling sideways (`git ls-files`: the
    committed Markdown, the gallery's generated files have none)."""
    markdown = subprocess.run(
        ["git", "ls-files", "*.md"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    long = [
        f"{name}:{number}"
        for name in markdown
        for number, line in enumerate((ROOT / name).read_text().splitlines(), 1)
        if len(line) > 200
    ]
    assert markdown and not long, long


def test_the_readme_is_a_manual_of_about_200_lines():
    assert len((ROOT / "README.md").read_text().splitlines()) <= 220


def test_the_checks_catch_a_missing_name():
    assert resolves("localbo.methods.gp_ucb.GPUCBSettings")
    assert not resolves("localbo.methods.gp_ucb.no_such_name")
    assert not resolves("localbo.no_such_module")
    assert is_placeholder("figures/*.pdf") and not is_placeholder("bench/full_run.py")
