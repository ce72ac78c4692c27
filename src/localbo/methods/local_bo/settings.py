"""The knobs of local BO and its batch schedules b_t (paper section 5)."""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from typing import Any

from localbo.settings_checks import require

BATCH_SCHEDULES = ("constant", "d_log2_t", "d_t", "d_t2")
STEP_RULES = ("fixed", "normalized")
# The knobs only the sigma > 0 driver reads (bfgs_gtol is the sigma = 0 driver's alone).
NOISY_KNOBS = ("schedule", "batch_factor", "step_rule", "step_size")


@dataclass(frozen=True)
class LocalBOSettings:
    """Knobs of local BO; the defaults are the paper-scale pipeline's (`fig1.methods.local_bo`).

    Attributes:
        min_noise_var: nugget added to sigma^2 (keeps sigma = 0 factorizable).
        design_max_iterations: L-BFGS iterations when optimizing a design.
        design_optimize_max_b: batches larger than this use the best differencing design with
            optimal step, unoptimized (an L-BFGS over b x d variables would cost O(b^3) per step).
        design_perturbation: jitter of the design optimizer's start, relative to the step.
        bfgs_gtol: BFGS stops when the estimated gradient norm is below this (sigma = 0).
        schedule: batch schedule for sigma > 0, one of BATCH_SCHEDULES.
        batch_factor: b_t = ceil(batch_factor * d * g(t)), g = 1, max(1, ln^2 t), t, t^2.
        step_rule: "fixed" (eta * grad mu) or "normalized" (eta * grad mu / ||grad mu||, GIBO).
        step_size: eta.
        data_window: number of previous batches kept in the GP (0: each gradient from its own
            batch only, the design then comes from the cache).
    """

    min_noise_var: float = 1e-10
    design_max_iterations: int = 200
    design_optimize_max_b: int = 200
    design_perturbation: float = 0.1
    bfgs_gtol: float = 1e-6
    schedule: str = "constant"
    batch_factor: float = 1.0
    step_rule: str = "normalized"
    step_size: float = 0.25
    data_window: int = 0

    def __post_init__(self) -> None:
        if self.schedule not in BATCH_SCHEDULES:
            raise ValueError(f"unknown schedule {self.schedule!r}; known: {BATCH_SCHEDULES}")
        if self.step_rule not in STEP_RULES:
            raise ValueError(f"unknown step rule {self.step_rule!r}; known: {STEP_RULES}")
        require(self, lambda v: v > 0, "> 0", "step_size", "batch_factor", "bfgs_gtol")
        counts = ("design_max_iterations", "design_optimize_max_b", "data_window")
        scales = ("min_noise_var", "design_perturbation")
        require(self, lambda v: v >= 0, ">= 0", *counts, *scales)

    def read_at(self, sigma: float) -> tuple[str, ...]:
        """The knobs a run at noise level sigma reads: a job's params hold these only, so a
        change of another reruns nothing."""
        skip = ("bfgs_gtol",) if sigma > 0 else NOISY_KNOBS
        return tuple(f.name for f in fields(self) if f.name not in skip)

    def design_options(self) -> dict[str, Any]:
        """The keyword arguments of `localbo.designs.optimal_design` these settings fix."""
        return {
            "max_iterations": self.design_max_iterations,
            "optimize_max_b": self.design_optimize_max_b,
            "perturbation": self.design_perturbation,
        }


def batch_size(schedule: str, d: int, t: int, factor: float = 1.0) -> int:
    """b_t of a schedule at iteration t >= 1: ceil(factor * d * g(t)) and at least 1.

    g(t) = 1 ("constant"), max(1, ln^2 t) ("d_log2_t", floored so b_1 > 0), t ("d_t"),
    t^2 ("d_t2").

    Example:
        >>> [batch_size("d_t", 4, t) for t in (1, 2, 3)]
        [4, 8, 12]
    """
    growth = {
        "constant": 1.0,
        "d_log2_t": max(1.0, math.log(t) ** 2),
        "d_t": float(t),
        "d_t2": float(t) ** 2,
    }[schedule]
    return max(1, math.ceil(factor * d * growth - 1e-9))
