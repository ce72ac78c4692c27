"""The paper-vs-reproduced table: our values with their uncertainty, the verdict rules (their
false-disagreement rates: tests/unit/test_predictive.py), and which runs count as the paper's
scale."""

import csv
import math
from pathlib import Path

import numpy as np
import pytest
import yaml
from snakemake.utils import update_config

from localbo.gradient_estimation import PAPER_ESTIMATES
from localbo.pipeline.paper_claims import CLAIMS, FIG3_PUBLISHED, as_stated
from localbo.pipeline.paper_comparison import (
    COLUMNS,
    NOT_COMPARABLE,
    RULES,
    PaperComparisonSettings,
    comparable_sections,
    compare,
    ours,
)
from localbo.pipeline.settings import load_settings
from localbo.predictive import median_p_value
from localbo.restarts import grid_size_log10
from localbo.seeding import rng_for

REPO = Path(__file__).resolve().parents[2]
SCHEMA = REPO / "config" / "schemas" / "config.schema.yaml"
SECTIONS = ("fig1", "fig2", "fig3", "gradient_estimation")


def settings_of(*overrides):
    config = yaml.safe_load((REPO / "config" / "config.yaml").read_text())
    for path in overrides:
        update_config(config, yaml.safe_load(path.read_text()))
    s = load_settings(config, SCHEMA)
    return comparable_sections(s.fig1, s.fig2, s.fig3, s.gradient_estimation)


def test_paper_scale_is_comparable_and_the_quick_run_is_not():
    assert settings_of() == dict.fromkeys(SECTIONS, True)
    quick = settings_of(REPO / "config" / "quick.yaml")
    assert not any(quick.values()), quick


SETTINGS = PaperComparisonSettings()
ALPHA = SETTINGS.false_disagreement


def values_of(fig1=(), fig2=(), fig3=(), others=(), draws=None):
    return ours(list(fig1), list(fig2), list(fig3), list(others), draws or {}, SETTINGS, 7)


def rows_by_key(values, comparable=True):
    rows = compare(values, dict.fromkeys(SECTIONS, comparable), SETTINGS, 7)
    return {(claim.key, row["at"]): row for claim, row in zip(claims_of(rows), rows, strict=True)}


def claims_of(rows):
    """The claim of each row (rows come claim by claim, one per place)."""
    by_quantity = {c.quantity: c for c in CLAIMS}
    return [by_quantity[row["quantity"]] for row in rows]


def test_fig1s_median_is_judged_as_the_median_of_the_papers_50_paths():
    """The paper's -12.9 against our 50 values: their median's predictive p-value, printed to
    one decimal; the grid size is information beside it."""
    values = np.linspace(-13.4, -12.2, 50)
    local = [{"method": "local_bo", "sigma": "0.0", "d": "50", "value": str(v)} for v in values]
    rows = rows_by_key(values_of(fig1=local))
    median = rows["fig1_median", ""]
    assert median["ours"] == pytest.approx(-12.8)
    assert median["ours_low"] < -12.8 < median["ours_high"]  # our median's interval at 1 - alpha
    assert median["p_value"] == pytest.approx(median_p_value(values, -12.9, 50, 0.05))
    assert median["low"] < -12.9 < median["high"]
    assert (median["verdict"], median["rule"]) == ("consistent", "medians")
    grid = rows["fig1_grid_size", ""]
    assert grid["verdict"] == "information" and math.isnan(grid["p_value"])
    assert grid["ours"] == pytest.approx(grid_size_log10(-12.8))
    shifted = [{**r, "value": str(v + 1.0)} for r, v in zip(local, values, strict=True)]
    far = rows_by_key(values_of(fig1=shifted))["fig1_median", ""]
    assert far["verdict"] == "inconsistent" and far["p_value"] <= ALPHA


def test_fig2_slopes_are_judged_by_the_papers_words_with_their_lack_of_fit():
    fig2 = [
        {"panel": "a", "d": "10", "b": str(b), "sigma": s, "estimate": str(c * b**-0.6)}
        for b in (20, 200, 2000)
        for s, c in (("0.1", 1.0), ("1.0", 5.0))
    ]
    values = values_of(fig2=fig2)
    slopes = values["fig2_slope_in_b"]
    assert [s.at for s in slopes] == ["sigma = 0.1", "sigma = 1.0"]
    assert [s.value for s in slopes] == pytest.approx([-0.6, -0.6])
    assert [s.lack_of_fit for s in slopes] == pytest.approx([0.0, 0.0], abs=1e-9)  # exact lines
    row = rows_by_key(values)["fig2_slope_in_b", "sigma = 0.1"]
    assert (row["verdict"], row["rule"]) == ("match", "words")  # in [-0.75, -0.5]
    assert (row["low"], row["high"]) == (-0.75, -0.5)


def fig3_row(values):
    """The k = 1 row of Fig. 3's tables with the main path at values[0] and the other paths at
    the rest."""
    main = [{"restarts": "1", "median": str(values[0])}]
    others = [
        {"path": str(p), "restarts": "1", "median": str(v)} for p, v in enumerate(values[1:], 1)
    ]
    return rows_by_key(values_of(fig3=main, others=others))["fig3_best_of_1", ""]


