"""The gallery: a run's PNGs and tables copied with its record, Fig. 1's table grown by parts."""

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from localbo.gallery.__main__ import main as gallery_main
from localbo.gallery.add import (
    RUN_CURVES,
    RUN_FIGURE,
    RUN_TABLE,
    add_run,
    figure_of_file,
    figure_of_output,
    method_labels,
)
from localbo.gallery.parts import made_by, run_key
from localbo.gallery.provenance import (
    ModifiedTree,
    figure_of_rule,
    iso_date,
    last_added,
    same_software,
    software,
)
from localbo.io import load_csv, load_json, save_json
from localbo.pipeline.fig1 import Fig1Jobs
from localbo.pipeline.job_cpu import RESUMED_RULE, RESUMED_SUMMARIES
from localbo.pipeline.settings import load_settings, merged_config

REPO = Path(__file__).resolve().parents[2]


def files_of(gallery: Path) -> dict[str, bytes]:
    return {
        f.relative_to(gallery).as_posix(): f.read_bytes() for f in gallery.rglob("*") if f.is_file()
    }


HEADER = "s\th:m:s\tmax_rss\tmax_vms\tmax_uss\tmax_pss\tio_in\tio_out\tmean_load\tcpu_time\n"


def git(code: Path, *args: str) -> str:
    command = ["git", "-C", str(code), "-c", "user.name=t", "-c", "user.email=t@t", *args]
    return subprocess.run(command, capture_output=True, text=True, check=True).stdout.strip()


@pytest.fixture(scope="module")
def code(tmp_path_factory) -> Path:
    """A checkout with nothing uncommitted, as the code of the runs (`--code`): the tests must
    not depend on whether this repository's tree is clean."""
    code = tmp_path_factory.mktemp("code")
    subprocess.run(["git", "init", "-q", str(code)], check=True)
    git(code, "commit", "-q", "--allow-empty", "-m", "pinned")
    return code


def add(run: Path, gallery: Path, configs: list[Path], code: Path, **options) -> list[Path]:
    return add_run(run, gallery, configs, REPO, code, **options)


def test_gallery_copies_figures_and_tables_and_sums_cpu_hours(tmp_path, code):
    run = tmp_path / "run"
    (run / "figures").mkdir(parents=True)
    (run / "figures" / "fig1_local_solutions.png").write_bytes(b"png")
    (run / "figures" / "fig1_local_solutions.pdf").write_bytes(b"pdf")
    # a plot job killed while it wrote leaves its temporary file (localbo.io.atomic_path)
    (run / "figures" / ".fig3_restarts.png.k2x9.png").write_bytes(b"half a png")
    (run / "results" / "fig1").mkdir(parents=True)
    (run / "results" / "fig1" / "local_solutions.csv").write_text("method,sigma\nlocal_bo,0.0\n")
    for rule, name, seconds in (
        ("fig1_run", "local_bo/d1.tsv", 1800.0),
        ("fig1_run", "gp_ucb/d1.tsv", 5400.0),
        ("error_function", "d1.tsv", 360.0),
    ):
        path = run / "benchmarks" / rule / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(HEADER + f"1.0\t0:00:01\t1\t1\t1\t1\t0\t0\t0\t{seconds}\n")
    (run / "benchmarks" / "fig1_table.tsv").write_text(HEADER + "1\t0\t1\t1\t1\t1\t0\t0\t0\t36\n")
    # the GP-UCB job was taken up from its runs' checkpoints: its first run had spent 1800 s of CPU
    # in earlier attempts, which its TSV does not count; a summary made before that was recorded
    # counts nothing more
    save_json(run / "results/fig1/runs/gp_ucb/d1.json", [{"cpu_seconds_before": 1800.0}, {}])
    override = tmp_path / "paper_part.yaml"
    override.write_text("seed: 1\n")
    configs = [REPO / "config" / "config.yaml", override]
    copied = add(run, tmp_path / "gallery", configs, code)
    names = sorted(p.relative_to(tmp_path / "gallery").as_posix() for p in copied)
    # PNG, CSV and the configs, not the PDF nor a temporary file
    assert names == [
        "configs/run1-config.yaml",
        "configs/run1-paper_part.yaml",
        "fig1-local_solutions.csv",
        "fig1_local_solutions.png",
        "provenance.json",
    ]
    provenance = load_json(tmp_path / "gallery" / "provenance.json")
    record = provenance["runs"]["run1"]
    # named in the repository, or by the copy: no path of this machine
    assert record["configs"] == ["config/config.yaml", "run1-paper_part.yaml"]
    assert record["commit"] == git(code, "rev-parse", "HEAD")
    assert len(record["config_sha256"]) == 64
    assert record["packages"]["versions"]["numpy"]
    figures = record["cpu_hours_per_figure"]
    assert figures["fig1"] == pytest.approx(2.51)  # 0.5 + (1.5 + 0.5) + 0.01
    assert figures["fig2"] == pytest.approx(0.1)
    assert figures["all"] == pytest.approx(2.61)
    assert record["cpu_hours_per_rule"]["fig1_run"]["jobs"] == 2
    assert provenance["figures"] == {
        "fig1": {
            "runs": ["run1"],
            "files": ["fig1-local_solutions.csv", "fig1_local_solutions.png"],
            "cpu_hours": pytest.approx(2.51),
        }
    }
    assert provenance["cpu_hours"] == pytest.approx(2.61)


