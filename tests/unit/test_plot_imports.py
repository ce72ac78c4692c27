"""Light imports where start-up repeats. Plot jobs load matplotlib and numpy only: a plot script
that imports scipy (the optimizers, the GP code) pays a second of start-up on every redraw. The
workflow's parse (every Snakemake start: the run, and under SLURM each allocation and each job
step) loads neither scipy.optimize nor scipy.stats, which the compute jobs import where used."""

import ast
import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).parents[2]
SCRIPTS = REPO / "scripts"
HEAVY = ("scipy", "seaborn", "localbo.methods")


def localbo_imports(script: Path) -> set[str]:
    """The localbo modules a script imports, from its syntax tree."""
    tree = ast.parse(script.read_text())
    return {
        node.module
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("localbo")
    }


def heavy_modules_loaded(
    modules: list[str], then: str = "", heavy: tuple[str, ...] = HEAVY
) -> list[str]:
    """The `heavy` modules a fresh Python has loaded after importing `modules` and running the
    code `then`."""
    probe = (
        "import sys\n"
        f"for m in {modules!r}: __import__(m)\n"
        f"{then}\n"
        f"print(sorted(m for m in sys.modules"
        f" if any(m == h or m.startswith(h + '.') for h in {heavy!r})))"
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


def test_the_workflow_parse_imports_no_optimizer_and_no_statistics():
    """What the Snakefile and its rules files import, and the settings and job lists they build
    from the paper config (every method's registry entry and cost model among them)."""
    rules = [REPO / "Snakefile", *sorted((REPO / "workflow" / "rules").glob("*.smk"))]
    modules = sorted(
        {m for f in rules for m in re.findall(r"^from (localbo[\w.]*) import", f.read_text(), re.M)}
    )
    assert "localbo.pipeline.settings" in modules, modules
    build = (
        "from pathlib import Path\n"
        "from localbo.pipeline.settings import load_settings, merged_config\n"
        f"s = load_settings(merged_config([Path({str(REPO / 'config' / 'config.yaml')!r})]))\n"
        "jobs = [getattr(s, n)() for n in dir(s) if n.endswith('_jobs')]\n"
        "s.job_costs()"
    )
    assert heavy_modules_loaded(modules, build, ("scipy.optimize", "scipy.stats")) == []
