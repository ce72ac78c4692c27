"""GP-UCB on a box with an exact GP and known hyperparameters (written for minimization).

At step t the next point minimizes the lower confidence bound

    lcb_t(x) = mu_{t-1}(x) - sqrt(beta_t) * s_{t-1}(x),

(the UCB of -f), with beta_t from Theorem 2 of Srinivas et al. (2010) for a compact domain
D subset [0, r]^d:

    beta_t = 2 log(2 t^2 pi^2 / (3 delta)) + 2 d log(t^2 d b r sqrt(log(4 d a / delta))),

where a, b are the constants of the derivative tail bound P(sup |df/dx_j| > L) <= a exp(-(L/b)^2)
and delta the failure probability; the run uses r = box width and a `beta_scale` multiplier
(1 = the theorem). The acquisition is minimized by scoring a batch of uniform and
near-incumbent candidates and refining the best few with L-BFGS-B and the analytic gradient

    grad lcb(x) = G(x) K^{-1} y - sqrt(beta) / (2 s(x)) * (-2 G(x) K^{-1} k(X, x)),

G(x) = grad_x k(x, X) (d, n). Each observation extends the Cholesky factor by one row
(`GP.append`, O(n^2)) in a buffer sized for the budget: the matrix is never refactored nor
copied. Below d = 20 the GP also keeps K^{-1} while it is exact (`localbo.precision`), so that the
refinement's K^{-1} k(X, x) is one pass over a matrix instead of two solves; from d = 20 the
refinement mostly stops after one evaluation, and the inverse's upkeep (two passes per
observation) costs more than it saves. The first evaluation is the start x0.

References:
    Srinivas, Krause, Kakade & Seeger (2010), Gaussian process optimization in the bandit
    setting: no regret and experimental design (Theorem 2).
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass
from functools import partial

import numpy as np

from localbo.checkpoint import Checkpoint, State, generator_state, restore_generator
from localbo.gp import GP
from localbo.kernels import Kernel
from localbo.methods.gp_ucb.lower_confidence_bound import LowerConfidenceBound
from localbo.objective import (
    PROGRESS_EVERY,
    Box,
    NoisyObjective,
    OptimizationResult,
    Trace,
    finish,
)
from localbo.optimizers import Cost, FunctionOptimizer, register
from localbo.settings_checks import require

log = logging.getLogger(__name__)

# GP-UCB keeps K^{-1} below this d: whole runs with it take less CPU at d = 5 and 10 and more at
# d = 20, 30 and 50, choosing alike (`bench/gp_ucb_kept_inverse.py`).
KEPT_INVERSE_BELOW_D = 20


def keeps_inverse(d: int) -> bool:
    """Whether a GP-UCB run in d dimensions keeps K^{-1} by default (`KEPT_INVERSE_BELOW_D`)."""
    return d < KEPT_INVERSE_BELOW_D


@dataclass(frozen=True)
class GPUCBSettings:
    """Knobs of GP-UCB; the defaults are the paper-scale pipeline's (`fig1.methods.gp_ucb`).

    Attributes:
        delta: failure probability of Theorem 2, in (0, 1).
        tail_a, tail_b: constants a, b of the derivative tail bound.
        beta_scale: multiplier of beta_t (1 = the theorem).
        raw_samples: uniform candidates scored per step.
        local_samples: candidates around the incumbent scored per step.
        local_scale: their standard deviation, relative to the box width.
        restarts: best candidates refined by L-BFGS-B.
        refine_iterations: L-BFGS-B iteration cap per refinement (15 end no worse than 50 at
            the paper's budget, at about half the CPU: bench/against_gallery.py).
        min_noise_var: nugget added to sigma^2.
    """

    delta: float = 0.1
    tail_a: float = 1.0
    tail_b: float = 1.0
    beta_scale: float = 1.0
    raw_samples: int = 256
    local_samples: int = 256
    local_scale: float = 0.02
    restarts: int = 3
    refine_iterations: int = 15
    min_noise_var: float = 1e-8

    def __post_init__(self) -> None:
        require(self, lambda v: 0 < v < 1, "in (0, 1)", "delta")
        require(self, lambda v: v > 0, "> 0", "tail_a", "tail_b")
        require(self, lambda v: v >= 1, ">= 1", "raw_samples", "restarts")
        scales = ("beta_scale", "local_scale", "min_noise_var")
        require(self, lambda v: v >= 0, ">= 0", *scales, "local_samples", "refine_iterations")

    def beta(self, t: int, d: int, width: float) -> float:
        """beta_t of step t in a box of the given width: beta_scale x Srinivas Theorem 2."""
        return self.beta_scale * srinivas_beta(t, d, width, self.delta, self.tail_a, self.tail_b)


def srinivas_beta(t: int, d: int, r: float, delta: float, a: float, b: float) -> float:
    """beta_t of Theorem 2 of Srinivas et al. (2010) for D subset [0, r]^d, t >= 1."""
    inner = t**2 * d * b * r * math.sqrt(math.log(4.0 * d * a / delta))
    return 2.0 * math.log(2.0 * t**2 * math.pi**2 / (3.0 * delta)) + 2.0 * d * math.log(inner)


def candidates(
    box: Box, incumbent: np.ndarray, rng: np.random.Generator, settings: GPUCBSettings
) -> np.ndarray:
    """The (raw_samples + local_samples, d) points one step scores: uniform in the box, then
    normal around the incumbent (std local_scale x box width) projected onto it. Every step
    draws the same number from `rng`, whatever the data."""
    C = box.uniform(settings.raw_samples, rng)
    if settings.local_samples > 0:
        local = incumbent + settings.local_scale * box.width * rng.standard_normal(
            (settings.local_samples, box.d)
        )
        C = np.vstack([C, box.project(local)])
    return C


def minimize_lcb(
    gp: GP,
    box: Box,
    incumbent: np.ndarray,
    sqrt_beta: float,
    rng: np.random.Generator,
    settings: GPUCBSettings,
    acquisition: type[LowerConfidenceBound] = LowerConfidenceBound,
) -> np.ndarray:
    """The next point: best of the scored candidates after L-BFGS-B refinement of the top few.

    `acquisition` computes the lcb (`values`, and value and gradient by a call); the equality
    checks pass the plain implementation without the exact shortcuts (tests/unit/gp_ucb_oracle.py).
    """
    from scipy.optimize import minimize

    C = candidates(box, incumbent, rng, settings)
    lcb = acquisition(gp, sqrt_beta)
    scores = lcb.values(C, keep=settings.restarts)
    # exact ties are common (in d >= 10 the exploration term absorbs a mean of 1e-70): the
    # candidate drawn first wins, a rule that does not depend on the scores of the others
    order = np.argsort(scores, kind="stable")[: settings.restarts]
    best_x, best_value = C[order[0]], float(scores[order[0]])
    for i in order:
        res = minimize(
            lcb,
            C[i],
            jac=True,
            method="L-BFGS-B",
            bounds=box.bounds(),
            options={"maxiter": settings.refine_iterations},
        )
        if res.fun < best_value:
            best_x, best_value = box.project(res.x), float(res.fun)
    return best_x


def run_state(
    objective: NoisyObjective,
    gp: GP,
    trace: Trace,
    rng: np.random.Generator,
    t: int,
    best: int,
) -> State:
    """Everything the rest of a run depends on after step t: the objective's count and noise
    stream, the GP (its factor as it is), the trace, the candidates' stream, t and the index
    of the best observation (what `gp_ucb` takes up from a checkpoint)."""
    return {
        **objective.state(),
        **gp.state(),
        **trace.state(),
        "rng": generator_state(rng),
        "t": np.array(t),
        "best": np.array(best),
    }


def gp_ucb(
    objective: NoisyObjective,
    kernel: Kernel,
    x0: np.ndarray,
    box: Box,
    rng: np.random.Generator,
    settings: GPUCBSettings | None = None,
    checkpoint: Checkpoint | None = None,
    kept_inverse: bool | None = None,
) -> OptimizationResult:
    """Run GP-UCB until the budget is spent.

    Args:
        objective: the (noisy) objective with its budget.
        kernel: the GP's kernel (the path's, hyperparameters known).
        x0: (d,) first point. box: the domain.
        rng: the optimizer's own stream (candidates), not the noise stream.
        settings: `GPUCBSettings` (None: the defaults).
        checkpoint: where the run keeps its state between steps; a state found there is taken up
            (the objective, streams, GP and trace as they were), so the run ends as if never
            stopped.
        kept_inverse: keep K^{-1} beside the factor (`GP(keep_precision=True)`); False computes
            every K^{-1} k(X, x) by the factor's two solves (the same choices to rounding:
            `bench/gp_ucb_kept_inverse.py`); None keeps it below d = `KEPT_INVERSE_BELOW_D`,
            where it pays. A run taken up from a checkpoint keeps it
            as the state it takes up did.

    Returns:
        The result at the point with the best observation; the trace records that incumbent
        after every evaluation.
    """
    settings = settings or GPUCBSettings()
    d = x0.shape[0]
    if kept_inverse is None:
        kept_inverse = keeps_inverse(d)
    noise_var = objective.sigma**2 + settings.min_noise_var
    state = checkpoint.load() if checkpoint is not None else None
    if state is not None:
        objective.restore(state)
        restore_generator(rng, state["rng"])
        gp = GP.from_state(kernel, state, noise_var)
        trace = Trace.from_state(state, progress_every=PROGRESS_EVERY)
        t, best = int(state["t"]), int(state["best"])
        log.info("taken up from a checkpoint at %d evaluations", objective.used)
    else:
        trace = Trace(progress_every=PROGRESS_EVERY)
        x = box.project(np.array(x0, dtype=float))
        if objective.remaining == 0:
            trace.record(objective, x)
            return finish(objective, x, trace, iterations=0, stop="budget", max_jitter=0.0)
        y0 = objective(x[None, :])
        gp = GP(
            kernel,
            x[None, :],
            y0,
            noise_var,
            capacity=objective.remaining + 1,
            keep_precision=kept_inverse,
        )
        t, best = 1, 0
        trace.record(objective, x)
    while objective.remaining > 0:
        t += 1
        x = minimize_lcb(
            gp, box, gp.X[best], math.sqrt(settings.beta(t, d, box.width)), rng, settings
        )
        y = objective(x[None, :])
        gp.append(x[None, :], y)
        if y[0] < gp.y[best]:
            best = len(gp.y) - 1
        trace.record(objective, gp.X[best])
        if checkpoint is not None and objective.remaining > 0:
            checkpoint.keep(partial(run_state, objective, gp, trace, rng, t, best))
    result = finish(objective, gp.X[best], trace, iterations=t, stop="budget", max_jitter=gp.jitter)
    result.observations, result.model = (gp.X, gp.y), gp
    return result


@register
class GPUCB(FunctionOptimizer):
    """GP-UCB as a pipeline method (`gp_ucb`)."""

    name = "gp_ucb"
    label = "GP-UCB"
    traced = "incumbent"
    invalid_settings = ({"delta": 20.0}, {"restarts": 0}, {"raw_samples": 0})
    Settings = GPUCBSettings
    function = staticmethod(gp_ucb)
    default_paths_per_job = 1
    resumable = True

    def cost(self, d: int, budget: int) -> Cost:
        """c_d budget^3 + 10 ms per evaluation, fitted to whole runs of 5000 with both cores busy
        (bench/results/forecast_check.jsonl, one path per d: 859 / 1027 / 1575 / 297 / 186 /
        245 s at d = 1 / 5 / 10 / 20 / 30 / 50): c_d = 7e-9 below d = 10, 1.2e-8 from 10 (the
        acquisition's L-BFGS-B refinement dominates; d = 10 is the dearest) and 1.5e-9 from 20,
        where the candidates' scoring leads; alone on an idle core a run takes about half
        (bench/gp_ucb_kept_inverse.py). Memory for the factor, the kept inverse below d = 20
        (`KEPT_INVERSE_BELOW_D`) and their buffers."""
        coefficient = 7e-9 if d < 10 else 1.2e-8 if d < 20 else 1.5e-9
        matrices = 3 if keeps_inverse(d) else 2
        return Cost(
            seconds=coefficient * budget**3 + 0.01 * budget,
            mem_mb=matrices * 8 * budget**2 // 2**20,
        )
