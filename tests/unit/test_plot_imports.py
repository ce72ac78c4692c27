"""Plot jobs load matplotlib and numpy only: a plot script that imports scipy (the optimizers,
the GP code) pays a second of start-up on every redraw."""

import ast
import subprocess
import sys
from pathlib import Path

SCRIPTS = Path(__file__).parents[2] / "scripts"
HEAVY = ("scipy", "seaborn", "localbo.methods")


def localbo_imports(script: Path) -> set[str]:
    """The localbo modules a script imports, from its syntax tree."""
    tree = ast.parse(script.read_text())
    return {
        node.module
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("localbo")
    }


def test_every_plot_script_imports_no_heavy_module():
    plots = sorted(SCRIPTS.glob("*_plot.py"))
    assert len(plots) >= 5, plots
    for script in plots:
        modules = sorted(localbo_imports(script))
        probe = (
            "import sys\n"
            f"for m in {modules!r}: __import__(m)\n"
            f"print(sorted(m for m in sys.modules"
            f" if any(m == h or m.startswith(h + '.') for h in {HEAVY!r})))"
        )
        loaded = subprocess.run(
            [sys.executable, "-c", probe], capture_output=True, text=True, check=True
        ).stdout.strip()
        assert loaded == "[]", f"{script.name} loads {loaded}"
