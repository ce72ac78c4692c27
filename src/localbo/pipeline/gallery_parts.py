"""Which part of a gallery grown by parts made each of its Fig. 1 runs, and at which settings.

The provenance lists the parts in order, each with the names of the config files it ran with and
their SHA-256; the gallery keeps a copy of each (`config_copy`). Replaying the parts gives every
run of the table its part: a part made the runs its config asked for that no earlier part had
made, and, if it superseded runs (`runs_superseded`, of the methods in `supersede` where the
part records them) or renewed them (`runs_renewed`: came back equal at the new settings), those
an earlier part had made at other settings. The replay must give each part the runs it recorded:
`runs_added` plus `runs_superseded` plus `runs_renewed`, and up to `runs_reproduced` more for a
superseding part (its renewed runs are among its reproduced ones, and parts added before every
renewed run was counted recorded some as reproduced only), or it is refused.

A run's settings are what decides it besides its (method, d, sigma, path), `Fig1Jobs.run_settings`:
the path's parameters, the budget, the box, the method's module and the knobs it reads. A run
whose settings differ from a config's is not that config's run, though it fills its place in the
table (`still_to_run` lists them). A change of the code that keeps the settings is not seen here.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from localbo.io import load_json
from localbo.pipeline.fig1 import table_order
from localbo.pipeline.settings import PipelineSettings, load_settings, merged_config

RunKey = tuple[str, int, float, int]  # method, d, sigma, path


def run_key(row: dict[str, str]) -> RunKey:
    """The run a row of a Fig. 1 table (as the CSV reads back) is of: its `table_order`, with d
    before sigma as the config's cells are named."""
    method, sigma, d, path = table_order(row)
    return method, d, sigma, path


def config_copy(gallery: Path, part: int, name: str) -> Path:
    """Where a gallery keeps its copy of config file `name` of part `part` (counted from 1; the
    first part, or a gallery made from one run, is the gallery made without --add)."""
    return gallery / (f"config-{name}" if part == 1 else f"config-part{part}-{name}")


def config_sha256(configs: Iterable[Path]) -> str:
    """The SHA-256 of config files, read in order: what a gallery records of a part's configs."""
    digest = hashlib.sha256()
    for config in configs:
        digest.update(config.read_bytes())
    return digest.hexdigest()


def part_settings(part: dict[str, Any], k: int, gallery: Path) -> PipelineSettings:
    """The settings part k ran with, from the gallery's copies of its config files, merged as
    Snakemake merges them.

    Raises:
        ValueError: a copy is missing, or the copies are not the files the part recorded (their
            SHA-256 differs).
    """
    copies = []
    for recorded in part["configs"]:
        copy = config_copy(gallery, k, Path(recorded).name)
        if not copy.exists():  # a config from outside the repository is recorded as its copy
            copy = gallery / Path(recorded).name
        if not copy.exists():
            raise ValueError(f"part {k}: no copy of its config {recorded} in {gallery}")
        copies.append(copy)
    if config_sha256(copies) != part["config_sha256"]:
        raise ValueError(f"part {k}: the copies of its configs are not the files it recorded")
    return load_settings(merged_config(copies))


def asked_runs(settings: PipelineSettings) -> list[tuple[RunKey, dict[str, Any]]]:
    """Every run a config asks for, with its settings, by method (the config's order), d, sigma
    and path."""
    fig1, jobs = settings.fig1, settings.fig1_jobs()
    asked = []
    for name, method in fig1.methods.methods.items():
        runs = {sigma: jobs.run_settings(name, sigma) for sigma in method.jobs.noise_levels}
        for d in fig1.dims_of(name):
            for sigma, run in runs.items():
                asked += [((name, d, sigma, i), run) for i in fig1.paths_of(name)]
    return asked


def made_by(gallery: Path, held: set[RunKey]) -> dict[RunKey, tuple[int, dict[str, Any]]]:
    """Each run of the table (`held`) -> (its part, counted from 1, and its settings).

    A gallery made from one run (no "parts" in its provenance) is its one part.

    Raises:
        ValueError: a part's configs are not as recorded, or the replay gives a part another
            count of runs than it recorded.
    """
    provenance = load_json(gallery / "provenance.json")
    parts = provenance.get("parts", [provenance])
    made: dict[RunKey, tuple[int, dict[str, Any]]] = {}
    for k, part in enumerate(parts, 1):
        moved = part.get("runs_superseded", 0) + part.get("runs_renewed", 0)  # from earlier parts
        superseding = moved > 0
        methods = part.get("supersede")  # recorded since the replay: else every method
        count = 0
        for key, run in asked_runs(part_settings(part, k, gallery)):
            earlier = made.get(key)
            replaces = (
                superseding
                and earlier is not None
                and earlier[1] != run
                and (methods is None or key[0] in methods)
            )
            if key in held and (earlier is None or replaces):
                made[key] = (k, run)
                count += 1
        if "parts" in provenance:
            least = part["runs_added"] + moved
            most = least + (part.get("runs_reproduced", 0) if superseding else 0)
            if not least <= count <= most:
                made_runs = f"{least}" if most == least else f"{least} to {most}"
                raise ValueError(f"part {k} made {made_runs} runs, its configs replay to {count}")
    return made


def renewed_runs(
    gallery: Path,
    configs: list[Path],
    held: list[dict[str, str]],
    reproduced: list[dict[str, str]],
    methods: frozenset[str],
) -> int:
    """How many of a part's runs of `methods` that came back equal to the gallery's (`reproduced`,
    rows of its table) and that its `configs` ask for the gallery (`held`, its table's rows) holds
    from a part at other settings: a part added with --supersede makes these the config's runs
    all the same."""
    made = made_by(gallery, {run_key(row) for row in held})
    ran = {run_key(row) for row in reproduced}
    asked = asked_runs(load_settings(merged_config(configs)))
    return sum(
        key[0] in methods and key in ran and key in made and made[key][1] != run
        for key, run in asked
    )
