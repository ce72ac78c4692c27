"""Add a run to a gallery: its figures (PNG) and tables (CSV), with its record.

    python -m localbo.gallery add RUN_DIR --config config/config.yaml [OVERRIDE.yaml ...]

A gallery is a folder (`figures/gallery/` for the paper scale) that no pipeline run writes; its
`provenance.json` holds a record of every run it took files from (`runs`, named run1, run2, ...
in the order they were added; `localbo.gallery.provenance`) and, for every figure, the runs its
files come from, its files and its CPU-hours (`figures`). The gallery keeps a copy of each run's
config files in `configs/` (`parts.config_copy`).

A run's figures replace the gallery's, except Fig. 1's tables, which grow run by run ("parts"):
a paper-scale Fig. 1 is run a few (method, d) cells at a time. A run the table holds already keeps
the table's row and checks the part: with the software of every earlier part it must come back
byte for byte, or the run is refused (the pipeline does not reproduce itself); with other
versions the last digits differ (the paths round differently, and a BFGS run may amplify that),
so the part records how many runs it reproduced to the character and, for the others, the largest
difference of the value per cell. The figure is redrawn from the merged table. Fig. 1's curve
table (each run's thinned trace, `localbo.pipeline.progress`) grows the same way, a run at a
time: a run whose curve the gallery lacks adds it (`curves_added`), one it holds keeps the
gallery's; the progress figure and its table are made from it by `redraw`.

When a method's default settings change, the gallery's runs of it are no longer the config's:
`--supersede METHOD` lets a part's runs at the new ones replace the gallery's of the same (d,
sigma, path) where they differ, and counts them (`runs_superseded`; `runs_added` counts new runs
only, so the parts' sum to the table's rows); the CPU-hours keep the replaced runs'. Runs that
come back equal at the new settings are the part's all the same (`runs_renewed`, among its
reproduced runs).

Fig. 3's paths grow the same way: a run of more `fig3.other_paths` adds the paths the gallery
lacks to its other-paths table and keeps the rest, its main path's tables among them; the
gallery's figure is redrawn from its tables (`python -m localbo.gallery redraw`). The part
records the paths it added, how many it reproduced to the character, and for the others (the
main path among them) the largest difference of their curves. After a change of Fig. 3's
default settings, `--replace fig3` takes the run's files in place of the gallery's instead.

A part records the noise levels of its runs by method (`localbo.gallery.parts`). A run from a
tree with uncommitted changes is refused; with `--code`, the commit is that of the
checkout the run's jobs imported `localbo` from (a part run from a pinned worktree).
"""

from __future__ import annotations

import re
import shutil
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pandas as pd

from localbo.colors import method_colors
from localbo.gallery.merge import largest_differences, merge_curves, merge_runs
from localbo.gallery.parts import config_copy, ran_noise_levels, renewed_runs
from localbo.gallery.provenance import (
    last_added,
    mark_added,
    recorded_path,
    run_record,
    same_software,
)
from localbo.io import atomic_path, load_csv, load_json, made_files, save_csv, save_json
from localbo.methods.local_bo import LocalBO
from localbo.optimizers import optimizer_class
from localbo.pipeline.fig1 import Fig1Jobs
from localbo.pipeline.files import gallery_name
from localbo.pipeline.local_solutions_figure import local_solutions_figure
from localbo.pipeline.progress import CURVE_COLUMNS
from localbo.pipeline.settings import load_settings, merged_config
from localbo.plotting import save_figure

# an output path a rules file names, in quotes: "figures/x.png", "results/fig2/x.csv", or with
# wildcards, "results/gradient_estimation/draws/{case}_{procedure}.csv"
OUTPUT = re.compile(r'"((?:figures|results)/[^"]+)"')
WILDCARD = re.compile(r"\{\w+\}")


def figure_of_output(rules_dir: Path) -> dict[str, str]:
    """Each output path the rules files name -> the figure (rules file) that names it; a path
    with wildcards stands as a regular expression matching its files, one name part each."""
    found: dict[str, str] = {}
    for smk in sorted(rules_dir.glob("*.smk")):
        for path in OUTPUT.findall(smk.read_text()):
            parts = [re.escape(part) for part in WILDCARD.split(path)]
            found.setdefault("[^/]+".join(parts), smk.stem)
    return found


