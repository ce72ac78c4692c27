"""The whole pipeline on the tiny config: every figure and table appears; lint; paths."""

import csv
import re
import shutil
import subprocess
import sys

import pytest

from tests.workflow.helpers import REPO, snakemake, snakemake_command

pytestmark = pytest.mark.workflow


def test_every_figure_and_table_is_written(tiny_run):
    figures = sorted(p.name for p in (tiny_run / "figures").iterdir())
    assert "fig2_error_function.pdf" in figures and "fig2_error_function.png" in figures
    for name in figures:
        assert (tiny_run / "figures" / name).stat().st_size > 1000, name
    with open(tiny_run / "results/fig2/error_function.csv") as handle:
        rows = list(csv.DictReader(handle))
    # tiny.yaml: 2 noise levels x (2 batch sizes in panel a + 2 dimensions in panel b)
    assert len(rows) == 8
    for row in rows:
        assert float(row["estimate"]) <= float(row["central_design"]) + 1e-12
        assert float(row["estimate"]) > 0
    # never above the differencing designs holds by construction; the L-BFGS designs must
    # also beat them somewhere
    best_design = [min(float(r["central_design"]), float(r["forward_design"])) for r in rows]
    assert any(float(r["estimate"]) < 0.99 * v for r, v in zip(rows, best_design, strict=True))


def test_no_finished_runs_are_left_once_the_jobs_succeed(tiny_run):
    runs = tiny_run / "results" / "fig1" / "runs"
    assert list(runs.rglob("*.json"))  # the Fig. 1 jobs ran
    assert not list(runs.rglob("*.finished")), "kept runs of finished jobs were not removed"


def test_rerun_has_nothing_to_do(tiny_run):
    proc = snakemake(tiny_run, "--cores", "1", "--dry-run")
    assert "Nothing to be done" in proc.stdout + proc.stderr


def test_snakemake_lint_is_clean(tmp_path):
    proc = snakemake(tmp_path, "--lint", check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "lints for" not in (proc.stdout + proc.stderr).lower()


PATH_PATTERNS = [
    re.compile(r'^\s*script:\s*\n\s*"([^"]+)"', re.M),
    re.compile(r'^\s*conda:\s*\n\s*"([^"]+)"', re.M),
    re.compile(r'caption="([^"]+)"'),
    re.compile(r'validate\(config, "([^"]+)"\)'),
    re.compile(r'^include:\s*"([^"]+)"', re.M),
]


def test_every_path_a_rule_references_exists():
    """script:, conda:, captions and schemas resolve relative to the file that names them."""
    files = [REPO / "Snakefile", *sorted((REPO / "workflow" / "rules").glob("*.smk"))]
    found = 0
    for smk in files:
        text = smk.read_text()
        for pattern in PATH_PATTERNS:
            for rel in pattern.findall(text):
                found += 1
                assert (smk.parent / rel).exists(), f"{smk.name} references missing {rel}"
    assert found >= 5


def test_snakefmt_and_ruff_are_clean():
    smk = [str(REPO / "Snakefile"), *map(str, (REPO / "workflow" / "rules").glob("*.smk"))]
    fmt = subprocess.run(
        [sys.executable, "-m", "snakefmt", "--check", *smk], capture_output=True, text=True
    )
    assert fmt.returncode == 0, fmt.stderr
    lint = subprocess.run(
        [sys.executable, "-m", "ruff", "check", str(REPO)], capture_output=True, text=True
    )
    assert lint.returncode == 0, lint.stdout


def test_the_order_the_rules_files_are_included_in_does_not_matter(tmp_path):
    """A rules file that reuses another's rules includes that file itself: with the Snakefile's
    loop reversed, the DAG has the same jobs."""
    copy = tmp_path / "repo"
    copy.mkdir()
    for part in ("Snakefile", "workflow", "config", "scripts", "envs"):
        source = REPO / part
        if source.is_dir():
            shutil.copytree(source, copy / part)
        else:
            shutil.copy(source, copy / part)
    snakefile = (copy / "Snakefile").read_text()
    forward = 'sorted(Path(workflow.basedir, "workflow/rules").glob("*.smk"))'
    assert forward in snakefile
    (copy / "Snakefile").write_text(snakefile.replace(forward, f"reversed({forward})"))

    def jobs(snakefile_dir):
        command = snakemake_command(tmp_path / snakefile_dir.name, "-n", "--quiet", "rules")
        command[command.index("-s") + 1] = str(snakefile_dir / "Snakefile")
        proc = subprocess.run(command, capture_output=True, text=True, timeout=300, check=True)
        return proc.stdout.split("Job stats:", 1)[1]

    assert jobs(copy) == jobs(REPO)
