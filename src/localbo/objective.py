"""The black box every optimizer sees: a sample path behind a noisy, budget-counting oracle.

An optimizer of Fig. 1 (local BO, GP-UCB, random search) gets a `NoisyObjective`. Each row it asks
for costs one evaluation and returns f(x) + sigma * eps, eps ~ N(0, 1), drawn from the objective's
own random stream (never the optimizer's). A request for more rows than the remaining budget is
refused before anything is evaluated (`BudgetExhausted`), so no optimizer can exceed its budget.
The noise-free value and gradient are available for reporting only (`true_value`,
`true_gradient`) and are never counted: they are what the figures plot, not what the optimizer
sees.

Every optimizer returns an `OptimizationResult`: the returned point, the true f there, the
evaluations used, the wall and CPU time and a `Trace` of (evaluations, iterate, true f, true
gradient norm) that the convergence figures reuse.

References:
    The paper, section 3 (Fig. 1 protocol: budget 5000, true value at the returned point).
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from localbo.checkpoint import generator_state, restore_generator
from localbo.sample_paths import FourierSamplePath

log = logging.getLogger(__name__)
# evaluations between two progress lines of a slow method's run (`Trace.progress_every`)
PROGRESS_EVERY = 250
# the summary keys that measure time, which identical runs do not reproduce (tables and tests of
# equal runs leave them out): a run's wall and CPU seconds, and the part of its CPU seconds spent
# in earlier attempts of its pipeline job (`localbo.pipeline.fig1_job.run_chunk`)
TIMES = frozenset({"seconds", "cpu_seconds", "cpu_seconds_before"})


def without_times(summary: dict[str, Any]) -> dict[str, Any]:
    """`summary` without its `TIMES`."""
    return {key: value for key, value in summary.items() if key not in TIMES}


class BudgetExhausted(RuntimeError):
    """An optimizer asked for more evaluations than its budget has left."""


@dataclass(frozen=True)
class Box:
    """The box [lower, upper]^d (the same bounds in every coordinate).

    Args:
        lower: lower bound. upper: upper bound (> lower). d: dimension.
    """

    lower: float
    upper: float
    d: int

    def __post_init__(self) -> None:
        if not self.upper > self.lower or self.d < 1:
            raise ValueError(f"need upper > lower and d >= 1, got {self}")

    @property
    def width(self) -> float:
        return self.upper - self.lower

    def project(self, X: np.ndarray) -> np.ndarray:
        """Euclidean projection onto the box (clipping), any shape ending in d."""
        return np.clip(X, self.lower, self.upper)

    def uniform(self, n: int, rng: np.random.Generator) -> np.ndarray:
        """(n, d) points uniform in the box."""
        return rng.uniform(self.lower, self.upper, size=(n, self.d))

    def bounds(self) -> list[tuple[float, float]]:
        """Bounds in the format of scipy.optimize.minimize."""
        return [(self.lower, self.upper)] * self.d


class NoisyObjective:
    """A sample path observed with Gaussian noise, counting evaluations against a budget.

    Args:
        path: the noise-free function f (values and gradients at (n, d) points).
        sigma: noise standard deviation >= 0.
        budget: number of evaluations allowed (>= 0).
        rng: the observation-noise stream (its own stream, not the optimizer's); may be None
            when sigma = 0.

    Example:
        >>> from localbo.kernels import RBF
        >>> from localbo.seeding import rng_for
        >>> f = FourierSamplePath.draw(RBF(), 2, 64, rng_for(0, "path"))
        >>> obj = NoisyObjective(f, 0.1, budget=3, rng=rng_for(0, "noise"))
        >>> obj(np.zeros((2, 2))).shape, obj.remaining
        ((2,), 1)
    """

    def __init__(
        self,
        path: FourierSamplePath,
        sigma: float,
        budget: int,
        rng: np.random.Generator | None = None,
    ) -> None:
        if sigma < 0 or budget < 0:
            raise ValueError(f"need sigma >= 0 and budget >= 0, got {sigma}, {budget}")
        if sigma > 0 and rng is None:
            raise ValueError("a noisy objective needs its own noise stream (rng)")
        self.path = path
        self.sigma = float(sigma)
        self.budget = int(budget)
        self.rng = rng
        self.used = 0

    @property
    def remaining(self) -> int:
        return self.budget - self.used

    def __call__(self, X: np.ndarray) -> np.ndarray:
        """Noisy observations at the rows of X.

        Args:
            X: (n, d) points.

        Returns:
            (n,) observations f(X) + sigma * eps.

        Raises:
            BudgetExhausted: n exceeds the remaining budget (nothing is evaluated or counted).
        """
        X = np.atleast_2d(np.asarray(X, dtype=float))
        n = X.shape[0]
        if n > self.remaining:
            raise BudgetExhausted(f"asked for {n} evaluations, {self.remaining} left")
        self.used += n
        y = self.path(X)
        if self.rng is not None and self.sigma > 0:
            y = y + self.sigma * self.rng.standard_normal(n)
        return y

    def observe_design(self, x: np.ndarray, offsets: np.ndarray, counts: np.ndarray) -> np.ndarray:
        """Mean of counts[j] noisy observations at x + offsets[j], for each j.

        Costs counts.sum() evaluations and draws that many noise values, in the order of
        `self(np.repeat(x + offsets, counts, axis=0))`, so it observes the same numbers (the
        same noise; the path's values to about 1e-15). For a Fourier sample path the noise-free
        values come from its translated-design tables (exact in arithmetic, O(M d + p M) per
        call instead of O(p M d)), which the path keeps; other functions
        are evaluated point by point.

        Args:
            x: (d,) center. offsets: (p, d) unique offsets. counts: (p,) copies of each.

        Returns:
            (p,) mean observation at each point.

        Raises:
            BudgetExhausted: counts.sum() exceeds the remaining budget (nothing is counted).
            ValueError: counts is not one count >= 1 per offset.
        """
        if counts.shape != (len(offsets),) or counts.min(initial=1) < 1:
            raise ValueError(f"need a count >= 1 per offset ({len(offsets)}), got {counts}")
        n = int(counts.sum())
        if n > self.remaining:
            raise BudgetExhausted(f"asked for {n} evaluations, {self.remaining} left")
        self.used += n
        if hasattr(self.path, "translate"):
            f = self.path.translate(offsets)(x)
        else:  # any other test function: evaluate the points directly
            f = self.path(x[None, :] + offsets)
        if self.rng is None or self.sigma == 0:
            return f
        y = np.repeat(f, counts) + self.sigma * self.rng.standard_normal(n)
        starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
        return np.add.reduceat(y, starts) / counts

    def state(self) -> dict[str, np.ndarray]:
        """The evaluations used and the noise stream's state (a checkpoint of a long run)."""
        noise = generator_state(self.rng) if self.rng is not None else np.array("")
        return {"objective_used": np.array(self.used), "objective_noise": noise}

    def restore(self, state: dict[str, np.ndarray]) -> None:
        """Take up the evaluations used and the noise stream where `state` recorded them."""
        self.used = int(state["objective_used"])
        if self.rng is not None:
            restore_generator(self.rng, state["objective_noise"])

    def true_value(self, x: np.ndarray) -> float:
        """Noise-free f at a (d,) point; not counted."""
        return float(self.path(x[None, :])[0])

    def true_value_and_gradient(self, X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Noise-free f (n,) and grad f (n, d) at (n, d) points; not counted. The path's
        `value_and_gradient` where it has one (a Fourier path shares the work), else its
        `f(X)` and `f.gradient(X)`: any such object can be minimized."""
        both = getattr(self.path, "value_and_gradient", None)
        if both is not None:
            return both(X)
        return self.path(X), self.path.gradient(X)

    def true_gradient(self, x: np.ndarray) -> np.ndarray:
        """Noise-free grad f at a (d,) point, (d,); not counted."""
        return self.path.gradient(x[None, :])[0]


@dataclass
class Trace:
    """What an optimizer did, one row per record: evaluations used so far, the current point
    (the iterate for local BO, the incumbent for the global methods), and the true f and true
    gradient norm there; plus any method-specific quantities (`extras`, e.g. TuRBO's region).

    With `progress_every`, a record that passes a multiple of it also logs the evaluations, that
    f and the seconds since the trace began (the slow methods' long runs are not silent until
    they end); nothing of it enters the trace. The wall and CPU seconds since the trace began go on
    across a checkpoint (`state`, `from_state`): a run taken up from one counts its earlier
    attempts too (not the work a killed attempt did after its last state).
    """

    evaluations: list[int] = field(default_factory=list)
    iterates: list[np.ndarray] = field(default_factory=list)
    values: list[float] = field(default_factory=list)
    gradient_norms: list[float] = field(default_factory=list)
    extras: dict[str, list[Any]] = field(default_factory=dict)
    progress_every: int | None = field(default=None, compare=False)
    started: float = field(default_factory=time.perf_counter, compare=False, repr=False)
    cpu_started: float = field(default_factory=time.process_time, compare=False, repr=False)

    def record(self, objective: NoisyObjective, x: np.ndarray, **extras: Any) -> None:
        """Append (objective.used, x, f(x), ||grad f(x)||) with the noise-free f, and the
        extras (the same names at every record of a run)."""
        value, grad = objective.true_value_and_gradient(x[None, :])
        before = self.evaluations[-1] if self.evaluations else 0
        self.evaluations.append(objective.used)
        self.iterates.append(np.array(x, dtype=float))
        self.values.append(float(value[0]))
        self.gradient_norms.append(float(np.linalg.norm(grad[0])))
        for name, extra in extras.items():
            self.extras.setdefault(name, []).append(np.array(extra, dtype=float))
        every = self.progress_every
        if every and objective.used // every > before // every:
            log.info(
                "%d evaluations, f = %.4f at the current point, %.1f s (CPU %.1f s)",
                objective.used,
                value[0],
                time.perf_counter() - self.started,
                time.process_time() - self.cpu_started,
            )

    def state(self) -> dict[str, np.ndarray]:
        """`arrays` with names prefixed trace_, and the wall and CPU seconds since the trace
        began (a checkpoint of a long run)."""
        return {
            "trace_seconds": np.array(time.perf_counter() - self.started),
            "trace_cpu_seconds": np.array(time.process_time() - self.cpu_started),
            **{f"trace_{k}": v for k, v in self.arrays().items()},
        }

    @classmethod
    def from_state(cls, state: dict[str, np.ndarray], progress_every: int | None = None) -> Trace:
        """The trace `state` recorded; its wall and CPU seconds go on from the recorded ones."""
        fields = {k.removeprefix("trace_"): v for k, v in state.items() if k.startswith("trace_")}
        trace = cls(
            evaluations=[int(e) for e in fields.pop("evaluations")],
            iterates=list(fields.pop("iterates")),
            values=[float(v) for v in fields.pop("values")],
            gradient_norms=[float(g) for g in fields.pop("gradient_norms")],
            progress_every=progress_every,
            started=time.perf_counter() - float(fields.pop("seconds")),
            cpu_started=time.process_time() - float(fields.pop("cpu_seconds")),
        )
        trace.extras = {name: list(rows) for name, rows in fields.items()}
        return trace

    def arrays(self) -> dict[str, np.ndarray]:
        """The trace as arrays: evaluations (k,), iterates (k, d), values (k,), gradient_norms
        (k,), and each extra (k, ...)."""
        d = self.iterates[0].shape[0] if self.iterates else 0
        return {
            "evaluations": np.asarray(self.evaluations, dtype=np.int64),
            "iterates": np.asarray(self.iterates, dtype=float).reshape(-1, d),
            "values": np.asarray(self.values, dtype=float),
            "gradient_norms": np.asarray(self.gradient_norms, dtype=float),
            **{name: np.asarray(rows) for name, rows in self.extras.items()},
        }


@dataclass
class OptimizationResult:
    """The outcome of one optimizer run.

    Attributes:
        x: (d,) returned point.
        value: true (noise-free) f(x).
        gradient_norm: true ||grad f(x)||.
        evaluations: evaluations used (never above the budget).
        seconds: wall time. cpu_seconds: CPU time of this process, all its threads (both go on
            across a checkpoint, `Trace.from_state`).
        trace: the run's `Trace`.
        info: method-specific scalars (iterations, stop reason, ...).
        observations: (X (n, d), y (n,)) every evaluated point and its observation, for the
            methods that keep them (GP-UCB, random search); not saved.
        model: the final GP of GP-UCB (for tests and diagnostics); not saved.
    """

    x: np.ndarray
    value: float
    gradient_norm: float
    evaluations: int
    seconds: float
    cpu_seconds: float
    trace: Trace
    info: dict[str, float | int | str] = field(default_factory=dict)
    observations: tuple[np.ndarray, np.ndarray] | None = None
    model: Any = None

    def summary(self) -> dict[str, float | int | str]:
        """JSON-ready scalars of the run."""
        return {
            "value": self.value,
            "gradient_norm": self.gradient_norm,
            "evaluations": self.evaluations,
            "seconds": self.seconds,
            "cpu_seconds": self.cpu_seconds,
            **self.info,
        }


def finish(
    objective: NoisyObjective,
    x: np.ndarray,
    trace: Trace,
    **info: float | int | str,
) -> OptimizationResult:
    """Build the result for returned point x: true f and gradient norm, evaluations, and the
    wall and CPU seconds since the trace began (a method makes its trace first)."""
    value, grad = objective.true_value_and_gradient(x[None, :])
    return OptimizationResult(
        x=np.array(x, dtype=float),
        value=float(value[0]),
        gradient_norm=float(np.linalg.norm(grad[0])),
        evaluations=objective.used,
        seconds=time.perf_counter() - trace.started,
        cpu_seconds=time.process_time() - trace.cpu_started,
        trace=trace,
        info=dict(info),
    )
