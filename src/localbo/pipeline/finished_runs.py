"""Runs of a job kept as they finish, so that a job killed part way resumes where it stopped.

A Fig. 1 job runs a chunk of sample paths one after the other; at paper scale one chunk takes up to
an hour (TuRBO-1 and MPD at d = 50), and a job may die by a cluster's time limit, a node failure or
a machine's shutdown. So each finished run is written at once, atomically, to a directory beside the
job's outputs, with a fingerprint of all its result depends on: the job's parameters, the run's
name, the bytes of its input files (the sample path, and a plug-in method's source), the source of
the `localbo` package and the versions of Python, numpy and scipy. Snakemake deletes a killed job's
outputs but not this directory; the rerun takes each run whose fingerprint matches and runs the
others (an unreadable file, from a crash mid-write, counts as absent), and the directory goes once
the outputs are written. A run made with other parameters, inputs, code or libraries never matches,
so the outputs are those of the job run whole, the runs being deterministic in their streams
(tested: every array and every summary field but the run's wall seconds, which are the attempt's
that made it). A resumable method's run in progress keeps its state there too, every few minutes
(`localbo.checkpoint`), under the same fingerprint, so a rerun takes up even the run the kill
interrupted."""

from __future__ import annotations

import hashlib
import json
import shutil
import sys
import zipfile
from functools import cache, partial
from pathlib import Path
from typing import Any

import numpy as np
import scipy

import localbo
from localbo.checkpoint import Checkpoint
from localbo.io import load_npz, save_npz

SUMMARY, FINGERPRINT = "__summary__", "__fingerprint__"  # keys beside the run's arrays


@cache
def source_digest() -> str:
    """sha256 of every Python file of the installed `localbo` package, with its relative path."""
    root = Path(localbo.__file__).parent
    digest = hashlib.sha256()
    for file in sorted(root.rglob("*.py")):
        digest.update(str(file.relative_to(root)).encode() + b"\0" + file.read_bytes() + b"\0")
    return digest.hexdigest()


def fingerprint(params: dict[str, Any], run: str, inputs: list[str | Path]) -> str:
    """sha256 of what one run's result depends on: the job's parameters (JSON-ready), the run's
    name within the job, the bytes of its input files, the package source and the versions of
    Python, numpy and scipy."""
    software = [sys.version, np.__version__, scipy.__version__, source_digest()]
    digest = hashlib.sha256(json.dumps([params, run, software], sort_keys=True).encode())
    for file in inputs:
        content = Path(file).read_bytes()
        digest.update(len(content).to_bytes(8, "little") + content)
    return digest.hexdigest()


class FinishedRuns:
    """The finished runs of one job, one .npz each in `directory`.

    Args:
        directory: where the runs go (beside the job's outputs; created when the first is kept).
    """

    def __init__(self, directory: str | Path) -> None:
        self.directory = Path(directory)

    def _file(self, run: str) -> Path:
        return self.directory / f"{run}.npz"

    def get(self, run: str, key: str) -> tuple[dict[str, Any], dict[str, np.ndarray]] | None:
        """(summary, arrays) of a kept run whose fingerprint is `key`, else None (also when
        its file is missing or unreadable)."""
        arrays = self._read(self._file(run), key)
        if arrays is None or SUMMARY not in arrays:
            return None
        return json.loads(str(arrays.pop(SUMMARY))), arrays

    def put(
        self, run: str, key: str, summary: dict[str, Any], arrays: dict[str, np.ndarray]
    ) -> None:
        """Keep a finished run: its JSON-ready summary and its arrays; its checkpoint goes."""
        self._write(self._file(run), key, {**arrays, SUMMARY: np.array(json.dumps(summary))})
        self._partial(run).unlink(missing_ok=True)

    def _partial(self, run: str) -> Path:
        return self.directory / f"{run}.partial.npz"

    def checkpoint(self, run: str, key: str) -> Checkpoint:
        """Where the run in progress keeps its state (a resumable method's); a state saved with
        another fingerprint, or unreadable, is not taken up."""
        file = self._partial(run)
        return Checkpoint(lambda: self._read(file, key), partial(self._write, file, key))

    def _read(self, file: Path, key: str) -> dict[str, np.ndarray] | None:
        """The arrays of `file` without its fingerprint, if that is `key`; else None (also when
        the file is missing or unreadable)."""
        try:
            arrays = load_npz(file)
        except (OSError, EOFError, ValueError, zipfile.BadZipFile):
            return None
        return arrays if str(arrays.pop(FINGERPRINT, "")) == key else None

    def _write(self, file: Path, key: str, arrays: dict[str, np.ndarray]) -> None:
        """Write the arrays to `file` with the fingerprint `key`, atomically."""
        self.directory.mkdir(parents=True, exist_ok=True)
        save_npz(file, **arrays, **{FINGERPRINT: np.array(key)})

    def clear(self) -> None:
        """Remove every kept run (once the job's outputs are written)."""
        shutil.rmtree(self.directory, ignore_errors=True)
