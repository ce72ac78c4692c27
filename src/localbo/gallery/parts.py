"""Which of the runs a gallery holds made each of its Fig. 1 runs, and at which settings.

Fig. 1's table grows run by run ("parts"): the provenance lists the runs that added to it in
order (`figures.fig1.runs`), each record with the names of the config files it ran with and
their SHA-256; the gallery keeps a copy of each (`config_copy`). Replaying the parts gives every
run of the table its part: a part made the runs its config asked for that no earlier part had
made, and, if it superseded runs (`runs_superseded`, of the methods in `supersede` where the
part records them) or renewed them (`runs_renewed`: came back equal at the new settings), those
an earlier part had made at other settings. The replay must give each part the runs it recorded
(its record's `fig1` counts): `runs_added` plus `runs_superseded` plus `runs_renewed`, and up to
`runs_reproduced` more for a superseding part (its renewed runs are among its reproduced ones,
and parts added before every renewed run was counted recorded some as reproduced only), or it is
refused.

A method's noise levels, where its section does not set them, are its optimizer's default in the
code (`Optimizer.default_noise_levels`), which may change after a part ran (and a part run from a
pinned checkout ran at that checkout's): a part records the levels its runs were made at, from its
own table (`fig1.noise_levels`, by method), and the replay takes them from there (from the code's
defaults for parts added before they were recorded). Everything else comes from the copies as
today's code reads them: its checks, and the defaults of the knobs a run's settings hold (so a
changed knob default is not seen as other settings).

A run's settings are what decides it besides its (method, d, sigma, path), `Fig1Jobs.run_settings`:
the path's parameters, the budget, the box, the method's module and the knobs it reads. A run
whose settings differ from a config's is not that config's run, though it fills its place in the
table (`still_to_run` lists them). A change of the code that keeps the settings is not seen here.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from localbo.gallery.provenance import config_sha256
from localbo.io import load_json
from localbo.pipeline.fig1 import table_order
from localbo.pipeline.sections import ConfigError, build_all
from localbo.pipeline.settings import PipelineSettings, load_settings, merged_config

RunKey = tuple[str, int, float, int]  # method, d, sigma, path
# The config sections a part's Fig. 1 runs depend on: a replay builds these alone (the others at
# their defaults, no check across sections), so that a key renamed in another section since the
# part ran does not stop it
REPLAYED_SECTIONS = ("seed", "fig1")


def run_key(row: dict[str, str]) -> RunKey:
    """The run a row of a Fig. 1 table (as the CSV reads back) is of: its `table_order`, with d
    before sigma as the config's cells are named."""
    method, sigma, d, path = table_order(row)
    return method, d, sigma, path


def config_copy(gallery: Path, run: str, name: str) -> Path:
    """Where a gallery keeps its copy of config file `name` of the run named `run`."""
    return gallery / "configs" / f"{run}-{name}"


def fig1_parts(provenance: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """The runs that added to Fig. 1's table, in order: (name, record) each."""
    fig1 = provenance.get("figures", {}).get("fig1", {"runs": []})
    return [(name, provenance["runs"][name]) for name in fig1["runs"]]


def part_settings(part: dict[str, Any], name: str, gallery: Path) -> PipelineSettings:
    """The settings the run `name` ran its Fig. 1 runs with, from the gallery's copies of its
    config files, merged as Snakemake merges them (`REPLAYED_SECTIONS`; the others at their
    defaults).

    Raises:
        ValueError: a copy is missing, or the copies are not the files the run recorded (their
            SHA-256 differs).
    """
    copies = []
    for recorded in part["configs"]:
        copy = config_copy(gallery, name, Path(recorded).name)
        if not copy.exists():  # a config from outside the repository is recorded as its copy
            copy = gallery / "configs" / Path(recorded).name
        if not copy.exists():
            raise ValueError(f"{name}: no copy of its config {recorded} in {gallery}")
        copies.append(copy)
    if config_sha256(copies) != part["config_sha256"]:
        raise ValueError(f"{name}: the copies of its configs are not the files it recorded")
    return sections_settings(merged_config(copies), REPLAYED_SECTIONS, name)


def sections_settings(
    config: dict[str, Any], sections: tuple[str, ...], name: str
) -> PipelineSettings:
    """The typed settings of some sections of a run's merged config (the others at their
    defaults, no check across sections): what a reader of an older run needs, whatever keys
    the other sections have renamed since.

    Raises:
        ConfigError: a problem in those sections, each on a line, after the run's `name`.
    """
    settings, problems = build_all(
        PipelineSettings, {k: config[k] for k in sections if k in config}, ""
    )
    if problems:
        raise ConfigError(f"{name}: invalid config:\n  " + "\n  ".join(problems))
    return settings


def ran_noise_levels(rows: list[dict[str, str]], methods: Iterable[str]) -> dict[str, list[float]]:
    """The noise levels a part's runs were made at (a part's record): for each method of
    `methods` (its configs' sections) and of its Fig. 1 table `rows` (as the CSV reads back),
    the levels of its rows, none for a section without runs."""
    levels: dict[str, set[float]] = {name: set() for name in methods}
    for row in rows:
        levels.setdefault(row["method"], set()).add(float(row["sigma"]))
    return {name: sorted(at) for name, at in levels.items()}


def asked_runs(
    settings: PipelineSettings, levels: dict[str, list[float]] | None = None
) -> list[tuple[RunKey, dict[str, Any]]]:
    """Every run a config asks for, with its settings, by method (the config's order), d, sigma
    and path; at the noise levels `levels` records for a method (a part's record), else at its
    settings'."""
    fig1, jobs = settings.fig1, settings.fig1_jobs()
    asked = []
    for name, method in fig1.methods.methods.items():
        at = (levels or {}).get(name, method.jobs.noise_levels)
        runs = {sigma: jobs.run_settings(name, sigma) for sigma in at}
        for d in fig1.dims_of(name):
            for sigma, run in runs.items():
                asked += [((name, d, sigma, i), run) for i in fig1.paths_of(name)]
    return asked


def made_by(gallery: Path, held: set[RunKey]) -> dict[RunKey, tuple[str, dict[str, Any]]]:
    """Each run of the table (`held`) -> (the name of the part that made it, its settings).

    Raises:
        ValueError: a part's configs are not as recorded, or the replay gives a part another
            count of runs than it recorded.
    """
    made: dict[RunKey, tuple[str, dict[str, Any]]] = {}
    for k, part in fig1_parts(load_json(gallery / "provenance.json")):
        counts = part["fig1"]
        moved = counts.get("runs_superseded", 0) + counts.get("runs_renewed", 0)  # earlier parts'
        superseding = moved > 0
        methods = counts.get("supersede")  # recorded since the replay: else every method
        count = 0
        for key, run in asked_runs(part_settings(part, k, gallery), counts.get("noise_levels")):
            earlier = made.get(key)
            # a part names the methods it supersedes since the replay began recording them; such
            # a part replaces their runs even at unchanged settings (the method's code changed)
            replaces = (
                superseding
                and earlier is not None
                and (earlier[1] != run if methods is None else key[0] in methods)
            )
            if key in held and (earlier is None or replaces):
                made[key] = (k, run)
                count += 1
        least = counts["runs_added"] + moved
        most = least + (counts.get("runs_reproduced", 0) if superseding else 0)
        if not least <= count <= most:
            made_runs = f"{least}" if most == least else f"{least} to {most}"
            raise ValueError(f"{k} made {made_runs} runs, its configs replay to {count}")
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
