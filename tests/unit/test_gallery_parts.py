"""Which part of the gallery's Fig. 1 made each run, replayed from its provenance and its copies
of the parts' configs, and the runs `still_to_run` lists as made at other settings."""

import copy
import hashlib
import json
from pathlib import Path
from types import SimpleNamespace

import pytest
import yaml

from localbo.gallery.parts import asked_runs, config_copy, made_by, run_key
from localbo.gallery.still_to_run import other_settings, report
from localbo.io import load_csv, save_json
from localbo.pipeline.settings import load_settings, merged_config

REPO = Path(__file__).resolve().parents[2]
CONFIG = REPO / "config" / "config.yaml"
# parts of a GP-UCB cell: paths 0-5 at 50 refinement iterations, then paths 0-2 again at the
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


def add_part(gallery: Path, parts: dict, stop: int, iterations: int, **counts) -> None:
    """A part's record as the gallery writes it, its copies of the configs in the gallery: the
    configs named by their paths in the repository, but run1's override, which is named by its
    copy's (an override from outside the repository: `provenance.recorded_path`)."""
    name, digest, recorded = f"run{len(parts) + 1}", hashlib.sha256(), []
    for base, text in (("config.yaml", CONFIG.read_text()), ("part.yaml", PART)):
        text = text.format(stop=stop, iterations=iterations) if base == "part.yaml" else text
        copy = config_copy(gallery, name, base)
        copy.parent.mkdir(exist_ok=True)
        copy.write_text(text)
        digest.update(text.encode())
        if base == "config.yaml":
            recorded.append(f"config/{base}")
        else:
            recorded.append(f"figures/gallery/configs/{copy.name}" if name == "run1" else base)
    parts[name] = {"configs": recorded, "config_sha256": digest.hexdigest(), "fig1": counts}


def held_runs() -> set:
    """The table of the parts: GP-UCB d = 1 paths 0-5 and every cheap run of config.yaml."""
    settings = load_settings(merged_config([CONFIG]))
    held = {("gp_ucb", 1, 0.0, i) for i in range(6)}
    for name in ("local_bo", "random_search", "exact_gradient"):
        for sigma in settings.fig1.method(name).jobs.noise_levels:
            held |= {(name, d, sigma, i) for d in settings.fig1.dims for i in range(50)}
    return held


def gallery_of(tmp_path: Path, iterations: int = 15, **second) -> Path:
    """Two parts: paths 0-5 at 50 refinement iterations, then paths 0-2 at `iterations`."""
    gallery, parts = tmp_path / "gallery", {}
    gallery.mkdir()
    add_part(gallery, parts, 6, 50, runs_added=len(held_runs()))
    add_part(gallery, parts, 3, iterations, **second)
    figures = {"fig1": {"runs": list(parts)}}
    save_json(gallery / "provenance.json", {"figures": figures, "runs": parts})
    return gallery


@pytest.fixture
def gallery(tmp_path):
    return gallery_of(tmp_path, runs_added=0, runs_superseded=3, runs_reproduced=0)


def test_each_run_is_the_part_that_made_it_or_superseded_it(gallery):
    made = made_by(gallery, held_runs())
    assert [made[("gp_ucb", 1, 0.0, i)][0] for i in range(6)] == ["run2"] * 3 + ["run1"] * 3
    assert made[("gp_ucb", 1, 0.0, 4)][1]["method_settings"]["refine_iterations"] == 50
    assert sum(part == "run2" for part, _ in made.values()) == 3  # the runs it superseded only
    assert sum(part == "run1" for part, _ in made.values()) == len(held_runs()) - 3


def test_the_runs_at_other_settings_than_the_configs_are_listed_with_what_differs(gallery):
    settings = load_settings(merged_config([CONFIG]))
    other = other_settings(asked_runs(settings), made_by(gallery, held_runs()))
    assert other == {("gp_ucb", 1, 0.0): ([3, 4, 5], ["refine_iterations 50, now 15"])}
    lines = report(settings, {}, other)
    assert lines[0].startswith(
        "gp_ucb d=1 sigma=0: 3 runs at other settings (refine_iterations 50, now 15); paths 3-5 "
        "to run again (--supersede gp_ucb), about "
    )
    assert "to run again at the config's settings: 3 runs" in lines[-1]


def test_a_superseding_rerun_that_came_back_equal_still_replays(tmp_path):
    """`gallery --add --supersede` counts a rerun equal to the gallery's row as reproduced, not
    superseded; at the new settings it is the new part's run all the same."""
    gallery = gallery_of(tmp_path, runs_added=0, runs_superseded=2, runs_reproduced=1)
    made = made_by(gallery, held_runs())
    assert [made[("gp_ucb", 1, 0.0, i)][0] for i in range(3)] == ["run2"] * 3