def test_a_run_from_a_modified_tree_is_refused(tmp_path, code):
    """Its commit could not reproduce it: the gallery takes runs of committed code only."""
    dirty = tmp_path / "dirty"
    shutil.copytree(code, dirty)
    (dirty / "tracked.txt").write_text("1\n")
    git(dirty, "add", "tracked.txt")
    git(dirty, "commit", "-q", "-m", "tracked")
    (dirty / "tracked.txt").write_text("2\n")
    run = fig1_run(tmp_path / "run", [("local_bo", 1, 0, -0.5)], 1.0)
    with pytest.raises(ModifiedTree, match="uncommitted changes"):
        add(run, tmp_path / "gallery", [REPO / "config" / "config.yaml"], dirty)
    assert not (tmp_path / "gallery").exists()


def test_every_rule_counts_for_the_rules_file_that_defines_it():
    figure = figure_of_rule(REPO / "workflow" / "rules")
    assert figure["fig1_run"] == "fig1"
    assert figure["restart_chunk"] == "fig3"
    assert figure["gradient_estimate"] == "gradient_estimation"
    assert figure["rbf_error_function"] == "rbf_error"  # a `use rule ... as` rule
    assert set(figure.values()) == {p.stem for p in (REPO / "workflow" / "rules").glob("*.smk")} - {
        "common"
    }


def test_the_gallerys_fig1_paths_are_the_rules_outputs():
    """The gallery reads a run directory by the paths workflow/rules/fig1.smk writes."""
    rules = (REPO / "workflow" / "rules" / "fig1.smk").read_text()
    assert f'"{RUN_TABLE}"' in rules and f'"{RUN_FIGURE}"' in rules
    assert f'"{RESUMED_SUMMARIES}/{{method}}/d{{d}}_sigma{{sigma}}_chunk{{chunk}}.json"' in rules
    assert (
        f'"benchmarks/{RESUMED_RULE}/{{method}}/d{{d}}_sigma{{sigma}}_chunk{{chunk}}.tsv"' in rules
    )


def fig1_run(
    root: Path, rows: list[tuple[str, int, int, float]], cpu_seconds: float, extra: str = ""
) -> Path:
    """A run directory holding only a Fig. 1 table of (method, d, path, value) runs at sigma 0,
    with TuRBO's `restarts` column and optionally one more (`extra`, 7 in every row)."""
    table = root / "results" / "fig1" / "local_solutions.csv"
    table.parent.mkdir(parents=True)
    header = "method,d,sigma,path,value,gradient_norm,evaluations,iterations,stop,restarts"
    lines = [header + (f",{extra}" if extra else "")]
    for method, d, path, value in rows:
        restarts = "3" if method == "turbo" else ""
        line = f'{method},{d},0.0,{path},{value!r},0.1,50,49,"budget, spent",{restarts}'
        lines.append(line + (",7" if extra else ""))
    table.write_text("\n".join(lines) + "\n")
    tsv = root / "benchmarks" / "fig1_run" / "x.tsv"
    tsv.parent.mkdir(parents=True)
    tsv.write_text(HEADER + f"1.0\t0:00:01\t1\t1\t1\t1\t0\t0\t0\t{cpu_seconds}\n")
    return root