def test_fig3s_curve_is_one_more_path_judged_among_our_19():
    """The paper's curve is one more path: with 19 of ours, consistent exactly within their
    range; k = 10 and 100 are information (one path's curve is one event)."""
    with open(REPO / "config" / "paper" / "fig3_published.csv") as handle:
        published = {int(r["restarts"]): float(r["median"]) for r in csv.DictReader(handle)}
    assert {k: published[k] for k in FIG3_PUBLISHED} == FIG3_PUBLISHED
    paper = FIG3_PUBLISHED[1]
    for lowest, verdict in ((paper - 0.01, "consistent"), (paper + 0.01, "inconsistent")):
        paths = [lowest + 0.05 * p for p in range(19)]
        row = fig3_row(paths)
        assert (row["ours_low"], row["ours_high"]) == pytest.approx((min(paths), max(paths)))
        assert (row["low"], row["high"]) == pytest.approx((min(paths), max(paths)))
        assert row["verdict"] == verdict, (lowest, row)
    assert row["p_value"] == pytest.approx(2 / 20)  # below all 19
    # 11 paths cannot reach 0.1: the least p-value is 2 / 12
    assert fig3_row(paths[:11])["verdict"].startswith("undecided: 11 paths")
    assert rows_by_key(values_of())["fig3_best_of_10", ""]["verdict"] == "missing"


def draws_table(values, paper):
    """A draws table of (n, p) estimates against the paper's estimate (p,)."""
    k = len(paper)
    return [
        {
            **{f"grad_{i + 1}": str(v[i]) for i in range(k)},
            **{f"paper_grad_{i + 1}": str(paper[i]) for i in range(k)},
            "error": "0.0" if 0 <= v[0] <= 1 else "0.5",
            "paper_distance": str(float(np.linalg.norm(np.subtract(v, paper)))),
        }
        for v in values
    ]


def test_a_gradient_estimate_is_one_draw_judged_as_a_vector_and_shares_are_stated():
    """The l1 estimate with n = 5 by our procedure: our draws in two modes, the paper's
    (0.005, 0.318) in the gap between them is inconsistent though each component lies within
    our band; the ReLU's 0.49 among draws around 0.5 is consistent; shares are stated."""
    rng = rng_for(5)
    tight = np.column_stack([0.05 * rng.normal(size=100), 1e-4 * rng.normal(size=100)])
    wide = np.column_stack([0.05 * rng.normal(size=100), 1.4 + 0.1 * rng.normal(size=100)])
    l1 = draws_table(np.vstack([tight, wide]), (0.005, 0.318))
    relu = draws_table(0.5 + 0.05 * rng.normal(size=(200, 1)), (0.49,))
    draws = {"l1_n5_ours": l1, "relu_n4_ours": relu, "l1_n10_ours": l1}
    rows = rows_by_key(values_of(draws=draws))
    vector = rows["draws:l1_n5:ours", ""]
    assert (vector["verdict"], vector["rule"]) == ("inconsistent", "draws")
    assert vector["p_value"] <= ALPHA and math.isnan(vector["ours"])
    second = rows["draws:l1_n5:ours:2", ""]
    assert second["verdict"] == "information"
    assert second["ours_low"] < 0.318 < second["ours_high"]  # the component's band holds it
    assert rows["draws:relu_n4:ours", ""]["verdict"] == "consistent"
    assert rows["draws:relu_n4:ours", ""]["ours"] == pytest.approx(0.5, abs=0.02)
    assert rows["share:inside:relu_n4:ours", ""]["verdict"] == "100% of draws"
    assert rows["share:closer:l1_n10:l1_n5:ours", ""]["verdict"] == "0% of draws"  # equal
    assert rows["share:closer:l1_n10:l1_n5:paper", ""]["verdict"] == "missing"
    not_paper_scale = rows_by_key(values_of(draws=draws), comparable=False)
    assert {r["verdict"] for r in not_paper_scale.values()} == {NOT_COMPARABLE}


def test_a_run_without_rows_is_missing_everywhere_and_every_rule_is_known():
    rows = compare(values_of(), dict.fromkeys(SECTIONS, True), SETTINGS, 7)
    assert {r["verdict"] for r in rows} == {"missing"}
    assert len(rows) == len(CLAIMS)
    assert {c.rule for c in CLAIMS} == set(RULES)
    assert len({c.key for c in CLAIMS}) == len(CLAIMS)
    assert list(rows[0]) == COLUMNS


def test_every_gradient_claim_states_the_papers_estimate_of_its_case():
    """The 'paper' column of Figs. 4 and 5 is PAPER_ESTIMATES' entry as the paper prints it,
    every entry has its claims, the vector's claim decides and each component's is information
    with the entry's value; the rounding is half a unit of the printed digits."""
    gradient = [c for c in CLAIMS if c.rule == "draws"]
    assert {c.paper for c in gradient} == {as_stated(f, p, n) for f, p, n in PAPER_ESTIMATES}
    for claim in gradient:
        quoted = tuple(float(v) for v in claim.paper.strip("()").split(","))
        *_, last = claim.key.split(":")
        if last.isdigit():
            assert not claim.decides and claim.value == quoted[int(last) - 1], claim.key
        else:
            assert claim.decides and claim.values() == quoted, claim.key
    assert as_stated("relu", (0.0,), 2) == "2.06e-5"
    assert as_stated("l1", (0.0, 1.0), 10) == "(-0.031, 1.053)"
    (relu,) = [c for c in gradient if c.key == "draws:relu_n2:ours"]
    assert relu.half_units() == pytest.approx((5e-8,))
    (fig3,) = [c for c in CLAIMS if c.key == "fig3_best_of_1"]
    assert fig3.half_units() == (0.0,)  # read off the paper's source at full precision