def figure_of_file(figure_of: dict[str, str], relative: Path) -> str | None:
    """The figure a run's file belongs to, if a rules file names it as an output."""
    return next((f for p, f in figure_of.items() if re.fullmatch(p, str(relative))), None)


# Fig. 1's table and figure in a run directory (the fig1_table and fig1_plot rules' outputs)
RUN_TABLE = Path("results", "fig1", "local_solutions.csv")
RUN_FIGURE = Path("figures", "fig1_local_solutions.png")
RUN_CURVES = Path("results", "fig1", "curves.csv")
# Fig. 3's tables in a run directory (the fig3_table rule's outputs): each other path's curve,
# and the main path's curve; its runs' table and figure are kept with them
FIG3_OTHERS = Path("results", "fig3", "other_paths.csv")
FIG3_MAIN = Path("results", "fig3", "best_after_restarts.csv")


def method_labels(configs: list[Path], methods: set[str]) -> tuple[dict[str, str], dict[str, str]]:
    """Each drawn method's label in panel order: the config files' (`Fig1Jobs.labels`, in the
    order of fig1.methods, config/config.yaml's, which every part shares; later files may add
    methods or leave some out), then any other method of the table that is registered by its
    name, in name order. A method the configs name but do not draw, or a variant they do not
    name, is not drawn. And each method's colour: by its place among the configs' methods, the
    registered others after them (`localbo.colors.method_colors`)."""
    fig1 = load_settings(merged_config(configs)).fig1
    labels = Fig1Jobs(0, fig1).labels()
    others = []
    for method in sorted(methods - set(fig1.methods.methods)):
        try:
            labels[method] = optimizer_class(method).label
        except ValueError:  # a variant the configs do not name
            continue
        others.append(method)
    colors = method_colors([*fig1.methods.methods, *others])
    return {m: label for m, label in labels.items() if m in methods}, colors


