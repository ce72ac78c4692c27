"""Which of the Fig. 1 runs a config asks for a gallery grown by parts still lacks, and their cost.

    python -m localbo.pipeline.still_to_run figures/paper-partial/fig1 --config config/config.yaml

The config files merge as Snakemake merges them (later files key by key over earlier ones). For
each cell (method, d, sigma) that misses runs, one line: how many of the config's paths the
gallery's table holds, the missing paths as ranges, and their CPU-hours by the method's cost
model (`Optimizer.cost`, the model the rules' `runtime` comes from); then the total. What is
left of a paper-scale Fig. 1 is read from here, not counted by hand. A row counts as the run of
its (method, d, sigma, path) whatever settings it ran with; the gallery's provenance lists each
part's configs.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from localbo.io import load_csv
from localbo.pipeline.gallery import RUN_TABLE, gallery_name
from localbo.pipeline.settings import PipelineSettings, load_settings, merged_config

Cell = tuple[str, int, float]  # method, d, sigma


def missing_runs(settings: PipelineSettings, rows: list[dict[str, str]]) -> dict[Cell, list[int]]:
    """The paths of each cell the config asks for that no row of the Fig. 1 table holds (cells
    missing nothing are left out), in the config's method order."""
    held = {(r["method"], int(r["d"]), float(r["sigma"]), int(r["path"])) for r in rows}
    fig1 = settings.fig1
    missing = {}
    for name, method in fig1.methods.methods.items():
        for d in fig1.dims_of(name):
            for sigma in method.jobs.noise_levels:
                paths = [i for i in fig1.paths_of(name) if (name, d, sigma, i) not in held]
                if paths:
                    missing[(name, d, sigma)] = paths
    return missing


def ranges(paths: list[int]) -> str:
    """Sorted path indices as ranges: [0, 1, 2, 5] -> "0-2, 5"."""
    spans: list[list[int]] = []
    for i in paths:
        if spans and i == spans[-1][1] + 1:
            spans[-1][1] = i
        else:
            spans.append([i, i])
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in spans)


def report(settings: PipelineSettings, missing: dict[Cell, list[int]]) -> list[str]:
    """One line per cell missing runs, then the total CPU-hours by the cost models."""
    fig1, lines, total = settings.fig1, [], 0.0
    for (name, d, sigma), paths in missing.items():
        cost = fig1.method(name).optimizer.cost(d, fig1.budget_of(name))
        hours = len(paths) * cost.seconds / 3600.0
        total += hours
        asked = len(fig1.paths_of(name))
        lines.append(
            f"{name} d={d} sigma={sigma:g}: {asked - len(paths)} of {asked} run; "
            f"paths {ranges(paths)} still to run, about {hours:.1f} CPU-hours"
        )
    lines.append(
        f"still to run: {sum(map(len, missing.values()))} runs, about {total:.1f} CPU-hours"
    )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("gallery", type=Path, help="the gallery folder, e.g. figures/paper")
    parser.add_argument("--config", type=Path, nargs="+", required=True, help="its config files")
    args = parser.parse_args()
    settings = load_settings(merged_config(args.config))
    rows = load_csv(args.gallery / gallery_name(RUN_TABLE))
    print("\n".join(report(settings, missing_runs(settings, rows))))


if __name__ == "__main__":
    main()