def test_a_part_from_a_directory_added_before_counts_the_jobs_that_ended_since(tmp_path, code):
    """Parts run in one directory (its paths and check runs made once): each record counts the
    CPU of the jobs that ended after the directory's last addition to that gallery, and says
    since when; another gallery counts them all."""
    config = [REPO / "config" / "config.yaml"]
    run = fig1_run(tmp_path / "run", [("local_bo", 1, 0, -0.5)], 3600.0)
    gallery = tmp_path / "gallery"
    add(run, gallery, config, code)
    added = last_added(run, gallery)
    table = run / RUN_TABLE
    table.write_text(table.read_text() + 'local_bo,1,0.0,1,-0.6,0.1,50,49,"budget, spent",\n')
    later = run / "benchmarks" / "fig1_run" / "y.tsv"
    later.write_text(HEADER + "1.0\t0:00:01\t1\t1\t1\t1\t0\t0\t0\t1800.0\n")
    os.utime(later, (added + 1.0, added + 1.0))
    add(run, gallery, config, code)
    provenance = load_json(gallery / "provenance.json")
    first, second = provenance["runs"]["run1"], provenance["runs"]["run2"]
    assert "cpu_counted_after" not in first
    assert second["cpu_counted_after"] == iso_date(added)
    assert second["cpu_hours_per_rule"] == {"fig1_run": {"cpu_hours": 0.5, "jobs": 1}}
    assert provenance["cpu_hours"] == pytest.approx(1.5)
    other = tmp_path / "other"
    add(run, other, config, code)
    assert load_json(other / "provenance.json")["cpu_hours"] == pytest.approx(1.5)
    assert last_added(run, gallery) > added and last_added(run, other) is not None


