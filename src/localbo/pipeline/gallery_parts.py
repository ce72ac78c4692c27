"""Which part of a gallery grown by parts made each of its Fig. 1 runs, and at which settings.

The provenance lists the parts in order, each with the config files it ran with (a copy in the
gallery, or a file of the repository at the part's commit, `gallery.recorded_path`) and their
SHA-256. Replaying the parts gives every run of the table its part: a part made the runs its
config asked for that no earlier part had made, and, where it superseded (`runs_superseded`),
those an earlier part had made at other settings. The replay must give each part as many runs as
it recorded (`runs_added` plus `runs_superseded`), or it is refused.

A run's settings are what decides it besides its (method, d, sigma, path), `Fig1Jobs.run_settings`:
the path's parameters, the budget, the box, the method's module and the knobs it reads. A run
whose settings differ from a config's is not that config's run, though it fills its place in the
table (`still_to_run` lists them). A change of the code that keeps the settings is not seen here.
"""

from __future__ import annotations

import hashlib
import subprocess
from pathlib import Path
from typing import Any

import yaml
from snakemake.utils import update_config

from localbo.io import load_json
from localbo.pipeline.settings import PipelineSettings, load_settings

RunKey = tuple[str, int, float, int]  # method, d, sigma, path


def recorded_file(recorded: str, gallery: Path, repo: Path, commit: str) -> bytes:
    """The bytes of a config file as a part recorded it: a bare name is a copy in the gallery
    (a gallery outside the repository), a path in the gallery is its copy there, and any other
    path is the repository's file at the part's commit."""
    path = Path(recorded)
    if path.parent == Path("."):
        return (gallery / path).read_bytes()
    if (repo / path).resolve().is_relative_to(gallery.resolve()):
        return (repo / path).read_bytes()
    show = ["git", "-C", str(repo), "show", f"{commit.removesuffix('-dirty')}:{recorded}"]
    done = subprocess.run(show, capture_output=True)
    if done.returncode != 0:
        raise ValueError(f"cannot read {recorded} at {commit}: {done.stderr.decode().strip()}")
    return done.stdout


def part_settings(part: dict[str, Any], gallery: Path, repo: Path) -> PipelineSettings:
    """The settings a part ran with, from its config files merged as Snakemake merges them.

    Raises:
        ValueError: a file cannot be read, or the files are not those the part recorded (their
            SHA-256 differs).
    """
    config: dict[str, Any] = {}
    digest = hashlib.sha256()
    for recorded in part["configs"]:
        text = recorded_file(recorded, gallery, repo, part["commit"])
        digest.update(text)
        update_config(config, yaml.safe_load(text) or {})
    if digest.hexdigest() != part["config_sha256"]:
        raise ValueError(f"the config files of the part at {part['commit']} are not those it ran")
    return load_settings(config)


def asked_runs(settings: PipelineSettings) -> list[tuple[RunKey, dict[str, Any]]]:
    """Every run a config asks for, with its settings."""
    fig1, jobs = settings.fig1, settings.fig1_jobs()
    asked = []
    for name, method in fig1.methods.methods.items():
        for sigma in method.jobs.noise_levels:
            run = jobs.run_settings(name, sigma)
            asked += [
                ((name, d, sigma, i), run) for d in fig1.dims_of(name) for i in fig1.paths_of(name)
            ]
    return asked


def made_by(
    gallery: Path, held: set[RunKey], repo: Path
) -> dict[RunKey, tuple[int, dict[str, Any]]]:
    """Each run of the table (`held`) -> (its part, counted from 1, and its settings).

    A gallery made from one run (no "parts" in its provenance) is its one part.

    Raises:
        ValueError: a part's configs cannot be read as recorded, or the replay gives a part
            another count of runs than it recorded.
    """
    provenance = load_json(gallery / "provenance.json")
    parts = provenance.get("parts", [provenance])
    made: dict[RunKey, tuple[int, dict[str, Any]]] = {}
    for k, part in enumerate(parts, 1):
        count = 0
        for key, run in asked_runs(part_settings(part, gallery, repo)):
            earlier = made.get(key)
            replaced = earlier is not None and part.get("runs_superseded") and earlier[1] != run
            if key in held and (earlier is None or replaced):
                made[key] = (k, run)
                count += 1
        recorded = part.get("runs_added", len(held)) + part.get("runs_superseded", 0)
        if "parts" in provenance and count != recorded:
            raise ValueError(f"part {k} made {recorded} runs, its configs replay to {count}")
    return made
