"""Runs of a job kept as they finish, so that a job killed part way resumes where it stopped.

A Fig. 1 job runs a chunk of sample paths one after the other; at paper scale one chunk takes up
to an hour (TuRBO-1 and MPD at d = 50), and a job that dies, by a cluster's time limit, a node
failure or a session's end, used to lose every run it had finished. Now each finished run is
written at once, atomically, to a directory beside the job's outputs, with a fingerprint of all
its result depends on: the job's parameters, the run's name, the bytes of its input files and the
source of the `localbo` package. Snakemake deletes a killed job's outputs but not this directory;
the rerun takes each run whose fingerprint matches and runs the others, and the directory goes
once the outputs are written. A run made with other parameters, other inputs or other code never
matches, so the outputs are those of the job run whole: the runs are deterministic in their
streams (tested: the same bytes whether or not the job was interrupted).

The job's `benchmarks/` time then counts the last attempt only; each run's own CPU seconds stay in
its summary.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

import localbo
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
    name within the job, the bytes of its input files and the package source."""
    digest = hashlib.sha256(json.dumps(params, sort_keys=True).encode())
    digest.update(b"\0" + run.encode() + b"\0" + source_digest().encode())
    for file in inputs:
        digest.update(b"\0" + Path(file).read_bytes())
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
        """(summary, arrays) of a kept run whose fingerprint is `key`, else None."""
        file = self._file(run)
        if not file.exists():
            return None
        arrays = load_npz(file)
        if str(arrays.pop(FINGERPRINT)) != key:
            return None
        return json.loads(str(arrays.pop(SUMMARY))), arrays

    def put(self, run: str, key: str, summary: dict[str, Any], arrays: dict[str, np.ndarray]):
        """Keep a finished run: its JSON-ready summary and its arrays."""
        self.directory.mkdir(parents=True, exist_ok=True)
        save_npz(
            self._file(run),
            **arrays,
            **{SUMMARY: np.array(json.dumps(summary)), FINGERPRINT: np.array(key)},
        )

    def clear(self) -> None:
        """Remove every kept run (once the job's outputs are written)."""
        shutil.rmtree(self.directory, ignore_errors=True)