def test_a_part_adds_its_runs_and_must_reproduce_the_ones_the_gallery_holds(tmp_path, code):
    local = [("local_bo", d, i, -0.5 * d - 0.1 * i) for d in (1, 5) for i in range(3)]
    first = fig1_run(tmp_path / "first", [*local, ("turbo", 1, 0, -1.25)], 3600.0)
    (first / "figures").mkdir()
    (first / "figures" / "fig1_local_solutions.png").write_bytes(b"png")
    gallery = tmp_path / "gallery"
    add(first, gallery, [REPO / "config" / "config.yaml"], code)
    before = (gallery / "fig1-local_solutions.csv").read_text().splitlines()

    part = tmp_path / "part.yaml"
    part.write_text("fig1:\n  methods:\n    turbo: null\n")
    second = fig1_run(tmp_path / "second", [local[4], ("gp_ucb", 5, 0, -2.0)], 1800.0)
    add(second, gallery, [REPO / "config" / "config.yaml", part], code)
    after = (gallery / "fig1-local_solutions.csv").read_text().splitlines()
    # the held rows come back unchanged (a quoted field included), the new run in table order
    assert [line for line in after if not line.startswith("gp_ucb")] == before
    assert after[1].startswith("gp_ucb,5,0.0,0,-2.0,")
    assert (gallery / "fig1_local_solutions.png").read_bytes()[:4] == b"\x89PNG"  # redrawn
    provenance = load_json(gallery / "provenance.json")
    second_record = provenance["runs"]["run2"]
    assert second_record["fig1"]["runs_added"] == 1
    assert second_record["fig1"]["runs_reproduced"] == 1
    # the noise levels of each section's runs in the part's own table, none without runs
    levels = [provenance["runs"][r]["fig1"]["noise_levels"] for r in ("run1", "run2")]
    assert levels[0]["local_bo"] == levels[0]["turbo"] == [0.0]
    assert levels[1]["gp_ucb"] == levels[1]["local_bo"] == [0.0]
    assert levels[0]["gp_ucb"] == levels[1]["mpd"] == [] and "turbo" not in levels[1]  # null
    assert second_record["configs"] == ["config/config.yaml", "run2-part.yaml"]
    assert provenance["figures"]["fig1"]["cpu_hours"] == pytest.approx(1.5)

    # with the same software a run that comes back different is refused, nothing changes
    changed = fig1_run(tmp_path / "changed", [("local_bo", 1, 2, -0.75), ("mpd", 1, 0, -1.0)], 1.0)
    with pytest.raises(ValueError, match=r"largest: local_bo d=1 sigma=0.0, value by 0.05"):
        add(changed, gallery, [REPO / "config" / "config.yaml"], code)
    again = fig1_run(tmp_path / "again", [local[0]], 1.0)
    with pytest.raises(ValueError, match="adds no run"):
        add(again, gallery, [REPO / "config" / "config.yaml"], code)
    assert (gallery / "fig1-local_solutions.csv").read_text().splitlines() == after
    snapshot = files_of(gallery)
    unknown = fig1_run(tmp_path / "unknown", [("no_such_method", 1, 0, -1.0)], 1.0)
    with pytest.raises(ValueError, match="no_such_method"):  # found before a file changes
        add(unknown, gallery, [REPO / "config" / "config.yaml"], code)
    assert files_of(gallery) == snapshot

    # a third part with a config of the same name and a column the others do not have
    other = tmp_path / "other" / "part.yaml"
    other.parent.mkdir()
    other.write_text("fig1:\n  methods:\n    mpd: null\n")
    third = fig1_run(tmp_path / "third", [("mpd", 1, 1, -1.0)], 360.0, extra="moves")
    add(third, gallery, [REPO / "config" / "config.yaml", other], code)
    assert (gallery / "configs" / "run2-part.yaml").read_text() == part.read_text()
    assert (gallery / "configs" / "run3-part.yaml").read_text() == other.read_text()
    final = load_csv(gallery / "fig1-local_solutions.csv")
    assert [row["moves"] for row in final if row["method"] == "mpd"] == ["7"]
    assert {row["moves"] for row in final if row["method"] != "mpd"} == {""}
    provenance = load_json(gallery / "provenance.json")
    assert [r["fig1"]["runs_added"] for r in provenance["runs"].values()] == [7, 1, 1]
    assert provenance["figures"]["fig1"]["cpu_hours"] == pytest.approx(1.6)

    # other software (here: a part that predates the record) rounds otherwise: the part is
    # added, the gallery keeps its rows and the part records the differences
    del provenance["runs"]["run1"]["software"]
    save_json(gallery / "provenance.json", provenance)
    fourth = fig1_run(tmp_path / "fourth", [("local_bo", 1, 2, -0.75), ("mpd", 5, 0, -2.5)], 1.0)
    add(fourth, gallery, [REPO / "config" / "config.yaml"], code)
    rows = {
        (r["method"], r["d"], r["path"]): r["value"]
        for r in load_csv(gallery / "fig1-local_solutions.csv")
    }
    assert (
        rows[("local_bo", "1", "2")] == repr(-0.5 - 0.1 * 2) and rows[("mpd", "5", "0")] == "-2.5"
    )
    last = load_json(gallery / "provenance.json")["runs"]["run4"]
    counts = (last["fig1"][key] for key in ("runs_added", "runs_reproduced", "runs_differing"))
    assert tuple(counts) == (1, 0, 1)
    differences = last["fig1"]["largest_value_difference"]
    assert differences == {"local_bo d=1 sigma=0.0": pytest.approx(0.05)}
    assert set(last["software"]) == {"python", "numpy", "scipy", "blas", "cpu"}


def curves(run: Path, rows: list[tuple[str, int, int, list[float]]]) -> None:
    """Fig. 1's curve table of a run directory: (method, d, path, values at 1, 2, ...)."""
    lines = ["method,d,sigma,path,evaluations,value"]
    lines += [f"{m},{d},0.0,{i},{k + 1},{v!r}" for m, d, i, vs in rows for k, v in enumerate(vs)]
    (run / RUN_CURVES).write_text("\n".join(lines) + "\n")


