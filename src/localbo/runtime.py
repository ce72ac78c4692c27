"""What every pipeline script does first: log to the rule's log, limit BLAS threads.

Scripts run under Snakemake's `script:` directive receive a `snakemake` object. `snakemake_job`
sends the script's stderr, Python warnings (including `JitterWarning`) and `logging` output to the
rule's log file, and limits BLAS/OpenMP threads to the rule's `threads`, so a 2-thread rule never
runs on 8 BLAS threads and a cluster allocation is honoured.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from threadpoolctl import threadpool_limits


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
        level=logging.INFO,
        format="%(asctime)s %(name)s %(levelname)s %(message)s",
        force=True,
    )
    logging.captureWarnings(True)
    logger = logging.getLogger(f"localbo.rule.{smk.rule}")
    try:
        with threadpool_limits(limits=int(smk.threads)):
            yield logger
    except Exception:
        logger.exception("job failed")
        raise
    finally:
        logging.shutdown()
        sys.stderr = saved_stderr
        if handle is not saved_stderr:
            handle.close()
