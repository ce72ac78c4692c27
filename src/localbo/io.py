"""Atomic file output and safe input: a killed job never leaves a half-written result.

Every writer goes to a temporary file in the destination's directory and renames it into place
(rename is atomic on POSIX); arrays are read with allow_pickle=False. The file gets the mode any
new file gets (0666 less the umask), so a group can read results on a shared cluster:
`tempfile.mkstemp` alone would leave it 0600.
"""

from __future__ import annotations

import csv
import json
import math
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

import numpy as np

# the first character of `atomic_path`'s temporary names: a writer killed by SIGKILL leaves one
TEMPORARY = "."


def made_files(folder: Path, pattern: str) -> list[Path]:
    """The files of `folder` matching `pattern`, sorted, without a killed writer's temporary
    file (`atomic_path`'s names begin with TEMPORARY)."""
    return [path for path in sorted(folder.glob(pattern)) if not path.name.startswith(TEMPORARY)]


@contextmanager
def atomic_path(path: str | Path, suffix: str = "") -> Iterator[Path]:
    """Yield a temporary path next to `path`; rename it to `path` if the block succeeds.

    The temporary name keeps `suffix` (e.g. ".pdf") so writers that infer a format from it work.
    Its data reach the disk (fsync) before the rename, so a node that loses power after it leaves
    the whole file or the old one under `path`, not a truncated one.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f"{TEMPORARY}{path.name}.", suffix=suffix)
    os.fchmod(fd, 0o666 & ~current_umask())
    os.close(fd)
    try:
        yield Path(tmp)
        fd = os.open(tmp, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def current_umask() -> int:
    """The process's umask: from /proc on Linux (no change to it, so no race with other
    threads), else by setting it and putting it back."""
    try:
        with open("/proc/self/status") as handle:
            for line in handle:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except OSError:
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def copy_file(source: str | Path, target: str | Path) -> None:
    """Copy `source` to `target` atomically (a killed copy leaves no half-written target)."""
    with atomic_path(target, suffix=Path(target).suffix) as staged:
        shutil.copyfile(source, staged)


def _write_text(path: str | Path, write: Callable[[IO[str]], None]) -> None:
    with atomic_path(path) as tmp, open(tmp, "w", newline="") as handle:
        write(handle)


def save_json(path: str | Path, obj: Any) -> None:
    """Write `obj` as indented JSON with sorted keys (stable bytes for identical content)."""
    _write_text(path, lambda h: h.write(json.dumps(obj, indent=2, sort_keys=True) + "\n"))


def load_json(path: str | Path) -> Any:
    with open(path) as handle:
        return json.load(handle)


def save_npz(path: str | Path, **arrays: np.ndarray) -> None:
    """Write arrays as an uncompressed .npz, atomically."""
    with atomic_path(path, suffix=".npz") as tmp, open(tmp, "wb") as handle:
        np.savez(handle, **arrays)


def load_npz(path: str | Path) -> dict[str, np.ndarray]:
    """Read every array of an .npz into memory, never unpickling objects."""
    with np.load(path, allow_pickle=False) as data:
        return {key: data[key] for key in data.files}


def save_csv(path: str | Path, rows: list[dict[str, Any]], columns: list[str]) -> None:
    """Write rows (dicts) as CSV with a header, floats in repr form (round-trip exact)."""

    def write(handle: IO[str]) -> None:
        handle.write(",".join(columns) + "\n")
        for row in rows:
            handle.write(",".join(_csv_field(row[c]) for c in columns) + "\n")

    _write_text(path, write)


def load_csv(path: str | Path, delimiter: str = ",") -> list[dict[str, str]]:
    """The rows of a CSV file with a header, as strings (`save_csv` writes them back unchanged);
    `delimiter` "\t" reads a TSV such as Snakemake's benchmark files."""
    with open(path, newline="") as handle:
        return list(csv.DictReader(handle, delimiter=delimiter))


def _csv_field(value: Any) -> str:
    if isinstance(value, float | np.floating):
        return repr(float(value))
    text = str(value)
    if any(ch in text for ch in ',"\n\r'):
        text = '"' + text.replace('"', '""') + '"'
    return text


def blank_nan(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Table rows with NaN (a value a row has not) as an empty cell.

    Example:
        >>> blank_nan([{"a": float("nan"), "b": 1.0}])
        [{'a': '', 'b': 1.0}]
    """
    return [
        {k: "" if isinstance(v, float) and math.isnan(v) else v for k, v in row.items()}
        for row in rows
    ]
