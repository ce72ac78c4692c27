"""The numbers the README and docs quote about the gallery are the gallery's tables'."""

import re
from pathlib import Path

import pytest
import yaml

from localbo.gallery import GALLERY
from localbo.gallery.summary import (
    BLOCK,
    BLOCKS,
    CHECKED_AGAINST_REFERENCE,
    CHECKED_PAPER_CODE,
    DOCUMENTS,
    rewritten,
    summary,
)
from localbo.gallery.summary.text import fmt, percent

REPO = Path(__file__).resolve().parents[2]


def test_every_block_of_the_docs_is_what_the_gallery_writes():
    """A stale number fails here: run `python -m localbo.gallery summary` after a gallery change."""
    assert summary(GALLERY, REPO, check=True) == []


def test_every_writer_has_exactly_one_block():
    names = [m.group(2) for doc in DOCUMENTS for m in BLOCK.finditer((REPO / doc).read_text())]
    assert sorted(names) == sorted(BLOCKS)


def test_every_reference_check_with_results_has_its_block():
    """A check of the bench (bench/NAME_against_reference.py) is quoted once its results are."""
    scripts = (REPO / "bench").glob("*_against_reference.py")
    names = {script.name.removesuffix("_against_reference.py") for script in scripts}
    results = {n for n in names if (REPO / "bench" / "results" / f"{n}_reference.jsonl").exists()}
    assert results == {*CHECKED_AGAINST_REFERENCE, CHECKED_PAPER_CODE}


def test_a_block_without_a_writer_is_an_error():
    with pytest.raises(KeyError, match="no_such_block"):
        rewritten("<!-- gallery: no_such_block -->\nold\n<!-- /gallery -->\n", GALLERY)


def test_a_block_is_rewritten_and_the_text_around_it_kept(tmp_path):
    text = "before\n<!-- gallery: cpu_hours -->\nstale 1 CPU-hour\n<!-- /gallery -->\nafter\n"
    new = rewritten(text, GALLERY)
    assert new.startswith("before\n<!-- gallery: cpu_hours -->\nThe gallery's own runs took ")
    assert new.endswith("<!-- /gallery -->\nafter\n") and "stale" not in new
    assert re.search(r"took \d+ CPU-hours", new)


@pytest.mark.parametrize(
    ("x", "digits", "text"), [(-0.004, 2, "0.00"), (-0.006, 2, "-0.01"), (1.25, 1, "1.2")]
)
def test_numbers_print_without_a_negative_zero(x, digits, text):
    assert fmt(x, digits) == text


@pytest.mark.parametrize(
    ("share", "text"), [(0.0, "0 %"), (1.0, "100 %"), (0.995, "99.5 %"), (0.775, "78 %")]
)
def test_a_share_rounds_to_0_or_100_only_when_it_is(share, text):
    assert percent(share) == text


