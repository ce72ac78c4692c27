"""The committed gallery of a run: its figures (PNG) and tables (CSV) copied where no pipeline run
writes (`figures/paper/` for the paper-scale run), with a provenance file beside them.

    python -m localbo.pipeline.gallery RUN_DIR figures/paper --config config/config.yaml [...]

The provenance (`provenance.json`) says which commit the gallery was made at (`-dirty` when the tree
had uncommitted changes; make it right after the run), or, with `--code`, the commit of the checkout
the run's jobs imported `localbo` from (a part run from a pinned worktree), the SHA-256 of the
config files it ran with, the date, and the CPU-hours of every rule from the run's `benchmarks/`
files and logs (`localbo.pipeline.job_cpu`).

A paper-scale Fig. 1 is run in parts, a few (method, d) cells at a time, each in a run directory
of its own (a directory does not outlive a machine). With `--add`, a part's runs join the Fig. 1
table of an existing gallery instead of replacing it:

    python -m localbo.pipeline.gallery RUN_DIR figures/paper-partial/fig1 --add --config ...

A new run is added and the figure redrawn from the merged table; a run the gallery already holds
keeps the gallery's row and checks the part. With the software of every earlier part (Python,
numpy, scipy, BLAS: `software`) it must come back byte for byte, or the part is refused: the
pipeline does not reproduce itself. With other versions the last digits differ (the sample paths
round differently, and a BFGS run may amplify that), so the part records how many runs it
reproduced to the character and, for the others, the largest difference of the value per cell.
The provenance lists the parts under "parts" (each a gallery's provenance plus those counts),
with the CPU-hours per figure summed over them beside.

When a method's default settings change, the gallery's runs of it are no longer the config's:
`--supersede METHOD` lets a part's runs at the new ones replace the gallery's of the same (d,
sigma, path) where they differ, and counts them (`runs_superseded`; `runs_added` counts new runs
only, so the parts' sum to the table's rows); the CPU-hours keep the replaced runs'. Runs that
come back equal at the new settings are the part's all the same, so a part that only renews
runs is added too. A part counts them (`runs_renewed`) among its reproduced runs.
"""

from __future__ import annotations

import argparse
import datetime
import importlib.metadata
import math
import platform
import re
import shutil
import subprocess
from collections import defaultdict
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import scipy
from threadpoolctl import threadpool_info

from localbo.io import atomic_path, copy_file, load_csv, load_json, made_files, save_csv, save_json
from localbo.optimizers import optimizer_class
from localbo.pipeline.fig1 import TABLE_COLUMNS, table_order
from localbo.pipeline.gallery_parts import config_copy, config_sha256, renewed_runs
from localbo.pipeline.job_cpu import cpu_hours
from localbo.pipeline.local_solutions_figure import local_solutions_figure
from localbo.pipeline.settings import merged_config
from localbo.plotting import save_figure

LOCK = Path("envs/requirements-lock.txt")  # in the repository: the pinned environment
# a rule is defined in one workflow/rules/<figure>.smk file; its CPU-hours count for that figure
RULE_DEFINITION = re.compile(r"^(?:rule (\w+):|use rule \w+ as (\w+))", re.MULTILINE)


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


def recorded_path(config: Path, copy: Path, repo: Path) -> str:
    """How the provenance names a config file: its path in the repository, else that of its copy
    in the gallery, else the copy's name (an override file elsewhere, e.g. in the run
    directory, would be a path on one machine only)."""
    for path in (config, copy):
        try:
            return str(path.resolve().relative_to(repo.resolve()))
        except ValueError:
            continue
    return copy.name


def software() -> dict[str, str]:
    """The versions that decide the last digits of a run: Python, numpy, scipy and the BLAS
    (those of this process, normally the run's; two versions of numpy or OpenBLAS round the
    sample paths and solves differently). The BLAS libraries are listed sorted: the order in which
    numpy and scipy load theirs varies from process to process."""
    blas = sorted(
        f"{lib['internal_api']} {lib.get('version')} ({lib.get('architecture')})"
        for lib in threadpool_info()
        if lib["user_api"] == "blas"
    )
    return {
        "python": platform.python_version(),
        "numpy": np.__version__,
        "scipy": scipy.__version__,
        "blas": ", ".join(blas),
    }


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


def same_software(a: dict[str, str] | None, b: dict[str, str] | None) -> bool:
    """Whether two `software` records name the same versions; the BLAS libraries in any order
    (records made before they were sorted list them as they loaded). A missing record is no
    one's software."""
    if a is None or b is None:
        return False

    def key(record: dict[str, str]) -> dict[str, object]:
        return {**record, "blas": sorted(record.get("blas", "").split(", "))}

    return key(a) == key(b)