def test_the_curve_table_grows_a_run_at_a_time_and_a_part_of_curves_only_is_taken(tmp_path, code):
    first = fig1_run(tmp_path / "first", [("local_bo", 1, 0, -1.0), ("turbo", 1, 0, -2.0)], 60.0)
    curves(first, [("local_bo", 1, 0, [0.0, -1.0])])
    gallery = tmp_path / "gallery"
    add(first, gallery, [REPO / "config" / "config.yaml"], code)
    # the same runs again, now with TuRBO-1's curve (whose run the gallery holds) and another
    # local BO curve: the held curve stays, the new one joins in table order
    again = fig1_run(tmp_path / "again", [("local_bo", 1, 0, -1.0), ("turbo", 1, 0, -2.0)], 60.0)
    curves(again, [("local_bo", 1, 0, [9.0, 9.0]), ("turbo", 1, 0, [0.0, -1.5, -2.0])])
    add(again, gallery, [REPO / "config" / "config.yaml"], code)
    table = load_csv(gallery / "fig1-curves.csv")
    assert [(r["method"], r["value"]) for r in table] == [
        ("local_bo", "0.0"), ("local_bo", "-1.0"), ("turbo", "0.0"), ("turbo", "-1.5"),
        ("turbo", "-2.0"),
    ]  # fmt: skip
    record = load_json(gallery / "provenance.json")["runs"]["run2"]["fig1"]
    assert record["curves_added"] == 1 and record["runs_added"] == 0
    with pytest.raises(ValueError, match="adds no run"):
        add(again, gallery, [REPO / "config" / "config.yaml"], code)


def test_a_part_that_fails_while_its_files_are_written_leaves_the_gallery_as_it_was(
    tmp_path, monkeypatch, code
):
    """Every file is staged beside its place and renamed at the end: a failure while the configs
    are copied (after the table and figure are written) changes nothing and leaves no staged
    file, and the same part is added afterwards."""
    first = fig1_run(tmp_path / "first", [("local_bo", 1, 0, -0.5)], 3600.0)
    (first / "figures").mkdir()
    (first / "figures" / "fig1_local_solutions.png").write_bytes(b"png")
    gallery = tmp_path / "gallery"
    add(first, gallery, [REPO / "config" / "config.yaml"], code)
    snapshot = files_of(gallery)
    second = fig1_run(tmp_path / "second", [("local_bo", 1, 1, -0.7)], 1800.0)

    def fail(*args):
        raise OSError("disk full")

    monkeypatch.setattr("localbo.gallery.add.shutil.copyfile", fail)
    with pytest.raises(OSError, match="disk full"):
        add(second, gallery, [REPO / "config" / "config.yaml"], code)
    assert files_of(gallery) == snapshot
    monkeypatch.undo()
    add(second, gallery, [REPO / "config" / "config.yaml"], code)
    runs = load_json(gallery / "provenance.json")["runs"].values()
    assert [r["fig1"]["runs_added"] for r in runs] == [1, 1]


def test_software_records_match_whatever_order_the_blas_libraries_loaded_in():
    here = software()
    assert here["blas"] == ", ".join(sorted(here["blas"].split(", ")))
    loaded = {**here, "blas": "openblas 0.3.31 (Haswell), openblas 0.3.30 (Haswell)"}
    swapped = {**here, "blas": "openblas 0.3.30 (Haswell), openblas 0.3.31 (Haswell)"}
    assert same_software(loaded, swapped)
    assert not same_software(loaded, {**swapped, "numpy": "1.26.4"})
    assert not same_software(loaded, {**loaded, "blas": "openblas 0.3.30 (Haswell)"})
    assert not same_software(None, loaded)


def test_a_runs_other_figures_replace_the_gallerys(tmp_path, code):
    """Only Fig. 1's table grows run by run; another figure's files are the last run's."""
    gallery, configs = tmp_path / "gallery", [REPO / "config" / "config.yaml"]
    for k, value in enumerate(("1", "2"), 1):
        run = fig1_run(tmp_path / f"run{k}", [("local_bo", 1, k, -0.5 * k)], 1.0)
        (run / "results" / "fig2").mkdir()
        (run / "results" / "fig2" / "error_function.csv").write_text(f"a\n{value}\n")
        add(run, gallery, configs, code)
    assert (gallery / "fig2-error_function.csv").read_text() == "a\n2\n"
    provenance = load_json(gallery / "provenance.json")
    assert provenance["figures"]["fig2"]["runs"] == ["run2"]
    assert provenance["figures"]["fig1"]["runs"] == ["run1", "run2"]
    assert len(load_csv(gallery / "fig1-local_solutions.csv")) == 2
    empty = tmp_path / "empty"
    (empty / "results" / "other").mkdir(parents=True)
    (empty / "results" / "other" / "x.csv").write_text("a\n1\n")
    with pytest.raises(ValueError, match="made no figure or table"):
        add(empty, gallery, configs, code)
    with pytest.raises(ValueError, match=r"no Fig\. 1 runs to supersede"):
        add(tmp_path / "run2", tmp_path / "other", configs, code, supersede=frozenset({"gp_ucb"}))


