"""Redraw the gallery's figures from its committed tables, with the code checked out now.

    python -m localbo.gallery redraw [--cores N]

Snakemake runs the pipeline in a scratch directory with `config/redraw.yaml` (`redraw_from`: the
plot rules read the gallery's tables, and only they run, with Figs. 4 and 5's estimate jobs,
seconds), and each figure's PNG replaces the gallery's. A table made from other figures' tables
alone (the method and paper comparisons) is made again from the gallery's and replaces its copy;
such a figure is `derived` in the provenance, with no run of its own. The provenance notes for
each figure the commit and date it was drawn at (`drawn`); the other tables and the runs are
unchanged. The code must be committed, as for a run the gallery takes.
"""

from __future__ import annotations

import datetime
import subprocess
import sys
import tempfile
from pathlib import Path

from localbo.gallery.add import figure_of_file, figure_of_output
from localbo.gallery.provenance import commit_of
from localbo.io import atomic_path, load_json, save_json
from localbo.pipeline.files import gallery_name

REDRAW = Path("config/redraw.yaml")


def redraw(gallery: Path, repo: Path, cores: int = 2) -> list[Path]:
    """Redraw every figure of `gallery` (a folder of `repo`) from its tables.

    Returns:
        The PNGs written, and the provenance.

    Raises:
        ModifiedTree: the repository has uncommitted changes.
        subprocess.CalledProcessError: Snakemake failed (its output is printed).
    """
    commit = commit_of(repo)
    where = gallery.resolve().relative_to(repo.resolve())
    with tempfile.TemporaryDirectory(prefix="redraw-") as work:
        command = [sys.executable, "-m", "snakemake", "-s", str(repo / "Snakefile")]
        command += ["--directory", work, "--cores", str(cores), "--configfile", str(repo / REDRAW)]
        command += ["--config", f"redraw_from={where}"]
        subprocess.run(command, check=True)
        provenance = load_json(gallery / "provenance.json")
        date = datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")
        figure_of = figure_of_output(repo / "workflow" / "rules")
        made = sorted(Path(work, "figures").glob("*.png"))
        made += sorted(Path(work, "results").rglob("*.csv"))  # made from the gallery's tables
        written = []
        for source in made:
            relative = source.relative_to(work)
            figure = figure_of_file(figure_of, relative)
            entry = provenance["figures"].get(figure)
            if figure is None or (source.suffix == ".csv" and entry and not entry.get("derived")):
                continue  # not the rules' output, or a table of a run the gallery holds
            if entry is None or entry.get("derived"):  # made from other figures' tables alone
                entry = provenance["figures"][figure] = {**(entry or {"files": []}),
                                                         "runs": [], "derived": True}  # fmt: skip
            target = gallery / gallery_name(relative)
            if target.name not in entry["files"]:
                entry["files"] = sorted([*entry["files"], target.name])
            with atomic_path(target, suffix=target.suffix) as path:
                path.write_bytes(source.read_bytes())
            entry["drawn"] = {"commit": commit, "date": date}
            written.append(target)
    save_json(gallery / "provenance.json", provenance)
    return [*written, gallery / "provenance.json"]
