"""Every command the docs show runs as written.

The commands are read off the docs: a code line indented by four spaces, or inline code, whose
program is python, python3 or snakemake (after `VAR=value` and `nice -n N`). Each is run the
cheapest way that still fails where the command as written would: a bench script's or a
module's arguments through its own parser (here; the run itself is hours), Snakemake as a dry
run, the forecast for real (tests/workflow/test_doc_commands.py), an install by its extras. A
placeholder takes the example value the doc gives for it (`EXAMPLES`).
"""

from __future__ import annotations

import argparse
import re
import runpy
import shlex
import sys
import tomllib
import warnings
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
DOCS = (
    "README.md",
    "config/README.md",
    "bench/README.md",
    *(f"docs/{p.name}" for p in sorted((REPO / "docs").glob("*.md"))),
)
PROGRAMS = ("python", "python3", "snakemake")
# each placeholder with the example value its doc gives ("for example `VALUE`")
EXAMPLES = {
    "RUN_DIR": "runs/quick",
    "CHECKOUT": "../local-bo-mpd",
    "REFERENCE_PYTHON": "../mpd-py38/bin/python",
    "MINUCB_CHECKOUT": "../minucb",
    "MINUCB_PYTHON": "../minucb-py38/bin/python",
    "NESTBO_CHECKOUT": "../nestbo",
    "NESTBO_PYTHON": "../nestbo-py311/bin/python",
    "OVERRIDE.yaml": "bench/forecast_check.yaml",
    "TARGET": "figures/fig2_error_function.pdf",
}
# commands another test runs as written, with the test that does
RUN_ELSEWHERE = {
    "snakemake --report report.html --configfile config/quick.yaml": (
        "tests/workflow/test_report.py builds the report the same way, from the tiny run"
    ),
}


def _code_lines(text: str) -> list[str]:
    """Lines of the doc's indented code blocks (outside fenced blocks), continuations joined."""
    lines, fenced, joined = [], False, ""
    for line in text.splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and line.startswith("    ") and line.strip():
            joined += line.strip().removesuffix("\\").strip() + " "
            if not line.rstrip().endswith("\\"):
                lines.append(joined.strip())
                joined = ""
    return lines


def _command(line: str) -> str | None:
    """The command of a line, its comment and prefixes (`VAR=value`, `nice -n N`) dropped, or
    None where its program is not one of `PROGRAMS`."""
    line = re.split(r"\s{2,}#", line)[0].strip()
    words = line.split()
    while words and (re.fullmatch(r"[A-Z_]+=\S*", words[0]) or words[0] == "nice"):
        words = words[3:] if words[0] == "nice" else words[1:]
    return " ".join(words) if words and words[0] in PROGRAMS else None


def commands() -> list[tuple[str, str]]:
    """(doc, command) of every command the docs show, in order, each once per doc."""
    found = []
    for doc in DOCS:
        text = (REPO / doc).read_text()
        inline = re.findall(r"`((?:python3?|snakemake) [^`]+)`", text)
        for line in _code_lines(text) + inline:
            for part in line.split(" && "):
                command = _command(part)
                if command and (doc, command) not in found:
                    found.append((doc, command))
    return found


def argv(command: str) -> list[str]:
    """The command's words, optional `[...]` parts taken in (without their `...`) and each
    placeholder replaced by its example."""
    command = re.sub(r"(?<!\S)\[([^\]]*)\]", lambda m: m.group(1).replace("...", ""), command)
    words = shlex.split(command)
    for placeholder, example in EXAMPLES.items():
        words = [w.replace(placeholder, example) for w in words]
    return words


def kind(command: str) -> str:
    """How the tests run the command: install, pytest, snakemake, forecast or parse."""
    words = argv(command)
    if words[1:4] == ["-m", "pip", "install"]:
        return "install"
    if words[1:3] == ["-m", "pytest"]:
        return "pytest"
    if words[0] == "snakemake":
        return "snakemake"
    if words[1:3] == ["-m", "localbo.pipeline.plan"] and len(words) == 3:
        return "forecast"
    return "parse"


class Parsed(Exception):
    """Its arguments parsed: the command would now do its work."""


def _parse_only(monkeypatch: pytest.MonkeyPatch, words: list[str]) -> None:
    """Run a script or module as the command does, up to its parser's return."""
    real = argparse.ArgumentParser.parse_args

    def parse(self: argparse.ArgumentParser, args=None, namespace=None):
        real(self, args, namespace)
        raise Parsed

    monkeypatch.setattr(argparse.ArgumentParser, "parse_args", parse)
    monkeypatch.chdir(REPO)
    if words[1] == "-m":
        monkeypatch.setattr(sys, "argv", [words[2], *words[3:]])
        target, run = words[2], runpy.run_module
    else:
        monkeypatch.setattr(sys, "argv", words[1:])
        monkeypatch.syspath_prepend(str((REPO / words[1]).parent))
        target, run = str(REPO / words[1]), runpy.run_path
    with pytest.raises(Parsed), warnings.catch_warnings():
        # runpy's warning that an imported module runs again as __main__: meant for scripts
        warnings.simplefilter("ignore", RuntimeWarning)
        run(target, run_name="__main__")


PARSED = [c for c in commands() if kind(c[1]) == "parse"]


@pytest.mark.parametrize(("doc", "command"), PARSED, ids=[c for _, c in PARSED])
def test_a_scripts_arguments_are_its_parsers(doc, command, monkeypatch):
    words = argv(command)
    if words[1].endswith(".py"):
        assert (REPO / words[1]).is_file(), f"{doc}: no {words[1]}"
        if re.search(r"^(import|from) torch", (REPO / words[1]).read_text(), re.M):
            pytest.importorskip("torch", reason=f"{words[1]} needs the bench extra")
    _parse_only(monkeypatch, words)


INSTALLS = [c for c in commands() if kind(c[1]) == "install"]


@pytest.mark.parametrize(("doc", "command"), INSTALLS, ids=[c for _, c in INSTALLS])
def test_an_install_names_extras_the_project_has(doc, command):
    """.ci/run runs the README's test install; the others differ only in their extras."""
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    words = argv(command)
    target = next(w for w in words if w.startswith("."))
    extras = re.fullmatch(r"\.\[([\w,]+)\]", target).group(1).split(",")
    assert set(extras) <= set(project["optional-dependencies"]), f"{doc}: {command}"
    if "-c" in words:
        assert (REPO / words[words.index("-c") + 1]).is_file()


def test_the_docs_show_commands_of_every_kind():
    """The reader finds the commands: a change of the docs' layout that hides them fails here."""
    kinds = {kind(c) for _, c in commands()}
    assert kinds == {"install", "pytest", "snakemake", "forecast", "parse"}
    assert len(commands()) >= 40


def test_every_placeholder_has_the_example_its_doc_gives():
    for doc, command in commands():
        text = " ".join((REPO / doc).read_text().split())
        for placeholder, example in EXAMPLES.items():
            if placeholder in command:
                assert f"for example `{example}`" in text, f"{doc}: {placeholder}"


def test_a_command_run_elsewhere_is_there():
    for command, where in RUN_ELSEWHERE.items():
        assert any(c == command for _, c in commands()), command
        test = (REPO / where.split()[0]).read_text()
        assert all(word in test for word in argv(command)[1:3]), where