def provenance(
    run: Path, configs: dict[str, Path], repo: Path, code: Path | None = None
) -> dict[str, Any]:
    """Commit, config hash, date, software and CPU-hours of the run in `run`; `configs` maps
    each config file's recorded name to the file. The commit is that of `code`, the checkout
    the run's code came from, by default `repo`."""
    commit = subprocess.run(  # "-dirty" when the tree had uncommitted changes
        ["git", "-C", str(code or repo), "describe", "--always", "--dirty", "--abbrev=40"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    rules = cpu_hours(run)
    return {
        "commit": commit,
        "configs": list(configs),
        "config_sha256": config_sha256(configs.values()),
        "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "software": software(),
        "packages": packages(repo / LOCK),
        "cpu_hours_per_figure": per_figure(rules, repo / "workflow" / "rules"),
        "cpu_hours_per_rule": rules,
    }


def make_gallery(
    run: Path, out: Path, configs: list[Path], repo: Path, code: Path | None = None
) -> list[Path]:
    """Copy the run's figures (PNG), tables (CSV) and config files to `out`, with
    provenance.json beside them.

    Raises:
        ValueError: `out` is a gallery grown by parts (`add_to_gallery`): remaking it from one
            run would drop the others.
    """
    if out.joinpath("provenance.json").exists() and "parts" in load_json(out / "provenance.json"):
        raise ValueError(f"{out} was grown by parts: add to it with --add, or remove it first")
    out.mkdir(parents=True, exist_ok=True)
    copied = []
    for source in made_files(run, "figures/*.png") + made_files(run, "results/**/*.csv"):
        target = out / gallery_name(source.relative_to(run))
        copy_file(source, target)
        copied.append(target)
    recorded = {}
    for config in configs:  # the configs the hash is of, beside it
        target = config_copy(out, 1, config.name)
        copy_file(config, target)
        copied.append(target)
        recorded[recorded_path(config, target, repo)] = config
    save_json(out / "provenance.json", provenance(run, recorded, repo, code))
    return copied


def gallery_name(relative: Path) -> str:
    """The gallery's name of a file at `relative` in a run directory: tables keep their folder
    in the name (results/fig1/local_solutions.csv -> fig1-local_solutions.csv), so two tables of
    one name cannot overwrite each other."""
    return "-".join(relative.parts[1:])


# Fig. 1's table and figure in a run directory (the fig1_table and fig1_plot rules' outputs)
RUN_TABLE = Path("results", "fig1", "local_solutions.csv")
RUN_FIGURE = Path("figures", "fig1_local_solutions.png")


def merge_runs(
    held: list[dict[str, str]], new: list[dict[str, str]], supersede: frozenset[str] = frozenset()
) -> tuple[list[dict[str, str]], list[str], list[dict[str, str]], int, dict[str, float]]:
    """Fig. 1's table of the runs of both (CSV rows), in table order; a run both hold keeps the
    gallery's row, unless its method is in `supersede` and the rows differ: then `new`'s.

    A column only one table has is empty in the other's rows (a method that reports a new
    scalar).

    Returns:
        The rows, the columns (the common ones, then the others in name order), the rows of
        `new` the gallery held to the character, how many replaced a different row (`supersede`),
        and for the others the largest |difference| of `value` per "method d=.. sigma=.." (inf
        where `value` is not a number).

    Raises:
        ValueError: `new` holds a run twice.
    """
    columns = {c for row in held + new for c in row}
    columns = [*TABLE_COLUMNS, *sorted(columns - set(TABLE_COLUMNS))]
    rows = {table_order(row): {c: row.get(c, "") for c in columns} for row in held}
    seen, reproduced, superseded, differences = set(), [], 0, {}
    for row in new:
        row = {c: row.get(c, "") for c in columns}
        key = table_order(row)
        if key in seen:
            raise ValueError(f"run {key} (method, sigma, d, path) is in the part's table twice")
        seen.add(key)
        if key not in rows:
            rows[key] = row
        elif rows[key] == row:
            reproduced.append(row)
        elif row["method"] in supersede:
            rows[key] = row
            superseded += 1
        else:
            cell = f"{row['method']} d={row['d']} sigma={row['sigma']}"
            try:
                gap = abs(float(rows[key]["value"]) - float(row["value"]))
            except ValueError:
                gap = math.inf
            differences[cell] = max(differences.get(cell, 0.0), gap)
    return [rows[key] for key in sorted(rows)], columns, reproduced, superseded, differences


def method_labels(configs: list[Path], methods: set[str]) -> dict[str, str]:
    """Each method's label in panel order: that of fig1.methods in the config files (the order
    of config/config.yaml, which every part shares; later files may add methods, and a section
    merges key by key as Snakemake merges configs: `merged_config`), then any other method of the
    table by name.
    """
    sections = (merged_config(configs).get("fig1") or {}).get("methods") or {}
    order = [m for m in sections if m in methods] + sorted(methods - set(sections))
    return {m: optimizer_class(m, (sections.get(m) or {}).get("module")).label for m in order}


def add_to_gallery(
    run: Path,
    out: Path,
    configs: list[Path],
    repo: Path,
    code: Path | None = None,
    supersede: frozenset[str] = frozenset(),
) -> list[Path]:
    """Add the Fig. 1 runs of `run` to the gallery in `out` (see the module docstring); the
    part's runs of the `supersede` methods replace the gallery's of the same (d, sigma, path).

    Every check passes and every file is written beside its place before they are renamed into
    place, the provenance last. Part k's configs are copied as `config_copy` names them.

    Returns:
        The files written.

    Raises:
        ValueError: the gallery has no Fig. 1 table or provenance, the run has tables other than
            Fig. 1's (they make a gallery of their own), a run differs from the gallery's with
            the gallery's software, or the run adds nothing.
    """
    others = [p for p in made_files(run, "results/**/*.csv") if p != run / RUN_TABLE]
    if others:
        raise ValueError(f"only Fig. 1's table grows by parts; {others[0]} needs its own gallery")
    table, figure_file = out / gallery_name(RUN_TABLE), out / gallery_name(RUN_FIGURE)
    if not (table.exists() and (out / "provenance.json").exists()):
        raise ValueError(f"{out} has no Fig. 1 gallery to add to: make it without --add")
    held, new = load_csv(table), load_csv(run / RUN_TABLE)
    absent = sorted(supersede - {row["method"] for row in new})
    if absent:
        raise ValueError(f"{run} has no runs of {', '.join(absent)} to supersede the gallery's")
    rows, columns, reproduced, superseded, differences = merge_runs(held, new, supersede)
    renewed = renewed_runs(out, configs, held, reproduced, supersede) if supersede else 0
    if len(rows) == len(held) and not superseded and not renewed:
        raise ValueError(f"{run} adds no run to {out}: all {len(new)} are there already")
    before = load_json(out / "provenance.json")
    parts = before.get("parts", [{**before, "runs_added": len(held), "runs_reproduced": 0}])
    copies = [(c, config_copy(out, len(parts) + 1, c.name)) for c in configs]
    part = provenance(run, {recorded_path(c, copy, repo): c for c, copy in copies}, repo, code)
    if differences and all(same_software(p.get("software"), part["software"]) for p in parts):
        cell, gap = max(differences.items(), key=lambda item: item[1])
        raise ValueError(
            f"with the gallery's software, {len(differences)} cells came back "
            f"different (largest: {cell}, value by {gap:.3g}): the pipeline does not reproduce "
            f"itself"
        )
    part.update(
        runs_added=len(rows) - len(held),
        runs_superseded=superseded,
        runs_renewed=renewed,
        supersede=sorted(supersede),
        runs_reproduced=len(reproduced),
        runs_differing=len(new) - (len(rows) - len(held)) - len(reproduced) - superseded,
        largest_value_difference=differences,
    )
    parts = [*parts, part]
    figures: dict[str, float] = defaultdict(float)
    for each in parts:
        for figure, hours in each["cpu_hours_per_figure"].items():
            figures[figure] += hours
    labels = method_labels(configs, {row["method"] for row in rows})

    with ExitStack() as staged:  # every file renamed into place at the end, the provenance last
        provenance_file, staged_table, staged_figure, *staged_copies = (
            staged.enter_context(atomic_path(path, suffix=path.suffix))
            for path in (out / "provenance.json", table, figure_file, *(c for _, c in copies))
        )
        save_csv(staged_table, rows, columns)
        figure = local_solutions_figure(pd.read_csv(staged_table), labels)
        save_figure(figure, None, staged_figure)
        for (config, _), staged_copy in zip(copies, staged_copies, strict=True):
            shutil.copyfile(config, staged_copy)
        save_json(provenance_file, {"cpu_hours_per_figure": dict(figures), "parts": parts})
    return [table, figure_file, *(copy for _, copy in copies), out / "provenance.json"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run", type=Path, help="the run directory (figures/, results/, ...)")
    parser.add_argument("out", type=Path, help="the gallery folder, e.g. figures/paper")
    parser.add_argument("--config", type=Path, nargs="+", required=True, help="its config files")
    parser.add_argument("--repo", type=Path, default=Path(__file__).resolve().parents[3])
    parser.add_argument(
        "--code",
        type=Path,
        help="the checkout the run's jobs imported localbo from, if not --repo (a pinned "
        "worktree): its commit is recorded; give its config/config.yaml as --config",
    )
    parser.add_argument(
        "--add", action="store_true", help="add the run's Fig. 1 runs to the gallery in OUT"
    )
    parser.add_argument(
        "--supersede",
        nargs="+",
        default=[],
        metavar="METHOD",
        help="with --add: the run's runs of these methods replace the gallery's of the same "
        "(d, sigma, path), as after a change of the method's default settings",
    )
    args = parser.parse_args()
    if args.supersede and not args.add:
        parser.error("--supersede replaces runs of a gallery that grows by parts: give --add")
    if args.add:
        written = add_to_gallery(
            args.run, args.out, args.config, args.repo, args.code, frozenset(args.supersede)
        )
    else:
        written = make_gallery(args.run, args.out, args.config, args.repo, args.code)
    for path in written:
        print(path)


if __name__ == "__main__":
    main()
