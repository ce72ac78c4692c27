"""What a gallery records of each run it holds: the code, the configs, the software, the CPU.

A run's record: the commit its jobs ran (a run from a tree with uncommitted changes is refused:
its commit could not reproduce it), the config files it was given (their paths in the
repository, else their copies' names) and their SHA-256, the date, the versions that decide the
last digits (`software`: Python, numpy, scipy, the BLAS and its kernels, the CPU and the SIMD
extensions numpy dispatches to), the installed version
of every package the lock file pins (`packages`), and the CPU-hours of each rule and figure of
the run directory (`localbo.pipeline.job_cpu`: the larger of a job's logged CPU and Snakemake's
sampled benchmark).
"""

from __future__ import annotations

import datetime
import hashlib
import importlib.metadata
import platform
import re
import subprocess
import time
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np
import scipy
from threadpoolctl import threadpool_info

from localbo.io import load_json, save_json
from localbo.pipeline.job_cpu import cpu_hours

LOCK = Path("envs/requirements-lock.txt")  # in the repository: the pinned environment
# a rule is defined in one workflow/rules/<figure>.smk file; its CPU-hours count for that figure
RULE_DEFINITION = re.compile(r"^(?:rule (\w+):|use rule \w+ as (\w+))", re.MULTILINE)


class ModifiedTree(ValueError):
    """The run's code has uncommitted changes: no commit can reproduce it."""


def figure_of_rule(rules_dir: Path) -> dict[str, str]:
    """Each rule's figure: the stem of the rules file that defines it (fig1_run -> "fig1")."""
    return {
        next(name for name in match.groups() if name): smk.stem
        for smk in sorted(rules_dir.glob("*.smk"))
        for match in RULE_DEFINITION.finditer(smk.read_text())
    }


def per_figure(rules: dict[str, dict[str, float]], rules_dir: Path) -> dict[str, float]:
    """CPU-hours per figure (`figure_of_rule`; a rule no file defines counts under its own
    name), and the total under "all"."""
    figure = figure_of_rule(rules_dir)
    figures: dict[str, float] = defaultdict(float)
    for rule, total in rules.items():
        figures[figure.get(rule, rule)] += total["cpu_hours"]
    figures["all"] = sum(total["cpu_hours"] for total in rules.values())
    return dict(figures)


def software() -> dict[str, str]:
    """The versions that decide the last digits of a run: Python, numpy, scipy and the BLAS
    (those of this process, normally the run's; two versions of numpy or OpenBLAS round the
    sample paths and solves differently), and the CPU with the SIMD extensions numpy dispatches
    its loops to (two CPUs with the same libraries and BLAS kernels can still part in the last
    digits of a local-BO run). The BLAS libraries are listed sorted: the order in which numpy
    and scipy load theirs varies from process to process."""
    blas = sorted(
        f"{lib['internal_api']} {lib.get('version')} ({lib.get('architecture')})"
        for lib in threadpool_info()
        if lib["user_api"] == "blas"
    )
    simd = np.show_config(mode="dicts").get("SIMD Extensions", {}).get("found", [])
    return {
        "python": platform.python_version(),
        "numpy": np.__version__,
        "scipy": scipy.__version__,
        "blas": ", ".join(blas),
        "cpu": f"{cpu_model()}; numpy SIMD {' '.join(simd) or 'none'}",
    }


def cpu_model() -> str:
    """The CPU's model name (Linux's /proc/cpuinfo; elsewhere what `platform` says)."""
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        for line in cpuinfo.read_text().splitlines():
            if line.startswith("model name"):
                return line.partition(":")[2].strip()
    return platform.processor() or platform.machine()


def same_software(a: dict[str, str] | None, b: dict[str, str] | None) -> bool:
    """Whether two `software` records name the same versions; the BLAS libraries in any order
    (records made before they were sorted list them as they loaded). A missing record is no
    one's software."""
    if a is None or b is None:
        return False

    def key(record: dict[str, str]) -> dict[str, object]:
        return {**record, "blas": sorted(record.get("blas", "").split(", "))}

    return key(a) == key(b)


