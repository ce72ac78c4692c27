"""Which part of a gallery grown by parts made each run, replayed from its provenance, and the
runs `still_to_run` lists as made at other settings than the config's."""

import hashlib
import subprocess
from pathlib import Path

import pytest

from localbo.io import save_json
from localbo.pipeline.gallery_parts import made_by, part_settings
from localbo.pipeline.settings import load_settings, merged_config
from localbo.pipeline.still_to_run import other_settings, report

REPO = Path(__file__).resolve().parents[2]
# two parts of a GP-UCB cell: paths 0-5 at 50 refinement iterations, then paths 0-2 again at the
# default 15, superseding them
PART = """
fig1:
  methods:
    turbo: null
    mpd: null
    gp_ucb:
      dims: [1]
      path_range: [0, {stop}]
      refine_iterations: {iterations}
"""


def add_part(gallery: Path, parts: list[dict], stop: int, iterations: int, **counts) -> None:
    """A part's record as `gallery --add` writes it, its configs copied into the gallery."""
    k = len(parts) + 1
    base, override = f"config-part{k}-config.yaml", f"config-part{k}-part.yaml"
    (gallery / base).write_bytes((REPO / "config" / "config.yaml").read_bytes())
    (gallery / override).write_text(PART.format(stop=stop, iterations=iterations))
    digest = hashlib.sha256((gallery / base).read_bytes() + (gallery / override).read_bytes())
    parts.append(
        {"commit": "0" * 40, "configs": [base, override], "config_sha256": digest.hexdigest()}
        | counts
    )


def held_runs() -> set:
    """The table of both parts: GP-UCB d = 1 paths 0-5 and every cheap run of config.yaml."""
    settings = load_settings(merged_config([REPO / "config" / "config.yaml"]))
    cheap = {"local_bo", "random_search", "exact_gradient"}
    held = {("gp_ucb", 1, 0.0, i) for i in range(6)}
    for name in cheap:
        for sigma in settings.fig1.method(name).jobs.noise_levels:
            held |= {(name, d, sigma, i) for d in settings.fig1.dims for i in range(50)}
    return held


@pytest.fixture
def gallery(tmp_path):
    gallery, parts, held = tmp_path / "gallery", [], held_runs()
    gallery.mkdir()
    add_part(gallery, parts, 6, 50, runs_added=len(held))
    add_part(gallery, parts, 3, 15, runs_added=0, runs_superseded=3)
    save_json(gallery / "provenance.json", {"parts": parts})
    return gallery


def test_each_run_is_the_part_that_made_it_or_superseded_it(gallery):
    made = made_by(gallery, held_runs(), REPO)
    assert [made[("gp_ucb", 1, 0.0, i)][0] for i in range(6)] == [2, 2, 2, 1, 1, 1]
    assert made[("gp_ucb", 1, 0.0, 4)][1]["method_settings"]["refine_iterations"] == 50
    assert sum(part == 2 for part, _ in made.values()) == 3  # the runs it superseded only
    assert sum(part == 1 for part, _ in made.values()) == len(held_runs()) - 3


def test_the_runs_at_other_settings_than_the_configs_are_listed_with_what_differs(gallery):
    settings = load_settings(merged_config([REPO / "config" / "config.yaml"]))
    other = other_settings(settings, made_by(gallery, held_runs(), REPO))
    assert other == {("gp_ucb", 1, 0.0): ([3, 4, 5], ["refine_iterations 50, now 15"])}
    lines = report(settings, {}, other)
    assert lines[0].startswith(
        "gp_ucb d=1 sigma=0: 3 runs at other settings (refine_iterations 50, now 15); paths 3-5 "
        "to run again (--supersede gp_ucb), about "
    )
    assert "to run again at the config's settings: 3 runs" in lines[-1]


def test_a_replay_that_does_not_give_a_part_its_recorded_runs_is_refused(gallery):
    provenance = gallery / "provenance.json"
    record = provenance.read_text().replace('"runs_superseded": 3', '"runs_superseded": 4')
    provenance.write_text(record)
    with pytest.raises(ValueError, match="part 2 made 4 runs, its configs replay to 3"):
        made_by(gallery, held_runs(), REPO)


def test_config_files_other_than_those_a_part_ran_are_refused(gallery):
    (gallery / "config-part2-part.yaml").write_text(PART.format(stop=3, iterations=16))
    with pytest.raises(ValueError, match="not those it ran"):
        made_by(gallery, held_runs(), REPO)


def test_a_config_of_the_repository_is_read_at_the_parts_commit(tmp_path):
    """Parts 1-18 of the paper-scale gallery name config/config.yaml, as it was at their
    commit, which may differ from the working tree's."""
    head = subprocess.run(
        ["git", "-C", str(REPO), "rev-parse", "HEAD"], capture_output=True, text=True, check=True
    ).stdout.strip()
    committed = subprocess.run(
        ["git", "-C", str(REPO), "show", f"{head}:config/config.yaml"],
        capture_output=True,
        check=True,
    ).stdout
    part = {
        "commit": head,
        "configs": ["config/config.yaml"],
        "config_sha256": hashlib.sha256(committed).hexdigest(),
    }
    assert part_settings(part, tmp_path, REPO).fig1.num_paths == 50
    with pytest.raises(ValueError, match="cannot read"):
        part_settings({**part, "configs": ["config/no-such.yaml"]}, tmp_path, REPO)