def add_run(
    run: Path,
    gallery: Path,
    configs: list[Path],
    repo: Path,
    code: Path | None = None,
    supersede: frozenset[str] = frozenset(),
    replace: frozenset[str] = frozenset(),
) -> list[Path]:
    """Add the figures and tables of the run directory `run` to `gallery` (the module
    docstring), made with `configs`; the part's runs of the `supersede` methods replace the
    gallery's Fig. 1 runs of the same (d, sigma, path), and the run's files of the `replace`
    figures the gallery's, where they would grow it.

    Every check passes and every file is written beside its place before they are renamed into
    place, the provenance last.

    Returns:
        The files written.

    Raises:
        ModifiedTree: the run's code has uncommitted changes.
        ValueError: the run made no figure or table the rules name, a Fig. 1 run of a method
            its configs do not name, `supersede` without a Fig. 1 table to supersede in, a run
            that differs from the gallery's with the gallery's software, or a run that adds
            nothing.
    """
    provenance = (
        load_json(gallery / "provenance.json")
        if (gallery / "provenance.json").exists()
        else {"runs": {}, "figures": {}}
    )
    name = f"run{len(provenance['runs']) + 1}"
    figure_of = figure_of_output(repo / "workflow" / "rules")
    made: dict[str, dict[Path, Path]] = {}  # figure -> {gallery file: run file}
    for source in made_files(run, "figures/*.png") + made_files(run, "results/**/*.csv"):
        relative = source.relative_to(run)
        if figure := figure_of_file(figure_of, relative):
            made.setdefault(figure, {})[gallery / gallery_name(relative)] = source
    if not made:
        raise ValueError(f"{run} made no figure or table of the rules in {repo}")
    copies = [(c, config_copy(gallery, name, c.name)) for c in configs]
    started, after = time.time(), last_added(run, gallery)
    recorded = {recorded_path(c, copy, repo): c for c, copy in copies}
    record = run_record(run, recorded, repo, code, after)
    record["figures"] = sorted(made)
    figures = dict(provenance["figures"])
    writes: dict[Path, Any] = {copy: config for config, copy in copies}
    for figure, files in made.items():
        figures[figure] = {"runs": [name], "files": sorted(f.name for f in files)}
        writes.update(files)
    if supersede and "fig1" not in made:
        raise ValueError(f"{run} has no Fig. 1 runs to supersede the gallery's with")
    if "fig1" in made:
        held, new = provenance["figures"].get("fig1"), load_csv(run / RUN_TABLE)
        sections = merged_config(configs).get("fig1", {}).get("methods", {})
        if held is None and supersede:
            raise ValueError(f"{gallery} has no Fig. 1 runs to supersede")
        if held is None:
            record["fig1"] = {"runs_added": len(new), "runs_reproduced": 0}
        else:
            _check_methods(run, new, sections)
            rows, columns, record["fig1"] = _grow_fig1(
                run, new, gallery, configs, provenance, record, supersede
            )
            if (run / RUN_CURVES).exists():
                curves = gallery / gallery_name(RUN_CURVES)
                held_curves = load_csv(curves) if curves.exists() else []
                merged, record["fig1"]["curves_added"] = merge_curves(
                    held_curves, load_csv(run / RUN_CURVES)
                )
                writes[curves] = (merged, CURVE_COLUMNS)
            counts = record["fig1"]
            grew = counts["runs_added"] + counts["runs_superseded"] + counts["runs_renewed"]
            if not grew + counts.get("curves_added", 0) and made.keys() == {"fig1"}:
                raise ValueError(f"{run} adds no run to {gallery}: its runs are there already")
            figures["fig1"] = {**held, "runs": [*held["runs"], name]}
            writes[gallery / gallery_name(RUN_TABLE)] = (rows, columns)
            writes[gallery / gallery_name(RUN_FIGURE)] = configs  # drawn from that table
        # what a section leaves to the code's default may differ by then (`localbo.gallery.parts`)
        named = [name for name, section in sections.items() if section is not None]
        record["fig1"]["noise_levels"] = ran_noise_levels(new, named)
    if "fig3" in made and "fig3" in provenance["figures"] and "fig3" not in replace:
        rows, record["fig3"] = _grow_fig3(run, gallery, provenance, record)
        if not record["fig3"]["paths_added"] and made.keys() == {"fig3"}:
            raise ValueError(f"{run} adds no Fig. 3 path to {gallery}: its paths are there")
        held = provenance["figures"]["fig3"]
        figures["fig3"] = {**held, "runs": [*held["runs"], name]}
        for path in made["fig3"]:
            del writes[path]  # the gallery's main path and figure stay
        writes[gallery / gallery_name(FIG3_OTHERS)] = (rows, list(rows[0]))
    provenance = tallied(figures, {**provenance["runs"], name: record})
    _write(writes, gallery / "provenance.json", provenance)
    mark_added(run, gallery, started)
    return [*writes, gallery / "provenance.json"]


def tallied(figures: dict[str, Any], runs: dict[str, Any]) -> dict[str, Any]:
    """A gallery's provenance from its figures' entries and its runs' records: each figure's
    CPU-hours, the sum of its runs', and the total over the runs."""
    for figure, entry in figures.items():
        entry["cpu_hours"] = sum(
            runs[r]["cpu_hours_per_figure"].get(figure, 0.0) for r in entry["runs"]
        )
    total = sum(r["cpu_hours_per_figure"].get("all", 0.0) for r in runs.values())
    return {"cpu_hours": total, "figures": dict(sorted(figures.items())), "runs": runs}


def _check_methods(run: Path, new: list[dict[str, str]], sections: dict[str, Any]) -> None:
    """Every method of the run's Fig. 1 table (`new`, its rows) is named by its configs'
    `fig1.methods` (`sections`, null or not) or registered.

    Raises:
        ValueError: a method neither names.
    """
    named = set(sections)
    unknown = []
    for method in sorted({row["method"] for row in new} - named):
        try:
            optimizer_class(method)
        except ValueError:
            unknown.append(method)
    if unknown:
        raise ValueError(
            f"{run} has Fig. 1 runs of {', '.join(unknown)}, which its configs do not name and "
            f"no method registers"
        )