def test_a_part_that_renewed_runs_made_them(tmp_path):
    """A part added with --supersede whose reruns all came back equal (`runs_renewed`, nothing
    superseded) made them at its settings; a replay that gives it another count is refused."""
    counts = {"runs_added": 0, "runs_superseded": 0, "runs_reproduced": 3, "supersede": ["gp_ucb"]}
    (tmp_path / "a").mkdir(), (tmp_path / "b").mkdir()
    made = made_by(gallery_of(tmp_path / "a", runs_renewed=3, **counts), held_runs())
    assert [made[("gp_ucb", 1, 0.0, i)][0] for i in range(6)] == ["run2"] * 3 + ["run1"] * 3
    with pytest.raises(ValueError, match="run2 made 4 to 7 runs, its configs replay to 3"):
        made_by(gallery_of(tmp_path / "b", runs_renewed=4, **counts), held_runs())


def test_a_part_that_superseded_a_method_at_unchanged_settings_made_its_runs(tmp_path):
    """After a change of a method's code, a part reruns it at the same settings with --supersede:
    the runs it superseded are its own, though their settings equal the earlier part's."""
    counts = {"runs_added": 0, "runs_superseded": 3, "runs_reproduced": 0, "supersede": ["gp_ucb"]}
    made = made_by(gallery_of(tmp_path, iterations=50, **counts), held_runs())
    assert [made[("gp_ucb", 1, 0.0, i)][0] for i in range(6)] == ["run2"] * 3 + ["run1"] * 3


def test_a_part_supersedes_only_the_methods_it_records(tmp_path):
    gallery = gallery_of(
        tmp_path, runs_added=0, runs_superseded=3, runs_reproduced=0, supersede=["mpd"]
    )
    with pytest.raises(ValueError, match="run2 made 3 runs, its configs replay to 0"):
        made_by(gallery, held_runs())  # no GP-UCB run may move to it


def test_a_part_replays_at_the_noise_levels_it_recorded(gallery):
    """A part's recorded noise levels decide its runs, whatever the code's defaults say now:
    recorded at 0.05 only, the first part made none of the held noiseless GP-UCB runs."""
    provenance = json.loads((gallery / "provenance.json").read_text())
    levels = {"gp_ucb": [0.05]}
    assert {key[2] for key, _ in asked_runs(load_settings(merged_config([CONFIG])), levels)
            if key[0] == "gp_ucb"} == {0.05}  # fmt: skip
    provenance["runs"]["run1"]["fig1"]["noise_levels"] = levels
    provenance["runs"]["run1"]["fig1"]["runs_added"] -= 6  # its GP-UCB runs at sigma = 0
    provenance["runs"]["run2"]["fig1"].update(runs_added=3, runs_superseded=0)
    save_json(gallery / "provenance.json", provenance)
    made = made_by(gallery, held_runs())
    assert [made[("gp_ucb", 1, 0.0, i)][0] for i in range(3)] == ["run2"] * 3
    assert all(("gp_ucb", 1, 0.0, i) not in made for i in range(3, 6))


def test_the_committed_gallery_replays_to_every_run_of_its_table():
    """Each part of figures/gallery replays to the runs it recorded, and together they made
    every run of its Fig. 1 table."""
    gallery = REPO / "figures" / "gallery"
    held = {run_key(row) for row in load_csv(gallery / "fig1-local_solutions.csv")}
    assert set(made_by(gallery, held)) == held


def test_a_replay_that_does_not_give_a_part_its_recorded_runs_is_refused(gallery):
    provenance = json.loads((gallery / "provenance.json").read_text())
    provenance["runs"]["run2"]["fig1"]["runs_superseded"] = 4
    save_json(gallery / "provenance.json", provenance)
    with pytest.raises(ValueError, match="run2 made 4 runs, its configs replay to 3"):
        made_by(gallery, held_runs())


def test_config_copies_other_than_the_files_a_part_ran_are_refused(gallery):
    config_copy(gallery, "run2", "part.yaml").write_text(PART.format(stop=3, iterations=16))
    with pytest.raises(ValueError, match="run2: the copies of its configs are not"):
        made_by(gallery, held_runs())
    config_copy(gallery, "run2", "part.yaml").unlink()
    with pytest.raises(ValueError, match=r"run2: no copy of its config part\.yaml"):
        made_by(gallery, held_runs())


def test_a_jobs_params_are_its_runs_settings_and_paths_in_the_recorded_order():
    """Snakemake compares a job's params with those it recorded: the keys keep their order
    (paths after the box), or every finished Fig. 1 job of a run directory would run again."""
    jobs = load_settings(copy.deepcopy(yaml.safe_load(CONFIG.read_text()))).fig1_jobs()
    wildcards = SimpleNamespace(method="gp_ucb", d="10", sigma="0.0", chunk="2")
    params = jobs.run_params(wildcards)
    assert list(params) == [
        "seed", "kernel", "lengthscale", "outputscale", "num_features", "budget", "box",
        "paths", "module", "method_settings",
    ]  # fmt: skip
    assert {k: v for k, v in params.items() if k != "paths"} == jobs.run_settings("gp_ucb", 0.0)
    assert params["paths"] == jobs.chunks("gp_ucb")[2]