def test_nestbos_runs_enter_the_medians_and_the_comparison_once_in_the_gallery(tmp_path):
    """Without NeST-BO's runs its writers add nothing; with them (here the gallery's local BO
    rows moved up by 0.1 at d <= 10, and as its own short runs at d = 20) a row of medians per
    variant ('—' at a d it does not run at, 'to run' at one it has yet to), the bullet's side
    of local BO, and its wins, ties and losses."""
    import pandas as pd

    from localbo.gallery.summary.methods import (
        fig1_medians,
        fig1_methods,
        method_comparison,
        own_runs,
        paper_scale,
        row_label,
    )

    gallery = tmp_path / "figures" / "gallery"
    gallery.mkdir(parents=True)
    (tmp_path / "config").symlink_to(REPO / "config")
    (gallery / "paper_comparison.csv").write_text((GALLERY / "paper_comparison.csv").read_text())
    variants = own_runs(paper_scale(GALLERY).fig1)  # NeST-BO's sections and its pair
    runs = pd.read_csv(GALLERY / "fig1-local_solutions.csv")
    runs = runs[~runs["method"].isin(variants)]
    pairs = pd.read_csv(GALLERY / "method_comparison-summary.csv")
    pairs = pairs[~pairs["method"].isin(variants)]

    def write(runs, pairs):
        runs.to_csv(gallery / "fig1-local_solutions.csv", index=False)
        pairs.to_csv(gallery / "method_comparison-summary.csv", index=False)
        return fig1_medians(gallery), fig1_methods(gallery), method_comparison(gallery)

    assert "NeST-BO" not in "".join(write(runs, pairs))
    base = runs[(runs["method"] == "local_bo") & (runs["sigma"] == 0)]
    nestbo = base[base["d"] <= 10].assign(method="nestbo", value=lambda r: r["value"] + 0.1)
    short = base[base["d"] == 20].assign(method="nestbo_short")
    pair = base[base["d"] == 20].assign(method="local_bo_short")
    minucb = pairs[(pairs["method"] == "minucb") & (pairs["quantity"] == "returned point")]
    row = minucb.iloc[[0]].assign(method="nestbo_short", against="local_bo_short")
    medians, methods, comparison = write(
        pd.concat([runs, nestbo, short, pair]), pd.concat([pairs, row])
    )
    fig1 = yaml.safe_load((REPO / "config" / "config.yaml").read_text())["fig1"]

    def cells(name: str, held: set[int]) -> str:
        """A row's cells for a section of `fig1.methods`: a median where the table holds its
        runs, 'to run' at its other d, '—' at a d it does not run."""
        dims = fig1["methods"][name]["dims"]
        return "".join(
            r" -?\d+\.\d\d \|" if d in held else " to run |" if d in dims else " — |"
            for d in fig1["dims"]
        )

    settings = paper_scale(GALLERY)
    label = rf"\| {re.escape(row_label(settings.fig1, 'nestbo'))} \|"
    assert re.search(label + cells("nestbo", {1, 5, 10}), medians)
    section = fig1["methods"]["nestbo_short"]
    for name in ("nestbo_short", "local_bo_short"):
        label = rf"\| {re.escape(row_label(settings.fig1, name))} \|"
        assert re.search(label + cells("nestbo_short", {20}), medians)
    assert "ends at the paper's budget (d = 1, 5, 10) above local BO's" in " ".join(methods.split())
    nestbo = settings.fig1_jobs().label("nestbo")
    own = f"{nestbo}: its final iterate wins, ties and loses at {section['budget']} evaluations"
    assert own in " ".join(comparison.split())


def test_a_median_over_part_of_a_cells_paths_says_how_many(tmp_path):
    """A cell whose runs are in the gallery for some of its paths (a section run in parts)
    shows its median with the count, '(10 of 50 paths)'; a whole cell shows none."""
    import pandas as pd

    from localbo.gallery.summary.methods import fig1_medians, own_runs, paper_scale, row_label

    gallery = tmp_path / "figures" / "gallery"
    gallery.mkdir(parents=True)
    (tmp_path / "config").symlink_to(REPO / "config")
    (gallery / "paper_comparison.csv").write_text((GALLERY / "paper_comparison.csv").read_text())
    runs = pd.read_csv(GALLERY / "fig1-local_solutions.csv")
    whole = runs.groupby(["method", "d", "sigma"])["path"].nunique()
    paths = int(whole.max())
    assert whole["mpd", 10, 0.0] == paths
    part = (runs["method"] == "mpd") & (runs["d"] == 10) & (runs["path"] >= 10)
    runs[~part].to_csv(gallery / "fig1-local_solutions.csv", index=False)
    medians = fig1_medians(gallery)
    label = row_label(paper_scale(GALLERY).fig1, "mpd")
    (mpd,) = [line for line in medians.splitlines() if line.startswith(f"| {label} |")]
    cells = dict(zip(medians.splitlines()[0].split(" | ")[1:], mpd.split(" | ")[1:], strict=True))
    assert re.fullmatch(rf"-?\d+\.\d\d \(10 of {paths} paths\)", cells["10"])
    fig1 = paper_scale(GALLERY).fig1
    shown = own_runs(fig1)  # the sections the gallery may hold in parts
    held = whole.xs(0.0, level="sigma")
    partial = [(m, d) for (m, d), n in held.items() if m in shown and n < len(fig1.paths_of(m))]
    assert fig1_medians(GALLERY).count(" paths)") == len(partial)
    assert medians.count(" paths)") == len(partial) + 1