def _grow_fig1(
    run: Path,
    new: list[dict[str, str]],
    gallery: Path,
    configs: list[Path],
    provenance: dict[str, Any],
    record: dict[str, Any],
    supersede: frozenset[str],
) -> tuple[list[dict[str, str]], list[str], dict[str, Any]]:
    """The gallery's Fig. 1 table with the run's runs (`new`, its table's rows) merged in, its
    columns, and the part's counts (the module docstring).

    Raises:
        ValueError: a method to supersede the run has no runs of, or a run that differs from
            the gallery's with the gallery's software.
    """
    held = load_csv(gallery / gallery_name(RUN_TABLE))
    absent = sorted(supersede - {row["method"] for row in new})
    if absent:
        raise ValueError(f"{run} has no runs of {', '.join(absent)} to supersede the gallery's")
    rows, columns, reproduced, superseded, differences = merge_runs(held, new, supersede)
    parts = [provenance["runs"][r] for r in provenance["figures"]["fig1"]["runs"]]
    if differences and all(same_software(p.get("software"), record["software"]) for p in parts):
        cell, gap = max(differences.items(), key=lambda item: item[1])
        raise ValueError(
            f"with the gallery's software, {len(differences)} cells came back "
            f"different (largest: {cell}, value by {gap:.3g}): the pipeline does not reproduce "
            f"itself"
        )
    renewed = renewed_runs(gallery, configs, held, reproduced, supersede) if supersede else 0
    counts = {
        "runs_added": len(rows) - len(held),
        "runs_superseded": superseded,
        "runs_renewed": renewed,
        "supersede": sorted(supersede),
        "runs_reproduced": len(reproduced),
        "runs_differing": len(new) - (len(rows) - len(held)) - len(reproduced) - superseded,
        "largest_value_difference": differences,
    }
    return rows, columns, counts


def _grow_fig3(
    run: Path, gallery: Path, provenance: dict[str, Any], record: dict[str, Any]
) -> tuple[list[dict[str, str]], dict[str, Any]]:
    """The gallery's Fig. 3 other-paths table with the run's new paths added, and the part's
    counts (the module docstring).

    Raises:
        ValueError: a curve the gallery holds comes back different with the gallery's
            software.
    """
    held, new = load_csv(gallery / gallery_name(FIG3_OTHERS)), load_csv(run / FIG3_OTHERS)
    differences = largest_differences(held, new, lambda row: f"path {row['path']}")
    main = load_csv(gallery / gallery_name(FIG3_MAIN)), load_csv(run / FIG3_MAIN)
    differences.update(largest_differences(*main, lambda row: "main path"))
    parts = [provenance["runs"][r] for r in provenance["figures"]["fig3"]["runs"]]
    if differences and all(same_software(p.get("software"), record["software"]) for p in parts):
        raise ValueError(
            f"with the gallery's software, the Fig. 3 curves of {', '.join(differences)} came "
            "back different: the pipeline does not reproduce itself"
        )
    paths = {row["path"] for row in held}
    added = [row for row in new if row["path"] not in paths]
    rows = sorted(held + added, key=lambda r: (int(r["path"]), int(r["restarts"])))
    again = paths & {row["path"] for row in new}
    counts = {
        "paths_added": sorted({int(row["path"]) for row in added}),
        "paths_reproduced": len({f"path {p}" for p in again} - set(differences)),
        "largest_median_difference": differences,
    }
    return rows, counts


def _write(writes: dict[Path, Any], provenance_file: Path, provenance: dict[str, Any]) -> None:
    """Stage every file beside its place (a run's file is copied; a grown table is written from
    its rows; Fig. 1's figure is drawn from its grown table with the configs' labels), then
    rename them into place, the provenance last."""
    with ExitStack() as staged:
        tables: dict[Path, Path] = {}  # a grown table's place -> where it is staged
        for target, what in writes.items():
            target.parent.mkdir(parents=True, exist_ok=True)
            path = staged.enter_context(atomic_path(target, suffix=target.suffix))
            if isinstance(what, Path):
                shutil.copyfile(what, path)
            elif isinstance(what, tuple):
                save_csv(path, *what)
                tables[target] = path
            else:
                table = pd.read_csv(tables[target.parent / gallery_name(RUN_TABLE)])
                labels, colors = method_labels(what, set(table["method"]))
                layout = load_settings(merged_config(what)).fig1.layout
                figure = local_solutions_figure(table, labels, layout, LocalBO.name, colors)
                save_figure(figure, None, path)
        save_json(staged.enter_context(atomic_path(provenance_file, suffix=".json")), provenance)
