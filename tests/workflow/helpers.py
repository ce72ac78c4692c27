"""Running the pipeline from tests: one place that knows the command line."""

from __future__ import annotations

import csv
import os
import subprocess
import sys
from pathlib import Path

import yaml
from snakemake.utils import update_config

from localbo.pipeline.settings import PipelineSettings, load_settings

REPO = Path(__file__).resolve().parents[2]
TINY = REPO / "tests" / "workflow" / "tiny.yaml"
QUICK = REPO / "config" / "quick.yaml"
# The environment every test run of the pipeline adds.
RUN_ENV = {"SOURCE_DATE_EPOCH": "0"}
# Set where a test cluster is up (`.ci/run`): the SLURM tests fail instead of skipping.
SLURM_REQUIRED = os.environ.get("LOCALBO_REQUIRE_SLURM", "") not in ("", "0")
# What reproducible runs write alike: every CSV table and every figure.
COMPARED = ("results/**/*.csv", "figures/*")


def compared_files(workdir: Path) -> dict[str, bytes]:
    """The files of COMPARED, by path relative to the run directory."""
    files = sorted(p for pattern in COMPARED for p in workdir.glob(pattern))
    return {str(p.relative_to(workdir)): p.read_bytes() for p in files}


def different_files(first: Path, second: Path) -> list[str]:
    """The COMPARED files of two run directories that differ or that only one of them has."""
    ours, theirs = compared_files(first), compared_files(second)
    return sorted(n for n in ours.keys() | theirs.keys() if ours.get(n) != theirs.get(n))


def tiny_settings() -> PipelineSettings:
    """The settings of the tiny run: config/config.yaml with tests/workflow/tiny.yaml over it."""
    config = yaml.safe_load((REPO / "config" / "config.yaml").read_text())
    update_config(config, yaml.safe_load(TINY.read_text()))
    return load_settings(config)


def read_csv(path: Path) -> list[dict[str, str]]:
    """The rows of a CSV table the pipeline wrote."""
    with open(path) as handle:
        return list(csv.DictReader(handle))


def snakemake_command(
    workdir: Path, *args: str, configfiles: tuple[Path, ...] = (TINY,)
) -> list[str]:
    """`snakemake -s REPO/Snakefile --directory workdir args --configfile CONFIGFILES` (the
    config files last: Snakemake would read a target after them as one more)."""
    return [
        sys.executable,
        "-m",
        "snakemake",
        "-s",
        str(REPO / "Snakefile"),
        "--directory",
        str(workdir),
        *args,
        "--configfile",
        *map(str, configfiles),
    ]


def snakemake(
    workdir: Path,
    *args: str,
    configfiles: tuple[Path, ...] = (TINY,),
    timeout: int = 900,
    check: bool = True,
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    """Run Snakemake on workdir with the given config overrides and extra environment
    variables; raise on failure if `check`."""
    cmd = snakemake_command(workdir, *args, configfiles=configfiles)
    env = {**os.environ, **RUN_ENV, **(env or {})}
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env, cwd=REPO)
    if check and proc.returncode != 0:
        raise AssertionError(f"snakemake failed ({proc.returncode}):\n{proc.stderr[-4000:]}")
    return proc