def packages(lock: Path) -> dict[str, Any]:
    """The installed version of every package the lock file pins, and whether each is the
    pinned one (`as_locked`): the environment beyond `software`'s few."""
    pinned = dict(line.split("==", 1) for line in lock.read_text().splitlines() if "==" in line)
    installed = {}
    for name in pinned:
        try:
            installed[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            installed[name] = None
    return {"versions": installed, "as_locked": installed == pinned}


def config_sha256(configs: Iterable[Path]) -> str:
    """The SHA-256 of config files, read in order: what a record keeps of a run's configs."""
    digest = hashlib.sha256()
    for config in configs:
        digest.update(config.read_bytes())
    return digest.hexdigest()


def commit_of(code: Path) -> str:
    """The commit checked out in `code`.

    Raises:
        ModifiedTree: the tree has uncommitted changes to tracked files.
    """
    described = subprocess.run(
        ["git", "-C", str(code), "describe", "--always", "--dirty", "--abbrev=40"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    if described.endswith("-dirty"):
        raise ModifiedTree(
            f"{code} has uncommitted changes: commit them (and run again) so that the record's "
            "commit reproduces the run"
        )
    return described


def run_record(
    run: Path,
    configs: dict[str, Path],
    repo: Path,
    code: Path | None = None,
    after: float | None = None,
) -> dict[str, Any]:
    """The record of the run in the directory `run`; `configs` maps each config file's recorded
    name to the file. The commit is that of `code`, the checkout the run's code came from, by
    default `repo`. Its CPU-hours are those of the jobs that ended after `after` (seconds since
    the epoch, recorded as `cpu_counted_after`; every job of the directory if None).

    Raises:
        ModifiedTree: that checkout has uncommitted changes.
    """
    rules = cpu_hours(run, after)
    since = {} if after is None else {"cpu_counted_after": iso_date(after)}
    return {
        "commit": commit_of(code or repo),
        "configs": list(configs),
        "config_sha256": config_sha256(configs.values()),
        "date": iso_date(time.time()),
        "software": software(),
        "packages": packages(repo / LOCK),
        "cpu_hours_per_figure": per_figure(rules, repo / "workflow" / "rules"),
        "cpu_hours_per_rule": rules,
        **since,
    }


def iso_date(seconds: float) -> str:
    """A time (seconds since the epoch) as the records write dates: ISO 8601 in UTC, to the
    second."""
    return datetime.datetime.fromtimestamp(seconds, datetime.UTC).isoformat(timespec="seconds")


# the file in a run directory that keeps when a part was last added from it, per gallery: a
# later part from the same directory counts the CPU of the jobs that ended since
ADDED = Path(".gallery-added.json")


def _added(run: Path) -> dict[str, float]:
    """The run directory's additions: a gallery's resolved path -> when (seconds since the
    epoch) a part was last added from the directory to it."""
    return load_json(run / ADDED) if (run / ADDED).exists() else {}


def last_added(run: Path, gallery: Path) -> float | None:
    """When a part was last added from the run directory to `gallery`, None if never."""
    return _added(run).get(str(gallery.resolve()))


def mark_added(run: Path, gallery: Path, when: float) -> None:
    """Keep in the run directory that a part was added from it to `gallery` at `when`."""
    save_json(run / ADDED, {**_added(run), str(gallery.resolve()): when})


def recorded_path(config: Path, copy: Path, repo: Path) -> str:
    """How a record names a config file: its path in the repository, else that of its copy in
    the gallery, else the copy's name (an override file elsewhere, e.g. in the run directory,
    would be a path on one machine only)."""
    for path in (config, copy):
        try:
            return str(path.resolve().relative_to(repo.resolve()))
        except ValueError:
            continue
    return copy.name
