"""What a job costs, and the cluster resources asked for it: one model, the padding in one place.

Each compute rule has a cost model, a function of the job's wildcards giving its `JobCost`: the
CPU seconds the job is expected to take (all its threads, its start-up included) and its peak
memory. `localbo.pipeline.plan` adds the models up into the forecast printed before a run; the
rules ask the scheduler for the same numbers with a margin (`scheduled`):

- runtime: `RUNTIME_FACTOR` times the expected wall time (CPU seconds over threads), plus
  `RUNTIME_FLOOR_MINUTES`, for a busy node and the job's start;
- mem_mb: `MEMORY_FACTOR` times the expected peak, at least `MEMORY_FLOOR_MB`;

both times the attempt, so a job that a scheduler killed for its memory or its time limit comes
back with more (the profile's `retries`; Snakemake passes `attempt`, 1 on the first run, to a
resource function that names it).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

RUNTIME_FACTOR = 3.0
RUNTIME_FLOOR_MINUTES = 5
MEMORY_FACTOR = 1.5
MEMORY_FLOOR_MB = 500


@dataclass(frozen=True)
class JobCost:
    """What one job is expected to cost.

    Attributes:
        cpu_seconds: CPU seconds of the job's process, all threads, start-up included.
        mem_mb: its peak resident memory in MB.
    """

    cpu_seconds: float
    mem_mb: float

    def __add__(self, other: JobCost) -> JobCost:
        """Two pieces of work one after the other: their seconds add, the larger peak counts."""
        return JobCost(self.cpu_seconds + other.cpu_seconds, max(self.mem_mb, other.mem_mb))


# A pipeline script's process before its work: Python with numpy, scipy and the package
# imported (about 0.5 s, 65 MB); a plot job, matplotlib imported and one figure drawn and saved
# as PDF and PNG (3 s, 150 MB); `bench/forecast_check.py` checks both against the jobs' logs
START_UP = JobCost(cpu_seconds=0.5, mem_mb=100)
PLOT_START_UP = JobCost(cpu_seconds=3.0, mem_mb=150)

CostModel = Callable[[Any], JobCost]


def runtime_minutes(cost: JobCost, threads: int = 1) -> int:
    """The runtime a job asks for on its first attempt, in minutes.

    Example:
        >>> runtime_minutes(JobCost(cpu_seconds=600.0, mem_mb=100), threads=2)
        20
    """
    return RUNTIME_FLOOR_MINUTES + math.ceil(RUNTIME_FACTOR * cost.cpu_seconds / threads / 60)


def memory_mb(cost: JobCost) -> int:
    """The memory a job asks for on its first attempt, in MB.

    Example:
        >>> memory_mb(JobCost(cpu_seconds=1.0, mem_mb=1000)), memory_mb(JobCost(1.0, 100))
        (1500, 500)
    """
    return max(MEMORY_FLOOR_MB, math.ceil(MEMORY_FACTOR * cost.mem_mb))


def scheduled(cost_of: CostModel) -> dict[str, Callable[..., int]]:
    """A rule's `mem_mb` and `runtime` resources from its cost model, growing with the attempt.

    Example:
        >>> resources = scheduled(lambda wildcards: JobCost(cpu_seconds=60.0, mem_mb=400))
        >>> resources["mem_mb"](None, 2), resources["runtime"](None, 1, 1)
        (1200, 8)
    """

    def mem_mb(wildcards: Any, attempt: int) -> int:
        return attempt * memory_mb(cost_of(wildcards))

    def runtime(wildcards: Any, threads: int, attempt: int) -> int:
        return attempt * runtime_minutes(cost_of(wildcards), threads)

    return {"mem_mb": mem_mb, "runtime": runtime}
