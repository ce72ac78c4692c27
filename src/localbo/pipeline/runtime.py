"""What every pipeline script does first: log to the rule's log, limit BLAS threads, keep memory.

Scripts run under Snakemake's `script:` directive receive a `snakemake` object. `snakemake_job`
sends the script's stderr, Python warnings (including `JitterWarning`) and `logging` output to the
rule's log file, and limits BLAS/OpenMP threads to the rule's `threads`, so a 2-thread rule never
runs on 8 BLAS threads and a cluster allocation is honoured. As the job ends, it logs the CPU
time of its process (`localbo.pipeline.job_cpu`: Snakemake's benchmark samples it every 30 s and
misses the rest). It also asks glibc to keep freed memory (`keep_freed_memory`): an L-BFGS over a
design allocates the same b x b matrices at every evaluation, and returning them to the OS each
time costs a page fault per 4 KiB on the next allocation (about half the time of one alpha_trace
evaluation at b = 500).
"""

from __future__ import annotations

import ctypes
import logging
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from threadpoolctl import threadpool_limits

from localbo.pipeline.job_cpu import job_cpu_line

_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3  # glibc's mallopt parameters


def blas_threads(threads: int) -> threadpool_limits:
    """A limit of `threads` threads on every BLAS of the process, scipy's own OpenBLAS included.

    scipy ships an OpenBLAS of its own beside numpy's, loaded when `scipy.linalg` is first
    imported, and threadpoolctl limits only the libraries loaded when the limit is set: the
    import comes first, or every triangular solve (`localbo.blas`) runs on the machine's cores.
    """
    import scipy.linalg  # noqa: F401

    return threadpool_limits(limits=threads)


def keep_freed_memory() -> bool:
    """Make glibc reuse freed large blocks instead of unmapping them (a no-op elsewhere).

    Returns:
        Whether both settings were accepted.
    """
    try:
        libc = ctypes.CDLL("libc.so.6")
    except OSError:
        return False
    limit = 2**31 - 1
    return bool(libc.mallopt(_M_MMAP_THRESHOLD, limit)) and bool(
        libc.mallopt(_M_TRIM_THRESHOLD, limit)
    )


@contextmanager
def snakemake_job(smk: Any) -> Iterator[logging.Logger]:
    """Context for the body of a pipeline script.

    Args:
        smk: the `snakemake` object Snakemake injects into scripts (log, threads, rule).

    Yields:
        A logger writing to the rule's log file.
    """
    log_path = smk.log[0] if len(smk.log) else None
    handle = open(log_path, "a") if log_path else sys.stderr  # noqa: SIM115
    saved_stderr = sys.stderr
    sys.stderr = handle
    logging.basicConfig(
        stream=handle,
        level=logging.WARNING,  # other libraries' INFO (fontTools' font subsetting) stays out
        format="%(asctime)s %(name)s %(levelname)s %(message)s",
        force=True,
    )
    logging.getLogger("localbo").setLevel(logging.INFO)
    logging.captureWarnings(True)
    logger = logging.getLogger(f"localbo.rule.{smk.rule}")
    keep_freed_memory()
    try:
        with blas_threads(int(smk.threads)):
            yield logger
    except Exception:
        logger.exception("job failed")
        raise
    finally:
        logger.info(job_cpu_line(time.process_time()))
        logging.shutdown()
        sys.stderr = saved_stderr
        if handle is not saved_stderr:
            handle.close()