def test_every_gallery_file_belongs_to_the_figure_whose_rules_name_it():
    outputs = figure_of_output(REPO / "workflow" / "rules")

    def figure(path):
        return figure_of_file(outputs, Path(path))

    assert figure(RUN_TABLE) == figure(RUN_FIGURE) == "fig1"
    assert figure("figures/fig4_l1norm.png") == "gradient_estimation"
    assert figure("results/rbf_error/slopes.csv") == "rbf_error"
    assert figure("results/paper_comparison.csv") == "paper_comparison"
    # an output with wildcards: each of its files, and nothing beside them
    assert figure("results/gradient_estimation/draws/l1_n5_ours.csv") == "gradient_estimation"
    assert figure("results/gradient_estimation/draws/sub/l1_n5_ours.csv") is None
    assert figure("results/fig1/other.csv") is None


def fig3_run(run: Path, paths: dict[int, float], main: float) -> Path:
    """A run directory with Fig. 3's tables: each other path's curve at k = 1, 2 (median, then
    median - 0.5) and the main path's, and its figure."""
    fig3 = run / "results" / "fig3"
    fig3.mkdir(parents=True)
    rows = [(p, k, m - 0.5 * (k - 1)) for p, m in paths.items() for k in (1, 2)]
    (fig3 / "other_paths.csv").write_text(
        "path,restarts,median\n" + "".join(f"{p},{k},{m!r}\n" for p, k, m in rows)
    )
    (fig3 / "best_after_restarts.csv").write_text(
        f"restarts,median\n1,{main!r}\n2,{main - 0.5!r}\n"
    )
    (fig3 / "restarts.csv").write_text("run,value\n0,-1.0\n")
    (run / "figures").mkdir()
    (run / "figures" / "fig3_restarts.png").write_bytes(b"png " + run.name.encode())
    return run


def test_more_fig3_paths_join_the_gallerys_and_its_main_path_stays(tmp_path, code):
    """A run of more paths adds the paths the gallery lacks and keeps the rest; a curve that
    comes back otherwise is recorded with other software and refused with the gallery's."""
    gallery, config = tmp_path / "gallery", [REPO / "config" / "config.yaml"]
    add(fig3_run(tmp_path / "first", {1: -18.0, 2: -17.5}, -18.2), gallery, config, code)
    before = files_of(gallery)
    more = fig3_run(tmp_path / "more", {1: -18.0, 2: -17.5 + 1e-6, 3: -18.4}, -18.2 - 2e-6)
    with pytest.raises(ValueError, match="path 2, main path came back different"):
        add(more, gallery, config, code)  # the same software: it must come back byte for byte
    assert files_of(gallery) == before
    provenance = load_json(gallery / "provenance.json")
    del provenance["runs"]["run1"]["software"]  # a part that predates the record
    save_json(gallery / "provenance.json", provenance)
    add(more, gallery, config, code)
    others = load_csv(gallery / "fig3-other_paths.csv")
    assert [(r["path"], r["restarts"], r["median"]) for r in others] == [
        ("1", "1", "-18.0"), ("1", "2", "-18.5"), ("2", "1", "-17.5"), ("2", "2", "-18.0"),
        ("3", "1", "-18.4"), ("3", "2", "-18.9"),
    ]  # fmt: skip
    for kept in ("fig3-best_after_restarts.csv", "fig3-restarts.csv", "fig3_restarts.png"):
        assert (gallery / kept).read_bytes() == before[kept]
    provenance = load_json(gallery / "provenance.json")
    assert provenance["figures"]["fig3"]["runs"] == ["run1", "run2"]
    part = provenance["runs"]["run2"]["fig3"]
    assert part["paths_added"] == [3] and part["paths_reproduced"] == 1
    assert part["largest_median_difference"] == {
        "path 2": pytest.approx(1e-6),
        "main path": pytest.approx(2e-6),
    }
    with pytest.raises(ValueError, match=r"adds no Fig\. 3 path"):
        add(more, gallery, config, code)
    # after a change of Fig. 3's defaults, a run's Fig. 3 takes the gallery's place
    other = fig3_run(tmp_path / "other", {1: -19.0}, -19.5)
    add(other, gallery, config, code, replace=frozenset({"fig3"}))
    assert load_csv(gallery / "fig3-other_paths.csv")[0]["median"] == "-19.0"
    assert (gallery / "fig3_restarts.png").read_bytes() == b"png other"
    assert load_json(gallery / "provenance.json")["figures"]["fig3"]["runs"] == ["run3"]


