"""Which of the Fig. 1 runs a config asks for a gallery grown by parts still lacks, and their cost.

    python -m localbo.gallery still-to-run --config config/config.yaml

The config files merge as Snakemake merges them (later files key by key over earlier ones). For
each cell (method, d, sigma) that misses runs, one line: how many of the config's paths the
gallery's table holds, the missing paths as ranges, and their CPU-hours by the method's cost
model (`Optimizer.cost`, the model the rules' `runtime` comes from). Then each cell whose runs
were made at other settings than the config's (a default changed since; `parts` replays
the provenance's parts to find which part made each run), with what differs and the CPU-hours
of running them again (a part added with `--supersede METHOD`); then the total. What is left of a
paper-scale Fig. 1 is read from here, not counted by hand.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from localbo.gallery.add import RUN_TABLE
from localbo.gallery.parts import RunKey, asked_runs, made_by, run_key
from localbo.io import load_csv
from localbo.pipeline.files import gallery_name
from localbo.pipeline.settings import PipelineSettings, load_settings, merged_config

Cell = tuple[str, int, float]  # method, d, sigma


Asked = list[tuple[RunKey, dict[str, Any]]]  # the runs a config asks for, `asked_runs`


def missing_runs(asked: Asked, held: set[RunKey]) -> dict[Cell, list[int]]:
    """The paths of each cell of the `asked` runs that the Fig. 1 table (`held`, its rows'
    `run_key`s) lacks (cells missing nothing are left out), in the config's method order."""
    missing: dict[Cell, list[int]] = {}
    for (name, d, sigma, i), _ in asked:
        if (name, d, sigma, i) not in held:
            missing.setdefault((name, d, sigma), []).append(i)
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


def other_settings(
    asked: Asked, made: dict[RunKey, tuple[str, dict[str, Any]]]
) -> dict[Cell, tuple[list[int], list[str]]]:
    """The paths of each cell of the `asked` runs whose runs were made (`made_by`) at other
    settings (cells with none are left out), and what differs ("refine_iterations 50, now 15")."""
    other: dict[Cell, tuple[list[int], list[str]]] = {}
    for key, run in asked:
        was = made[key][1] if key in made else run
        if was == run:
            continue
        paths, changes = other.setdefault(key[:3], ([], []))
        paths.append(key[3])
        for change in differences(was, run):
            if change not in changes:
                changes.append(change)
    return other


def differences(was: dict[str, Any], now: dict[str, Any]) -> list[str]:
    """The settings that differ, nested ones by their last key: ["refine_iterations 50, now 15"]."""
    changes = []
    for key in [*was, *(k for k in now if k not in was)]:
        old, new = was.get(key), now.get(key)
        if isinstance(old, dict) and isinstance(new, dict):
            changes += differences(old, new)
        elif old != new:
            changes.append(f"{key} {old}, now {new}")
    return changes


def report(
    settings: PipelineSettings,
    missing: dict[Cell, list[int]],
    other: dict[Cell, tuple[list[int], list[str]]] | None = None,
) -> list[str]:
    """One line per cell missing runs, one per cell with runs at other settings, then the total
    CPU-hours by the cost models."""
    fig1, lines, hours = settings.fig1, [], {"missing": 0.0, "again": 0.0}

    def cost(name: str, d: int, paths: list[int]) -> float:
        return len(paths) * fig1.method(name).optimizer.cost(d, fig1.budget_of(name)).seconds / 3600

    for (name, d, sigma), paths in missing.items():
        cell_hours = cost(name, d, paths)
        hours["missing"] += cell_hours
        asked = len(fig1.paths_of(name))
        lines.append(
            f"{name} d={d} sigma={sigma:g}: {asked - len(paths)} of {asked} run; "
            f"paths {ranges(paths)} still to run, about {cell_hours:.1f} CPU-hours"
        )
    for (name, d, sigma), (paths, changes) in (other or {}).items():
        cell_hours = cost(name, d, paths)
        hours["again"] += cell_hours
        lines.append(
            f"{name} d={d} sigma={sigma:g}: {len(paths)} runs at other settings "
            f"({'; '.join(changes)}); paths {ranges(paths)} to run again (--supersede {name}), "
            f"about {cell_hours:.1f} CPU-hours"
        )
    again = sum(len(paths) for paths, _ in (other or {}).values())
    lines.append(
        f"still to run: {sum(map(len, missing.values()))} runs, about {hours['missing']:.1f} "
        f"CPU-hours; to run again at the config's settings: {again} runs, about "
        f"{hours['again']:.1f} CPU-hours"
    )
    return lines


def still_to_run(gallery: Path, configs: list[Path]) -> list[str]:
    """`report` of what the config files ask of the gallery's Fig. 1 table."""
    settings = load_settings(merged_config(configs))
    held = {run_key(row) for row in load_csv(gallery / gallery_name(RUN_TABLE))}
    asked = asked_runs(settings)
    other = None  # a table without provenance: nothing known of who made what
    if (gallery / "provenance.json").exists():
        other = other_settings(asked, made_by(gallery, held))
    return report(settings, missing_runs(asked, held), other)
