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


def heavy_modules_loaded(modules: list[str]) -> list[str]:
    """The HEAVY modules a fresh Python has loaded after importing `modules`."""
    probe = (
        "import sys\n"
        f"for m in {modules!r}: __import__(m)\n"
        f"print(sorted(m for m in sys.modules"
        f" if any(m == h or m.startswith(h + '.') for h in {HEAVY!r})))"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    return ast.literal_eval(out.stdout)


def test_every_plot_script_imports_no_heavy_module():
    imports = {script.name: localbo_imports(script) for script in SCRIPTS.glob("*_plot.py")}
    assert len(imports) >= 5 and all(imports.values()), imports
    # one Python for all of them; a script at a time only to name the culprit
    if heavy_modules_loaded(sorted(set().union(*imports.values()))):
        culprits = {name: heavy_modules_loaded(sorted(m)) for name, m in imports.items()}
        raise AssertionError({name: loaded for name, loaded in culprits.items() if loaded})


def test_the_probe_sees_a_heavy_import():
    assert "scipy.optimize" in heavy_modules_loaded(["localbo.optimizers", "scipy.optimize"])