def test_panels_follow_the_configs_then_the_table():
    labels, colors = method_labels(
        [REPO / "config" / "config.yaml"], {"mpd", "local_bo", "gp_ucb", "exact_gradient"}
    )
    assert list(labels) == ["local_bo", "gp_ucb", "mpd", "exact_gradient"]
    assert labels["gp_ucb"] == "GP-UCB"
    # every method keeps its colour of the paper config's figures, drawn here or not
    paper = load_settings(merged_config([REPO / "config" / "config.yaml"])).fig1
    assert colors == Fig1Jobs(0, paper).colors()


def test_a_part_at_a_methods_new_settings_supersedes_its_runs(tmp_path, code):
    local = [("local_bo", 1, i, -0.1 * i) for i in range(2)]
    first = fig1_run(
        tmp_path / "first", [*local, ("gp_ucb", 10, 0, -3.9), ("gp_ucb", 10, 1, -4.1)], 7200.0
    )
    (first / "figures").mkdir()
    (first / "figures" / "fig1_local_solutions.png").write_bytes(b"png")
    gallery = tmp_path / "gallery"
    add(first, gallery, [REPO / "config" / "config.yaml"], code)
    # GP-UCB on path 0 again at other settings, path 1 the same, and a new path; local BO
    # reproduced
    rerun = [*local, ("gp_ucb", 10, 0, -4.7), ("gp_ucb", 10, 1, -4.1), ("gp_ucb", 10, 2, -4.0)]
    second = fig1_run(tmp_path / "second", rerun, 3600.0)
    configs = [REPO / "config" / "config.yaml"]
    with pytest.raises(ValueError, match=r"largest: gp_ucb d=10 sigma=0\.0, value by 0\.8"):
        add(second, gallery, configs, code)
    changed = fig1_run(
        tmp_path / "changed", [("local_bo", 1, 0, -2.0), ("gp_ucb", 10, 3, -4.0)], 1.0
    )
    with pytest.raises(ValueError, match="largest: local_bo"):  # only the named methods
        add(changed, gallery, configs, code, supersede=frozenset({"gp_ucb"}))
    with pytest.raises(ValueError, match="no runs of gp-ucb"):  # a misspelt method
        add(second, gallery, configs, code, supersede=frozenset({"gp-ucb"}))
    add(second, gallery, configs, code, supersede=frozenset({"gp_ucb"}))
    values = {
        (r["method"], int(r["path"])): float(r["value"])
        for r in load_csv(gallery / "fig1-local_solutions.csv")
    }
    assert values == {
        ("gp_ucb", 0): -4.7,
        ("gp_ucb", 1): -4.1,
        ("gp_ucb", 2): -4.0,
        ("local_bo", 0): 0.0,
        ("local_bo", 1): -0.1,
    }
    provenance = load_json(gallery / "provenance.json")
    last = provenance["runs"]["run2"]["fig1"]
    counts = ("runs_added", "runs_superseded", "runs_reproduced", "runs_differing")
    assert [last[count] for count in counts] == [1, 1, 3, 0]
    assert last["supersede"] == ["gp_ucb"]  # which methods, for the replay (parts)
    assert sum(r["fig1"]["runs_added"] for r in provenance["runs"].values()) == len(values)
    # every part's CPU counts, the replaced run's included
    assert provenance["figures"]["fig1"]["cpu_hours"] == 3.0


