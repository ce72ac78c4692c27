"""Atomic outputs: nothing half-written under the final name, and the mode honours the umask."""

import os
import stat
from pathlib import Path

import numpy as np
import pytest

from localbo.io import (
    atomic_path,
    load_csv,
    load_json,
    load_npz,
    save_csv,
    save_json,
    save_npz,
)


@pytest.fixture
def umask():
    """Set a umask for one test and put the old one back."""
    saved = os.umask(0o022)
    yield lambda mask: os.umask(mask)
    os.umask(saved)


@pytest.mark.parametrize(("mask", "mode"), [(0o022, 0o644), (0o002, 0o664), (0o077, 0o600)])
def test_every_writer_honours_the_umask(tmp_path, umask, mask, mode):
    umask(mask)
    save_json(tmp_path / "a.json", {"x": 1})
    save_npz(tmp_path / "a.npz", x=np.arange(3))
    save_csv(tmp_path / "a.csv", [{"x": 1.5}], ["x"])
    for name in ("a.json", "a.npz", "a.csv"):
        assert stat.S_IMODE((tmp_path / name).stat().st_mode) == mode, name


def test_a_failed_write_leaves_nothing_under_either_name(tmp_path):
    target = tmp_path / "out.json"
    with pytest.raises(RuntimeError), atomic_path(target) as tmp:
        tmp.write_text("half")
        raise RuntimeError("killed")
    assert list(tmp_path.iterdir()) == []


def test_a_file_reaches_the_disk_before_it_takes_its_name(tmp_path, monkeypatch):
    synced = []

    def fsync(fd):
        synced.append((os.readlink(f"/proc/self/fd/{fd}"), (tmp_path / "x.json").exists()))

    monkeypatch.setattr(os, "fsync", fsync)
    save_json(tmp_path / "x.json", {"a": 1})
    assert len(synced) == 1
    staged, renamed_already = synced[0]
    assert Path(staged).name.startswith(".x.json.") and not renamed_already


def test_round_trips(tmp_path):
    save_json(tmp_path / "a.json", {"b": [1, 2], "a": 0.1})
    assert load_json(tmp_path / "a.json") == {"a": 0.1, "b": [1, 2]}
    save_npz(tmp_path / "a.npz", x=np.eye(2))
    np.testing.assert_array_equal(load_npz(tmp_path / "a.npz")["x"], np.eye(2))


def test_csv_rows_come_back_as_written_and_a_tsv_reads_by_its_delimiter(tmp_path):
    rows = [{"name": 'a, "b"', "value": 0.1}, {"name": "c\nd", "value": 2}]
    save_csv(tmp_path / "t.csv", rows, ["name", "value"])
    assert load_csv(tmp_path / "t.csv") == [
        {"name": 'a, "b"', "value": "0.1"},
        {"name": "c\nd", "value": "2"},
    ]
    (tmp_path / "b.tsv").write_text("s\tcpu_time\n1.5\t2.25\n")
    assert load_csv(tmp_path / "b.tsv", delimiter="\t") == [{"s": "1.5", "cpu_time": "2.25"}]
