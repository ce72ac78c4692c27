"""Lower bounds on a whole run of TuRBO-1, MPD and MinUCB at d = 50, NeST-BO and GP-UCB at
d = 10, from the work each algorithm (at its reference settings) must do and what that costs here.

Each floor is (how many of one repeated operation a run of 5000 makes) x (the measured cost of one
such operation, one core), or those operations timed beside a whole run (`turbo_rows`), and leaves
out everything else a run does; a speed bar below its floor cannot be met without changing the
algorithm (GP-UCB; TuRBO-1's 5000 candidates) or the operation's implementation (the prior
draw's float64 cosines and angle product for TuRBO-1, the L-BFGS-B driver for MPD).
The unit costs are timed in whatever load the machine has; say which when quoting them.

- `turbo`: every step draws the Thompson sample at min(100 d, 5000) candidates through
  `thompson_features` random features, one cosine per (candidate, feature). Floor: steps (of the
  whole d = 50 run in results/full_runs.jsonl) x the time of the prior draw's values at the m
  candidates as the library takes them (`FourierSamplePath.values_by_half_angle`: the (m, d) x
  (d, M) angle product and the cosines through the vectorized tangent); beside it the same
  steps x m x M cosines at np.cos's speed (the floor before the half-angle cosines).
- `turbo_rows`: the exact Matheron update of the same draws needs every candidate's kernel row
  on the region's data, k(C, X) (m, n), and their product with the solved residuals, whatever
  the number of features. Floor: those two, replayed on each draw's state over a whole d = 50
  run of 5000 (the rows by `localbo.gram.cross_kernel`, one matrix product and one exp per
  entry); beside it the run's Sobol candidates and the most features the draw could have for
  the run to fit the bar, with nothing else costing anything (the prior's values at `turbo`'s
  cost per (candidate, feature)).
- `mpd`, `minucb`: every point the acquisition chooses is `restarts` L-BFGS-B runs of scipy
  (MinUCB's capped at 5 iterations each, and its move one more run per iteration). Floor: the
  L-BFGS-B runs and their function evaluations in a run (counted on the bench path,
  `--mpd-budget` / `--minucb-budget` evaluations, scaled to 5000) at the cost of the L-BFGS-B
  driver per run and per evaluation on d-dimensional quadratics (their own time taken out),
  through `scipy.optimize.minimize` and through a bare loop over its compiled routine, so the
  floor holds for any acquisition code; and with it, the least any acquisition value needs at
  a point, and its value and gradient (`least_seconds`: its kernel row on the full window, one
  triangular solve with the window's factor and a product; a second solve and products for
  the gradient), timed, and the whole run's CPU over each floor through `minimize`.
- `nestbo`: the same at d = 10 for `--nestbo-budget` evaluations (not scaled: its GP keeps
  every observation), each point's L-BFGS-B evaluations at the least of the n it had then; and
  beside it the O(n^2) work the run does once a point or an iteration (raw points' scores,
  the covariances' builds and extensions, the GP's appends), timed in the run.
- `gp_ucb`: at d = 10 every L-BFGS-B evaluation of the refinement needs the posterior variance
  at a new point, one pass over the n x n factor (a triangular solve; the implementation makes
  two, for the gradient). Floor: the evaluations of each step (counted on the bench path for
  `--gp-ucb-budget` evaluations; later steps at the mean of the last 500 counted) at the time of
  one triangular solve at that step's n (measured at n = 1000 to 5000, interpolated), summed over
  the 5000. Beside it, whether the rows of the chosen points are sparse enough to truncate, and
  the smallest eigenvalue of K, at the end of the counted run.

Appends one JSON line per part to `--out`.

    OPENBLAS_NUM_THREADS=1 python bench/floors.py --parts turbo turbo_rows mpd minucb nestbo gp_ucb
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from unittest.mock import patch

import numpy as np
import scipy.optimize
from full_run import append_row, bench_path, one_core, paper_run
from scipy.optimize._lbfgsb import setulb

import localbo.methods.turbo
from localbo.gram import cross_kernel
from localbo.kernels import RBF
from localbo.linalg import cho_solve, solve_lower
from localbo.objective import OptimizationResult
from localbo.optimizers import optimizer_class
from localbo.sample_paths import FourierSamplePath
from localbo.seeding import rng_for

BUDGET = 5000


def cpu_per_call(call, repeats: int) -> float:
    """Median CPU seconds of `call()` over `repeats` calls, after one warm-up call."""
    call()
    times = []
    for _ in range(repeats):
        start = time.process_time()
        call()
        times.append(time.process_time() - start)
    return float(np.median(times))


def timed(function, seconds: dict[str, float], key: str):
    """`function`, adding the CPU seconds of each call to seconds[key]."""

    def call(*args, **kwargs):
        start = time.process_time()
        out = function(*args, **kwargs)
        seconds[key] += time.process_time() - start
        return out

    return call


def whole_run(method: str, d: int, budget: int = BUDGET) -> dict:
    """The row of bench/results/full_runs.jsonl of the last whole run of `method` at d."""
    lines = Path("bench/results/full_runs.jsonl").read_text().splitlines()
    rows = [json.loads(line) for line in lines]
    return [r for r in rows if r["method"] == method and r["d"] == d and r["budget"] == budget][-1]


def prior_draw_seconds(d: int) -> tuple[float, float, int]:
    """CPU seconds of one Thompson draw's prior values at TuRBO-1's candidates at d, through
    the half-angle cosines and through np.cos, and the number of (candidate, feature) pairs."""
    method = optimizer_class("turbo")()
    m, features = method.settings.candidate_count(d), method.settings.thompson_features
    rng = rng_for(0, "bench-floors", d)
    prior = FourierSamplePath.draw(RBF(), d, features, rng)
    centre = rng.uniform(-5.0, 5.0, d)
    candidates = centre + rng.uniform(-0.4, 0.4, (m, d))  # a region of side 0.08 x the box
    angles = candidates @ prior.frequencies.T + prior.phases
    cos_seconds = cpu_per_call(lambda: np.cos(angles), 20)
    seconds = cpu_per_call(lambda: prior.values_by_half_angle(candidates), 20)
    return seconds, cos_seconds, angles.size


def turbo_floor(d: int) -> dict:
    """The Thompson draws' prior values of one whole run at d, at the library's measured speed
    (and its cosines at np.cos's)."""
    seconds, cos_seconds, pairs = prior_draw_seconds(d)
    run = whole_run("turbo", d)
    return {
        "part": "turbo",
        "d": d,
        "cos_ns": 1e9 * cos_seconds / pairs,
        "half_angle_ns": 1e9 * seconds / pairs,
        "steps": run["iterations"],
        "cos_floor_s": run["iterations"] * cos_seconds,
        "floor_s": run["iterations"] * seconds,
        "whole_run_s": run["cpu_s"],
        "bar_s": 60.0,
    }


def turbo_rows_floor(d: int) -> dict:
    """What the Thompson draws of one whole run at d cost whatever their number of features: each
    draw's kernel rows and its update (the solve with the region's factor and the rows' product
    with it), replayed on the draw's own state beside the run and timed (the replay takes no
    random numbers, so the run is the run without it), and the run's Sobol candidates timed
    inside `region_candidates`; with them the run's draws themselves, its CPU (`whole_run_s`: this
    run, replays included) and the most features that would fit the bar were nothing else to
    cost anything (the prior's values at the candidates, this run's draws, per feature)."""
    seconds = {"draws": 0.0, "rows": 0.0, "update": 0.0, "candidates": 0.0}
    entries, draws = [0], [0]
    draw = timed(localbo.methods.turbo.thompson_values, seconds, "draws")

    def timed_draw(gp, C, rng, num_features):
        values = draw(gp, C, rng, num_features)
        start = time.process_time()
        origin = C.mean(axis=0)
        rows = cross_kernel(gp.kernel, C - origin, gp.X - origin)
        seconds["rows"] += time.process_time() - start
        start = time.process_time()
        rows @ cho_solve(gp.L, gp.y - gp.prior_mean)
        seconds["update"] += time.process_time() - start
        entries[0] += rows.size
        draws[0] += 1
        return values

    candidates = timed(localbo.methods.turbo.region_candidates, seconds, "candidates")
    method = optimizer_class("turbo")()
    settings = method.settings
    start = time.process_time()
    with (
        patch.object(localbo.methods.turbo, "thompson_values", timed_draw),
        patch.object(localbo.methods.turbo, "region_candidates", candidates),
    ):
        paper_run(method, bench_path(d), BUDGET)
    run_s = time.process_time() - start
    prior_s, _, _ = prior_draw_seconds(d)
    prior_run_s_per_feature = draws[0] * prior_s / settings.thompson_features
    floor = seconds["rows"] + seconds["update"]
    return {
        "part": "turbo_rows",
        "d": d,
        "draws": draws[0],
        "mean_region_points": entries[0] / (draws[0] * settings.candidate_count(d)),
        "rows_ns_per_entry": 1e9 * seconds["rows"] / entries[0],
        "rows_s": seconds["rows"],
        "update_s": seconds["update"],
        "floor_s": floor,
        "candidates_s": seconds["candidates"],
        "draws_s": seconds["draws"],
        "prior_run_s_per_feature": prior_run_s_per_feature,
        "features_within_bar": max(0, int((60.0 - floor) / prior_run_s_per_feature)),
        "features": settings.thompson_features,
        "whole_run_s": run_s,
        "bar_s": 60.0,
    }


def quadratics(d: int):
    """Two quadratics in [0, 1]^d that cost next to nothing, as (value, gradient) functions: one
    with its minimum at the corner 0, one inside, at 0.5, with curvatures 1 to 1e3."""
    curvature = np.logspace(0.0, 3.0, d)

    def corner(z: np.ndarray) -> tuple[float, np.ndarray]:
        return float(z @ z), 2.0 * z

    def interior(z: np.ndarray) -> tuple[float, np.ndarray]:
        u = z - 0.5
        return float(curvature @ u**2), 2.0 * curvature * u

    return corner, interior


def scipy_lbfgsb(
    fun, start: np.ndarray, lower: np.ndarray, upper: np.ndarray
) -> tuple[np.ndarray, int]:
    """L-BFGS-B through `scipy.optimize.minimize`, as the methods call it; returns x and nfev."""
    bounds = scipy.optimize.Bounds(lower, upper)
    res = scipy.optimize.minimize(fun, start, jac=True, method="L-BFGS-B", bounds=bounds)
    return res.x, res.nfev


def compiled_lbfgsb(
    fun, start: np.ndarray, lower: np.ndarray, upper: np.ndarray
) -> tuple[np.ndarray, int]:
    """The same L-BFGS-B (scipy's defaults: 10 corrections, factr 1e7, pgtol 1e-5, 20 line-search
    steps) driven in a bare loop over scipy's compiled routine (`_lbfgsb.setulb`, a private API
    whose signature is scipy 1.15+'s): what the iteration costs without `minimize`'s wrapper.
    Returns x and the evaluations; both bounds finite."""
    n, m = len(start), 10
    x, f, g = np.array(start, dtype=np.float64), np.array(0.0), np.zeros(n)
    both_bounds = np.full(n, 2, dtype=np.int32)
    wa = np.zeros(2 * m * n + 5 * n + 11 * m * m + 8 * m)
    iwa, task, line_task = np.zeros(3 * n, np.int32), np.zeros(2, np.int32), np.zeros(2, np.int32)
    lsave, isave, dsave = np.zeros(4, np.int32), np.zeros(44, np.int32), np.zeros(29)
    evaluations = 0
    while True:
        setulb(m, x, lower, upper, both_bounds, f, g, 1e7, 1e-5, wa, iwa, task, lsave, isave,
               dsave, 20, line_task)  # fmt: skip
        if task[0] == 3:  # wants f and g at x
            f, g = fun(x)
            evaluations += 1
        elif task[0] != 1:  # 1: a new iteration; anything else: converged or stopped
            return x, evaluations


def lbfgsb_cost(d: int, driver=scipy_lbfgsb) -> tuple[float, float]:
    """CPU seconds of an L-BFGS-B driver in [0, 1]^d, the quadratics' own time taken out: (per
    run, per function evaluation), from the two `quadratics`, with few and with many evaluations."""
    lower, upper = np.zeros(d), np.ones(d)
    start = np.full(d, 0.9)
    seconds, evaluations = [], []
    for fun in quadratics(d):
        own = cpu_per_call(lambda fun=fun: fun(start), 2000)
        evaluations.append(driver(fun, start, lower, upper)[1])
        run = cpu_per_call(lambda fun=fun: driver(fun, start, lower, upper), 100)
        seconds.append(run - evaluations[-1] * own)
    per_evaluation = (seconds[1] - seconds[0]) / (evaluations[1] - evaluations[0])
    # a run costs at least nothing: a negative intercept (the bare loop's) is the fit's noise
    return max(seconds[0] - evaluations[0] * per_evaluation, 0.0), per_evaluation


def same_iterations(d: int) -> bool:
    """Whether the bare loop ends where `minimize` does, after as many evaluations, on both
    `quadratics` in [0, 1]^d from 0.9."""
    box = (np.full(d, 0.9), np.zeros(d), np.ones(d))
    for fun in quadratics(d):
        (x1, n1), (x2, n2) = scipy_lbfgsb(fun, *box), compiled_lbfgsb(fun, *box)
        if n1 != n2 or not np.array_equal(x1, x2):
            return False
    return True


def counted_run(method: str, d: int, budget: int) -> tuple[list[int], float, OptimizationResult]:
    """Run `method` on the bench path at d for `budget` evaluations; returns the function
    evaluations of every scipy `minimize` it made, in order, the CPU seconds spent inside the
    functions minimized, and the run's result. The methods import `minimize` from
    scipy.optimize when they call it, so the count replaces it there."""
    counts, inside, minimize = [], {"functions": 0.0}, scipy.optimize.minimize

    def counting(fun, x0, **kwargs):
        result = minimize(timed(fun, inside, "functions"), x0, **kwargs)
        counts.append(int(result.nfev))
        return result

    with patch.object(scipy.optimize, "minimize", counting):
        result = paper_run(optimizer_class(method)(), bench_path(d), budget)
    return counts, inside["functions"], result


def least_seconds(
    L: np.ndarray, X: np.ndarray, z: np.ndarray, C: np.ndarray
) -> tuple[float, float]:
    """CPU seconds of what any value of a GIBO-family acquisition needs at z, and of what its
    value and gradient need, on data X (n, d) with factor L and the (n, m) solved covariances C
    of the quantity it learns about (m = d: the gradient; d + d^2: gradient and Hessian).
    Value: the kernel row k(X, z), one triangular solve r = L^-1 k and r^T C. With the
    gradient: a second solve (K^-1 k, for the variance's gradient), the product of C with the
    value's vector and the row's Jacobian against both (X^T (k [w, q]))."""
    kernel = RBF()

    def value() -> np.ndarray:
        return solve_lower(L, kernel(z[None, :], X)[0]) @ C

    def value_and_gradient() -> np.ndarray:
        k = kernel(z[None, :], X)[0]
        r = solve_lower(L, k)
        c = r @ C
        P = np.column_stack([solve_lower(L, r, trans=True), C @ c])
        return X.T @ (k[:, None] * P)

    return cpu_per_call(value, 200), cpu_per_call(value_and_gradient, 200)


def window_least_seconds(method: str, d: int) -> tuple[float, float]:
    """`least_seconds` of the acquisition of `method` (MPD, MinUCB) on its full data window
    (window_factor x d points near the iterate), with the gradient's covariances (m = d)."""
    n = optimizer_class(method)().settings.window_factor * d
    rng = rng_for(0, "bench-floors", "mpd-window", d)
    X, z = rng.uniform(-0.2, 0.2, (n, d)), rng.uniform(-0.2, 0.2, d)
    L = np.linalg.cholesky(RBF()(X, X) + 1e-6 * np.eye(n))
    return least_seconds(L, X, z, rng.standard_normal((n, d)))


def acquisition_search_floor(method: str, d: int, budget: int) -> dict:
    """The L-BFGS-B driver's cost in one whole run of `method` (MPD, MinUCB: every point
    sampled is the best of restarted L-BFGS-B runs on an acquisition over a window of the data)
    at d, through `minimize` as the method calls it and through a bare loop over the compiled
    routine (`compiled_lbfgsb`, checked to take the same iterations), and beside it the
    acquisition's least work per evaluation (`window_least_seconds`) and the
    acquisition's measured time per evaluation."""
    if not same_iterations(d):
        raise RuntimeError("the bare L-BFGS-B loop does not follow scipy's minimize")
    counts, inside, _ = counted_run(method, d, budget)
    least, with_gradient = window_least_seconds(method, d)
    scale = BUDGET / budget
    row = {"part": method, "d": d, "counted_budget": budget}
    row["lbfgsb_calls_per_point"] = len(counts) / budget
    row["lbfgsb_evaluations_per_point"] = sum(counts) / budget
    for name, driver in (("minimize", scipy_lbfgsb), ("loop", compiled_lbfgsb)):
        per_call, per_evaluation = lbfgsb_cost(d, driver)
        driver_s = scale * (len(counts) * per_call + sum(counts) * per_evaluation)
        row[f"{name}_us_per_call"] = 1e6 * per_call
        row[f"{name}_us_per_evaluation"] = 1e6 * per_evaluation
        row[f"{name}_floor_s"] = driver_s
        row[f"{name}_floor_with_least_value_s"] = driver_s + scale * sum(counts) * least
        gradient_s = driver_s + scale * sum(counts) * with_gradient
        row[f"{name}_floor_with_least_value_and_gradient_s"] = gradient_s
    row["least_value_us"] = 1e6 * least
    row["least_value_and_gradient_us"] = 1e6 * with_gradient
    row["acquisition_us_per_evaluation"] = 1e6 * inside / sum(counts)
    row["acquisition_in_lbfgsb_s"] = scale * inside
    row["whole_run_s"] = whole_run(method, d)["cpu_s"]
    for floor in ("least_value", "least_value_and_gradient"):
        ratio = row["whole_run_s"] / row[f"minimize_floor_with_{floor}_s"]
        row[f"whole_run_over_floor_with_{floor}"] = ratio
    return row


def newton_least_seconds(d: int, sizes: list[int]) -> list[tuple[float, float]]:
    """`least_seconds` of NeST-BO's acquisition at each number of observations n of `sizes`
    (points spread over its box of half-width 2), with the covariances of the gradient and the
    Hessian (m = d + d^2)."""
    rng = rng_for(0, "bench-floors", "nestbo", d)
    least = []
    for n in sizes:
        X, z = rng.uniform(-2.0, 2.0, (n, d)), rng.uniform(-2.0, 2.0, d)
        L = np.linalg.cholesky(RBF()(X, X) + 1e-6 * np.eye(n))
        least.append(least_seconds(L, X, z, rng.standard_normal((n, d + d * d))))
    return least


def nestbo_floor(d: int, budget: int) -> dict:
    """NeST-BO's acquisition searches in one whole run at d of `budget` evaluations: the
    L-BFGS-B runs and their evaluations, counted per point with the observations the GP held
    then, at the driver's cost (through `minimize`) and the least an acquisition value (and
    its gradient) needs at that n (`newton_least_seconds`, interpolated between sizes). Beside
    it, the CPU seconds of the work the run does once a point or an iteration, at O(n^2) each,
    which the floor leaves out: scoring the raw points (`values`), building the covariances
    (once an iteration), extending them and appending to the GP (once a point)."""
    import localbo.methods.nestbo as nestbo
    from localbo.gp import GP

    information = nestbo.NewtonInformation
    held, per_point_s = [], dict.fromkeys(["values", "builds", "extends", "appends"], 0.0)
    extend = timed(information.extend, per_point_s, "extends")

    def recording(self):  # once a point, before its search
        held.append(self.gp.n)
        extend(self)

    with (
        patch.object(information, "extend", recording),
        patch.object(information, "values", timed(information.values, per_point_s, "values")),
        patch.object(information, "__init__", timed(information.__init__, per_point_s, "builds")),
        patch.object(GP, "append", timed(GP.append, per_point_s, "appends")),
    ):
        counts, inside, _ = counted_run("nestbo", d, budget)
    restarts = optimizer_class("nestbo")().settings.restarts
    per_point = np.add.reduceat(np.array(counts), np.arange(0, len(counts), restarts))
    if len(per_point) != len(held):
        raise RuntimeError(f"{len(counts)} L-BFGS-B runs for {len(held)} points")
    sizes = [int(n) for n in np.linspace(min(held), max(held), 5)]
    measured = np.array(newton_least_seconds(d, sizes))  # (sizes, 2)
    per_call, per_evaluation = lbfgsb_cost(d)
    driver = len(counts) * per_call + sum(counts) * per_evaluation
    value, with_gradient = (driver + float(per_point @ np.interp(held, sizes, measured[:, k]))
                            for k in (0, 1))  # fmt: skip
    whole = whole_run("nestbo", d, budget)["cpu_s"]
    return {
        "part": "nestbo",
        "d": d,
        "counted_budget": budget,
        "points": len(held),
        "lbfgsb_evaluations_per_point": float(np.mean(per_point)),
        "least_value_us_at_sizes": dict(zip(map(str, sizes), 1e6 * measured[:, 0], strict=True)),
        "least_value_and_gradient_us_at_sizes": dict(
            zip(map(str, sizes), 1e6 * measured[:, 1], strict=True)
        ),
        "minimize_floor_s": driver,
        "minimize_floor_with_least_value_s": value,
        "minimize_floor_with_least_value_and_gradient_s": with_gradient,
        "acquisition_us_per_evaluation": 1e6 * inside / sum(counts),
        "acquisition_in_lbfgsb_s": inside,
        "whole_run_s": whole,
        "whole_run_over_floor_with_least_value": whole / value,
        "whole_run_over_floor_with_least_value_and_gradient": whole / with_gradient,
        "per_point_work_s": per_point_s,
        "whole_run_over_floor_with_gradient_and_per_point_work": whole
        / (with_gradient + sum(per_point_s.values())),
    }


def gp_ucb_floor(d: int, budget: int) -> dict:
    """One triangular solve per refinement evaluation of a whole GP-UCB run at d."""
    counts, _, result = counted_run("gp_ucb", d, budget)
    restarts = optimizer_class("gp_ucb")().settings.restarts
    if len(counts) != restarts * (budget - 1):  # one call per restart at every step but the first
        raise RuntimeError(f"{len(counts)} refinements in {budget - 1} steps of {restarts}")
    per_step = np.add.reduceat(np.array(counts), np.arange(0, len(counts), restarts))
    rng = rng_for(0, "bench-floors", "factor")
    sizes = [1000, 2000, 3000, 4000, 5000]
    solve_s = []
    for n in sizes:
        A = rng.standard_normal((n, n)) / np.sqrt(n)
        L = np.linalg.cholesky(A @ A.T + np.eye(n))
        k = rng.standard_normal(n)
        solve_s.append(cpu_per_call(lambda L=L, k=k: solve_lower(L, k), 30))
    # a solve at n: interpolated between the measured sizes, (n / 1000)^2 of the smallest below
    n = np.arange(1, BUDGET)  # observations before each step
    solve = np.where(n < sizes[0], solve_s[0] * (n / sizes[0]) ** 2, np.interp(n, sizes, solve_s))
    late = float(np.mean(per_step[-500:]))
    steps = np.concatenate([per_step, np.full(len(n) - len(per_step), late)])
    floor = float(np.sum(steps * solve))
    # is there structure to skip the pass? the last 100 chosen points' kernel rows on the data
    # before them (a sparse row would allow truncation), and K's conditioning there
    gp, last = result.model, 100
    earlier = gp.X[:-last]
    rows = gp.kernel(gp.X[-last:], earlier)
    K = gp.kernel(earlier, earlier)
    K[np.diag_indices_from(K)] += gp.noise_var + gp.jitter
    return {
        "part": "gp_ucb",
        "d": d,
        "counted_budget": budget,
        "evaluations_per_step_first_500": float(np.mean(per_step[:500])),
        "evaluations_per_step_last_500": late,
        "solve_ms": dict(zip(map(str, sizes), (1e3 * s for s in solve_s), strict=True)),
        "floor_s": floor,
        "whole_run_s": whole_run("gp_ucb", d)["cpu_s"],
        "family_floor_cpu_h": 50 * floor / 3600,
        "row_share_above_1e-17_median": float(np.median((rows > 1e-17).mean(axis=1))),
        "row_share_above_1e-26_median": float(np.median((rows > 1e-26).mean(axis=1))),
        "K_smallest_eigenvalue": float(np.linalg.eigvalsh(K)[0]),
        "family_bar_cpu_h": 3.0,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--parts", nargs="+", default=["turbo", "turbo_rows", "mpd", "gp_ucb"])
    parser.add_argument("--mpd-budget", type=int, default=600)
    parser.add_argument("--minucb-budget", type=int, default=5000)
    parser.add_argument("--nestbo-budget", type=int, default=2000)
    parser.add_argument("--gp-ucb-budget", type=int, default=1500)
    parser.add_argument("--out", type=Path, default=Path("bench/results/floors.jsonl"))
    args = parser.parse_args()
    parts = {
        "turbo": lambda: turbo_floor(50),
        "turbo_rows": lambda: turbo_rows_floor(50),
        "mpd": lambda: acquisition_search_floor("mpd", 50, args.mpd_budget),
        "minucb": lambda: acquisition_search_floor("minucb", 50, args.minucb_budget),
        "nestbo": lambda: nestbo_floor(10, args.nestbo_budget),
        "gp_ucb": lambda: gp_ucb_floor(10, args.gp_ucb_budget),
    }
    for part in args.parts:
        row = parts[part]()
        append_row(row, args.out)


if __name__ == "__main__":
    with one_core():
        main()
