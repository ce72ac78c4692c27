"""The gallery's figures redrawn from its committed tables: only plot rules run."""

import re

import pytest

from tests.workflow.helpers import REPO, snakemake

pytestmark = pytest.mark.workflow


def test_a_gallery_figure_is_redrawn_without_a_compute_rule(tmp_path):
    redraw = REPO / "config" / "redraw.yaml"
    proc = snakemake(
        tmp_path, "--cores", "1", "figures/rbf_error_function.png", configfiles=(redraw,)
    )
    stats = (proc.stdout + proc.stderr).split("Job stats:", 1)[1].split("\n\n", 1)[0]
    ran = dict(re.findall(r"^(\w+)\s+(\d+)$", stats, re.M))
    assert ran == {"rbf_error_plot": "1", "total": "1"}
    assert (tmp_path / "figures" / "rbf_error_function.png").stat().st_size > 10_000
    assert not (tmp_path / "results").exists()  # no table made, no estimate run
