"""The HTML report as a reader meets it: built from the tiny run, every figure and every table in
it, and a front page that says what each figure is beside the paper's."""

import csv
import json
import math
import re

import pytest

from localbo.pipeline.method_comparison import SUMMARY_COLUMNS
from localbo.pipeline.settings import load_settings, merged_config
from tests.workflow.helpers import REPO, TINY, snakemake

pytestmark = pytest.mark.workflow


def embedded(html: str, name: str) -> dict:
    """A JSON object the report embeds as `var <name> = {...};` (Snakemake 9)."""
    match = re.search(rf"var {name} = (\{{.*?\}});\s*(?:var|</script>)", html, re.S)
    assert match, f"no {name} in the report"
    return json.loads(match.group(1))


def declared(category: str) -> list[str]:
    """The outputs the rules files put in the report under a category ("Figures", "Tables")."""
    found = re.findall(
        r'report\(\s*"([^"]+)",\s*caption="[^"]+",\s*category="(\w+)"',
        "".join(smk.read_text() for smk in (REPO / "workflow" / "rules").glob("*.smk")),
    )
    return sorted(path for path, where in found if where == category)


def test_report_has_every_figure_and_table(tiny_run):
    snakemake(tiny_run, "--report", "report.html")
    html = (tiny_run / "report.html").read_text()
    items = embedded(html, "results")
    figures, tables = declared("Figures"), declared("Tables")
    made = sorted(p.relative_to(tiny_run).as_posix() for p in tiny_run.glob("figures/*.pdf"))
    assert figures == made  # every figure the run made, and only those
    assert tables and all((tiny_run / path).exists() for path in tables)
    assert set(items) == set(figures) | set(tables), sorted(items)
    categories = {
        category: sorted(f for files in groups.values() for f in files)
        for category, groups in embedded(html, "categories").items()
    }
    assert categories == {"Figures": figures, "Tables": tables}
    assert all(item["data_uri"].startswith("data:") for item in items.values())
    front = json.loads(re.search(r'var workflow_desc = (".*?");\s*</script>', html, re.S).group(1))
    for figure in ("Fig. 1", "Fig. 2", "Fig. 3", "Fig. 4", "Fig. 5"):
        assert f"{figure}," in front, figure  # each figure named on the front page ...
    for paper in ("paper Fig. 1", "paper Fig. 2", "paper Fig. 3", "paper Fig. 4", "appendix"):
        assert paper in front, paper  # ... beside the paper's


def test_the_tiny_run_is_compared_with_the_paper_and_says_it_is_not_comparable(tiny_run):
    with open(tiny_run / "results/paper_comparison.csv") as handle:
        rows = list(csv.DictReader(handle))
    figures = {r["figure"] for r in rows}
    assert figures == {"fig1", "fig2", "fig3", "gradient_estimation"}
    assert len(rows) >= 12
    assert {r["verdict"] for r in rows} == {"not comparable: this run is not the paper's scale"}
    # the numbers the tiny run has are computed (Fig. 1 has no d = 50, Fig. 3 no k = 10, 100)
    for row in rows:
        computed = row["figure"] in ("fig2", "gradient_estimation") or "k = 1)" in row["quantity"]
        if computed and row["rule"] != "share":  # a share's number is in its own column
            # an estimate of two components is judged as a vector: a p-value, no one number
            assert math.isfinite(float(row["ours"] or row["p_value"])), row
        if row["rule"] == "share":
            assert 0 <= float(row["share"]) <= 1, row


def test_the_tiny_runs_method_comparison_counts_every_path_once(tiny_run):
    """Each row's wins, ties and losses cover its paths, its columns are the table's, and with
    the tiny config's few paths every row is flagged small."""
    with open(tiny_run / "results/method_comparison/summary.csv") as handle:
        reader = csv.DictReader(handle)
        rows = list(reader)
    assert reader.fieldnames == SUMMARY_COLUMNS
    assert rows
    for row in rows:
        assert sum(int(row[k]) for k in ("wins", "ties", "losses")) == int(row["paths"]), row
        assert row["small"] == "True", row
    # every pair of variants the tiny run has both of is compared (NeST-BO's short budget)
    settings = load_settings(merged_config([REPO / "config" / "config.yaml", TINY]))
    ran = set(settings.fig1.methods.methods)
    pairs = {(m, a) for m, a in settings.method_comparison.pairs.items() if {m, a} <= ran}
    assert pairs
    assert pairs <= {(row["method"], row["against"]) for row in rows}
