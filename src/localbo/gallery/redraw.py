"""Redraw the gallery's figures from its committed tables, with the code checked out now.

    python -m localbo.gallery redraw [--cores N]

Snakemake runs the pipeline in a scratch directory with `config/redraw.yaml` (`redraw_from`: the
plot rules read the gallery's tables, and only they run, with Figs. 4 and 5's estimate jobs,
seconds), and each figure's PNG replaces the gallery's. The provenance notes for each figure the
commit and date it was drawn at (`drawn`); its tables and runs are unchanged. The code must be
committed, as for a run the gallery takes.
"""

from __future__ import annotations

import datetime
import subprocess
import sys
import tempfile
from pathlib import Path

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
        written = []
        for png in sorted(Path(work, "figures").glob("*.png")):
            target = gallery / gallery_name(png.relative_to(work))
            holder = [f for f, e in provenance["figures"].items() if target.name in e["files"]]
            if not holder:
                continue  # a figure the gallery does not hold
            with atomic_path(target, suffix=".png") as path:
                path.write_bytes(png.read_bytes())
            provenance["figures"][holder[0]]["drawn"] = {"commit": commit, "date": date}
            written.append(target)
    save_json(gallery / "provenance.json", provenance)
    return [*written, gallery / "provenance.json"]
