"""The README's library example runs as written and says what it claims."""

import contextlib
import io
import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
README = (REPO / "README.md").read_text()


def test_ci_runs_exactly_the_readme_test_command():
    """The README's first lines: set-up commands of a fresh machine, the second runs the tests;
    .ci/run installs, then runs that command and nothing after it."""
    setup = re.findall(r"^    (python3 -m pip install .*)$", README, re.M)[:2]
    assert len(setup) == 2 and "pytest" in setup[1], setup
    test_command = setup[1].split(" && ", 1)[1]
    assert (REPO / ".ci" / "run").read_text().rstrip().splitlines()[-1] == test_command


@pytest.mark.slow
def test_the_library_example_runs_and_both_methods_improve_on_the_start():
    section = README.split("## The library on its own", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "README.md", "exec"), {})
    lines = out.getvalue().splitlines()
    start = float(lines[0].split("=")[1])
    values = {line.split(":")[0]: float(line.split("f = ")[1].split()[0]) for line in lines[1:]}
    assert set(values) == {"local BO", "GP-UCB"}
    # both return the best point they evaluated, x0 included; both must find better than x0
    assert all(v < start - 0.1 for v in values.values()), lines