@pytest.mark.parametrize(
    ("path_0", "counts"), [(-3.9, [0, 0, 2, 3]), (-4.7, [0, 1, 1, 2])], ids=["all", "some"]
)
def test_a_superseding_part_whose_runs_come_back_equal_renews_them(tmp_path, code, path_0, counts):
    """GP-UCB run again at other settings gives the gallery's rows to the character (all: on both
    paths; some: path 0 ends elsewhere and is superseded): the table keeps them, and the part is
    recorded, its runs now made at its settings (the replay); the same part again renews nothing
    and is refused."""
    runs = [("local_bo", 1, 0, -0.5), ("gp_ucb", 10, 0, -3.9), ("gp_ucb", 10, 1, -4.1)]
    first = fig1_run(tmp_path / "first", runs, 3600.0)
    (first / "figures").mkdir()
    (first / "figures" / "fig1_local_solutions.png").write_bytes(b"png")
    gallery, config = tmp_path / "gallery", REPO / "config" / "config.yaml"
    add(first, gallery, [config], code)
    part = tmp_path / "part.yaml"
    part.write_text("fig1:\n  methods:\n    gp_ucb:\n      refine_iterations: 16\n")
    again = fig1_run(tmp_path / "again", [runs[0], ("gp_ucb", 10, 0, path_0), runs[2]], 1800.0)
    add(again, gallery, [config, part], code, supersede=frozenset({"gp_ucb"}))
    last = load_json(gallery / "provenance.json")["runs"]["run2"]["fig1"]
    names = ("runs_added", "runs_superseded", "runs_renewed", "runs_reproduced")
    assert [last[name] for name in names] == counts
    made = made_by(
        gallery, {run_key(row) for row in load_csv(gallery / "fig1-local_solutions.csv")}
    )
    assert [made["gp_ucb", 10, 0.0, i][0] for i in (0, 1)] == ["run2", "run2"]
    assert made["local_bo", 1, 0.0, 0][0] == "run1"
    with pytest.raises(ValueError, match="adds no run"):
        add(again, gallery, [config, part], code, supersede=frozenset({"gp_ucb"}))


def test_the_command_adds_a_run_to_the_gallery_it_is_given(tmp_path, code, capsys):
    run = fig1_run(tmp_path / "run", [("local_bo", 1, 0, -0.5)], 1.0)
    gallery, config = tmp_path / "g", REPO / "config" / "config.yaml"
    argv = ["--gallery", str(gallery), "add", str(run), "--config", str(config)]
    gallery_main([*argv, "--code", str(code)])
    assert str(gallery / "provenance.json") in capsys.readouterr().out
    assert load_json(gallery / "provenance.json")["figures"]["fig1"]["runs"] == ["run1"]


def test_the_gallerys_curves_end_at_its_tables_values_within_their_parts_differences():
    """Every run of the gallery's curve table is a run of its Fig. 1 table, and its curve ends
    at the table's value: to the character where the part that brought the curve reproduced
    the run, else within the largest difference of the run's cell that a part with other
    software recorded (`largest_value_difference`: the same runs, rounded otherwise)."""
    import pandas as pd

    gallery = REPO / "figures" / "gallery"
    curves = pd.read_csv(gallery / "fig1-curves.csv")
    table = pd.read_csv(gallery / "fig1-local_solutions.csv")
    key = ["method", "sigma", "d", "path"]
    last = curves.groupby(key)["value"].last()
    value = table.set_index(key)["value"]
    assert last.index.isin(value.index).all()
    recorded: dict[str, float] = {}
    for run in load_json(gallery / "provenance.json")["runs"].values():
        for cell, gap in run.get("fig1", {}).get("largest_value_difference", {}).items():
            recorded[cell] = max(recorded.get(cell, 0.0), gap)
    for (method, sigma, d, path), end in last.items():
        allowed = recorded.get(f"{method} d={d} sigma={sigma}", 0.0)
        assert abs(end - value[method, sigma, d, path]) <= allowed, (method, sigma, d, path)
