"""The gallery: a run's PNGs and tables copied with provenance and CPU-hours per figure."""

from pathlib import Path

import pytest

from localbo.io import load_json
from localbo.pipeline.gallery import figure_of_rule, make_gallery

REPO = Path(__file__).resolve().parents[2]
HEADER = "s\th:m:s\tmax_rss\tmax_vms\tmax_uss\tmax_pss\tio_in\tio_out\tmean_load\tcpu_time\n"


def test_gallery_copies_figures_and_tables_and_sums_cpu_hours(tmp_path):
    run = tmp_path / "run"
    (run / "figures").mkdir(parents=True)
    (run / "figures" / "fig1_local_solutions.png").write_bytes(b"png")
    (run / "figures" / "fig1_local_solutions.pdf").write_bytes(b"pdf")
    (run / "results" / "fig1").mkdir(parents=True)
    (run / "results" / "fig1" / "local_solutions.csv").write_text("a\n1\n")
    for rule, name, seconds in (
        ("fig1_run", "local_bo/d1.tsv", 1800.0),
        ("fig1_run", "gp_ucb/d1.tsv", 5400.0),
        ("error_function", "d1.tsv", 360.0),
    ):
        path = run / "benchmarks" / rule / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(HEADER + f"1.0\t0:00:01\t1\t1\t1\t1\t0\t0\t0\t{seconds}\n")
    (run / "benchmarks" / "fig1_table.tsv").write_text(HEADER + "1\t0\t1\t1\t1\t1\t0\t0\t0\t36\n")
    override = tmp_path / "paper_part.yaml"
    override.write_text("seed: 1\n")
    configs = [REPO / "config" / "config.yaml", override]
    copied = make_gallery(run, tmp_path / "gallery", configs, REPO)
    names = sorted(p.name for p in copied)
    # PNG, CSV and the configs, not the PDF
    assert names == [
        "config-config.yaml",
        "config-paper_part.yaml",
        "fig1-local_solutions.csv",
        "fig1_local_solutions.png",
    ]
    provenance = load_json(tmp_path / "gallery" / "provenance.json")
    # named in the repository, or by the copy beside the provenance: no path of this machine
    assert provenance["configs"] == ["config/config.yaml", "config-paper_part.yaml"]
    assert len(provenance["commit"].removesuffix("-dirty")) == 40
    assert len(provenance["config_sha256"]) == 64
    figures = provenance["cpu_hours_per_figure"]
    assert figures["fig1"] == pytest.approx(2.01)  # 0.5 + 1.5 + 0.01
    assert figures["fig2"] == pytest.approx(0.1)
    assert figures["all"] == pytest.approx(2.11)
    assert provenance["cpu_hours_per_rule"]["fig1_run"]["jobs"] == 2


def test_every_rule_counts_for_the_rules_file_that_defines_it():
    figure = figure_of_rule(REPO / "workflow" / "rules")
    assert figure["fig1_run"] == "fig1"
    assert figure["restart_chunk"] == "fig3"
    assert figure["gradient_estimate"] == "gradient_estimation"
    assert figure["rbf_error_function"] == "rbf_error"  # a `use rule ... as` rule
    assert set(figure.values()) == {p.stem for p in (REPO / "workflow" / "rules").glob("*.smk")} - {
        "common"
    }
