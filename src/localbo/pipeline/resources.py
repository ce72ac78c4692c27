"""Cluster resources that grow with the retry attempt, so a job that a scheduler killed for its
memory or its time limit comes back with more (the profile's `retries`).

Snakemake passes `attempt` (1 on the first run, 2 on the first retry, ...) to a resource function
that names it; `per_attempt` turns a number or a function of the wildcards into such a function.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def per_attempt(base: int | Callable[[Any], int]) -> Callable[[Any, int], int]:
    """A `mem_mb` or `runtime` for Snakemake: `base` (or `base(wildcards)`) times the attempt.

    Example:
        >>> per_attempt(500)(None, 3)
        1500
    """

    def resource(wildcards: Any, attempt: int) -> int:
        value = base(wildcards) if callable(base) else base
        return int(value * attempt)

    return resource
