"""The committed gallery of a run: its figures (PNG) and tables (CSV) copied where no pipeline run
writes (`figures/paper/` for the paper-scale run), with a provenance file beside them.

    python -m localbo.pipeline.gallery RUN_DIR figures/paper --config config/config.yaml [...]

The provenance (`provenance.json`) says which commit the gallery was made at (`-dirty` when the
tree had uncommitted changes; make it right after the run), the SHA-256 of the config
files it ran with, the date, and the CPU-hours of every rule from the run's `benchmarks/` files
(the `cpu_time` column Snakemake writes), so the README's cost table is read from it.
"""

from __future__ import annotations

import argparse
import csv
import datetime
import hashlib
import re
import shutil
import subprocess
from collections import defaultdict
from pathlib import Path
from typing import Any

from localbo.io import save_json

# a rule is defined in one workflow/rules/<figure>.smk file; its CPU-hours count for that figure
RULE_DEFINITION = re.compile(r"^(?:rule (\w+):|use rule \w+ as (\w+))", re.MULTILINE)


def figure_of_rule(rules_dir: Path) -> dict[str, str]:
    """Each rule's figure: the stem of the rules file that defines it (fig1_run -> "fig1")."""
    return {
        next(name for name in match.groups() if name): smk.stem
        for smk in sorted(rules_dir.glob("*.smk"))
        for match in RULE_DEFINITION.finditer(smk.read_text())
    }


def cpu_hours(benchmarks: Path) -> dict[str, dict[str, float]]:
    """CPU-hours and job count per rule from a run's benchmarks/ tree (one TSV per job)."""
    totals: dict[str, dict[str, float]] = defaultdict(lambda: {"cpu_hours": 0.0, "jobs": 0})
    for tsv in sorted(benchmarks.rglob("*.tsv")):
        relative = tsv.relative_to(benchmarks)
        rule = relative.parts[0] if len(relative.parts) > 1 else tsv.stem
        with open(tsv) as handle:
            rows = list(csv.DictReader(handle, delimiter="\t"))
        seconds = sum(float(r["cpu_time"]) for r in rows if r.get("cpu_time") not in (None, "NA"))
        totals[rule]["cpu_hours"] += seconds / 3600.0
        totals[rule]["jobs"] += 1
    return dict(totals)


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


def provenance(run: Path, configs: dict[str, Path], repo: Path) -> dict[str, Any]:
    """Commit, config hash, date and CPU-hours of the run in `run`; `configs` maps each config
    file's recorded name to the file."""
    commit = subprocess.run(  # "-dirty" when the tree had uncommitted changes
        ["git", "-C", str(repo), "describe", "--always", "--dirty", "--abbrev=40"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    digest = hashlib.sha256()
    for config in configs.values():
        digest.update(config.read_bytes())
    rules = cpu_hours(run / "benchmarks")
    return {
        "commit": commit,
        "configs": list(configs),
        "config_sha256": digest.hexdigest(),
        "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "cpu_hours_per_figure": per_figure(rules, repo / "workflow" / "rules"),
        "cpu_hours_per_rule": rules,
    }


def make_gallery(run: Path, out: Path, configs: list[Path], repo: Path) -> list[Path]:
    """Copy the run's figures (PNG), tables (CSV) and config files to `out`, with
    provenance.json beside them."""
    out.mkdir(parents=True, exist_ok=True)
    copied = []
    for source in sorted(run.glob("figures/*.png")) + sorted(run.glob("results/**/*.csv")):
        # tables keep their folder in the name (results/fig1/local_solutions.csv ->
        # fig1-local_solutions.csv), so two tables of one name cannot overwrite each other
        parts = source.relative_to(run).parts[1:]
        target = out / "-".join(parts)
        shutil.copyfile(source, target)
        copied.append(target)
    recorded = {}
    for config in configs:  # the configs the hash is of, beside it
        target = out / f"config-{config.name}"
        shutil.copyfile(config, target)
        copied.append(target)
        recorded[recorded_path(config, target, repo)] = config
    save_json(out / "provenance.json", provenance(run, recorded, repo))
    return copied


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run", type=Path, help="the run directory (figures/, results/, ...)")
    parser.add_argument("out", type=Path, help="the gallery folder, e.g. figures/paper")
    parser.add_argument("--config", type=Path, nargs="+", required=True, help="its config files")
    parser.add_argument("--repo", type=Path, default=Path(__file__).resolve().parents[3])
    args = parser.parse_args()
    for path in make_gallery(args.run, args.out, args.config, args.repo):
        print(path)


if __name__ == "__main__":
    main()
