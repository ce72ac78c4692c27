"""What the gallery's Fig. 1 still lacks: the config's runs against the table's rows."""

from pathlib import Path

import pytest

from localbo.gallery.__main__ import main
from localbo.gallery.parts import asked_runs, run_key
from localbo.gallery.still_to_run import missing_runs, ranges, report
from localbo.io import save_csv
from localbo.pipeline.settings import load_settings, merged_config

REPO = Path(__file__).resolve().parents[2]
OVERRIDE = """
fig1:
  methods:
    turbo: null
    mpd: null
    gp_ucb:
      dims: [1, 10]
      path_range: [0, 6]
    local_bo:
      noise_levels: [0.0, 0.2]
"""


def rows(method, d, sigma, paths):
    return [{"method": method, "d": d, "sigma": sigma, "path": i, "value": -1.0} for i in paths]


@pytest.fixture
def configs(tmp_path):
    override = tmp_path / "part.yaml"
    override.write_text(OVERRIDE)
    return [REPO / "config" / "config.yaml", override]


def test_the_runs_the_config_asks_and_the_table_lacks_are_listed_by_cell(configs):
    settings = load_settings(merged_config(configs))
    table = rows("gp_ucb", 10, 0.0, [1, 2, 4]) + rows("gp_ucb", 1, 0.0, range(6))
    table += rows("local_bo", 5, 0.2, range(50))
    table += rows("local_bo", 5, 0.05, [0])  # a noise level this config does not ask for
    table = [{k: str(v) for k, v in row.items()} for row in table]  # as the CSV reads back
    missing = missing_runs(asked_runs(settings), {run_key(row) for row in table})
    assert missing[("gp_ucb", 10, 0.0)] == [0, 3, 5]
    assert ("gp_ucb", 1, 0.0) not in missing  # complete
    assert ("local_bo", 5, 0.2) not in missing
    assert missing[("local_bo", 5, 0.0)] == list(range(50))
    assert ("local_bo", 5, 0.05) not in missing
    assert not any(cell[0] in ("turbo", "mpd") for cell in missing)  # left out by the override
    assert missing[("random_search", 50, 0.0)] == list(range(50))  # kept from config/config.yaml
    lines = report(settings, missing)
    gp_ucb = settings.fig1.method("gp_ucb").optimizer.cost(10, 5000).seconds
    assert (
        f"gp_ucb d=10 sigma=0: 3 of 6 run; paths 0, 3, 5 still to run, about "
        f"{3 * gp_ucb / 3600:.1f} CPU-hours"
    ) in lines
    assert len(lines) == len(missing) + 1
    assert lines[-1].startswith(f"still to run: {sum(map(len, missing.values()))} runs, about ")


def test_paths_are_written_as_ranges():
    assert ranges([0, 1, 2, 5, 7, 8]) == "0-2, 5, 7-8"
    assert ranges([4]) == "4"


def test_the_command_reads_the_galleries_table(configs, tmp_path, capsys):
    gallery = tmp_path / "gallery"
    gallery.mkdir()
    save_csv(
        gallery / "fig1-local_solutions.csv",
        rows("gp_ucb", 10, 0.0, range(6)),
        ["method", "d", "sigma", "path", "value"],
    )
    main(["--gallery", str(gallery), "still-to-run", "--config", *map(str, configs)])
    out = capsys.readouterr().out
    assert "gp_ucb d=1 sigma=0: 0 of 6 run; paths 0-5" in out
    assert "gp_ucb d=10" not in out
