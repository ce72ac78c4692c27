"""MPD's acquisition optimization: our separate restarts against the reference's joint one.

Ours (`localbo.methods.mpd.sample_point`): the best `restarts` of `raw_samples` uniform points, each
refined by its own L-BFGS-B. The reference (kayween/local-bo-mpd through botorch 0.6.3.1
`optimize_acqf`, options nonnegative and batch_limit 5) picks the starts by Boltzmann sampling
(`initialize_q_batch_nonneg`: weights exp(alpha / max alpha - 1), the best raw point always in)
and refines the five jointly: one L-BFGS-B on the (restarts x d)-vector, minimizing minus the sum
of their acquisition values, scipy's default tolerances, then the best of the five. (Its raw
points are scrambled Sobol; uniform here, for both. Its filter alpha >= 1e-4 max alpha and the
fallbacks for a maximum <= 0 are left out: alpha >= mu^T Sigma^-1 mu >= 0, and on these runs the
least raw value was at least 0.0045 of the step's largest, so they never act.)

Both run on the same states: a default MPD run at d on the bench's path, where every acquisition
optimization is done both ways (the run follows ours), interleaved, on one core. Prints, and
appends to --out, the CPU milliseconds per point, the joint L-BFGS-B's iterations and
evaluations, and the acquisition value each way reaches.

    nice -n 5 python bench/mpd_restarts.py --d 50 --budget 600
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from unittest.mock import patch

import numpy as np
from full_run import append_row, bench_path, one_core, paper_run  # bench/, the script's folder
from scipy.optimize import minimize

import localbo.methods.mpd as mpd_module
from localbo.linalg import cho_solve
from localbo.methods.mpd import DownhillQuadratic
from localbo.optimizers import optimizer_class
from localbo.seeding import rng_for


def batched(acquisition: DownhillQuadratic, Z: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """alpha at (m, d) points and its (m, d) gradients, in one batch (the joint L-BFGS-B's
    evaluation; the same formulas as `DownhillQuadratic.__call__`)."""
    gp, kernel = acquisition.gp, acquisition.gp.kernel
    ell2, X, x = kernel.lengthscale**2, acquisition.gp.X, acquisition.x
    KZ = kernel(Z, X)  # (m, n)
    K_inv_KZ = cho_solve(gp.L, KZ.T)  # (n, m)
    U_xz = x - Z  # (m, d)
    k_xz = kernel(x[None, :], Z)[0]  # (m,)
    C = -(U_xz / ell2 * k_xz[:, None]).T - acquisition.K_inv_Gt.T @ KZ.T  # (d, m)
    s = kernel.outputscale + gp.noise_var - np.einsum("mn,nm->m", KZ, K_inv_KZ)
    U = cho_solve(acquisition.L_sigma, C)  # (d, m)
    a, w = np.einsum("dm,dm->m", C, U), acquisition.sigma_inv_mean @ C
    D = s - a

    def jacobian_t(R: np.ndarray) -> np.ndarray:  # (n, m) -> (d, m): J_j^T r_j, J = dk(X, z)/dz
        W = KZ.T * R
        return (X.T @ W - Z.T * W.sum(axis=0)) / ell2

    def dc_t(V: np.ndarray) -> np.ndarray:  # (d, m) -> (d, m): (dc_j / dz)^T v_j
        along = np.einsum("md,dm->m", U_xz, V)
        return (V / ell2 - U_xz.T * along / ell2**2) * k_xz - jacobian_t(acquisition.K_inv_Gt @ V)

    da = 2.0 * dc_t(U)
    dw = dc_t(np.repeat(acquisition.sigma_inv_mean[:, None], len(Z), axis=1))
    ds = -2.0 * jacobian_t(K_inv_KZ)
    grad = ((2.0 * w * dw + da) * D - (w * w + a) * (ds - da)) / D**2
    return acquisition.quadratic + (w * w + a) / D, grad.T


def joint_sample_point(gp, x, mean, box, rng, settings) -> tuple[np.ndarray, dict]:
    """The reference's way: Boltzmann starts, one L-BFGS-B over all of them; returns the point
    and the optimizer's counts."""
    lower = np.maximum(x - settings.delta, box.lower)
    upper = np.minimum(x + settings.delta, box.upper)
    acquisition, d, m = DownhillQuadratic(gp, x, mean), len(x), settings.restarts
    raw = lower + (upper - lower) * rng.random((settings.raw_samples, d))
    values, _ = batched(acquisition, raw)
    weights = np.exp(values / values.max() - 1.0)
    starts = rng.choice(len(raw), size=m, replace=False, p=weights / weights.sum())
    if np.argmax(values) not in starts:
        starts[-1] = np.argmax(values)

    def minus_sum(flat: np.ndarray) -> tuple[float, np.ndarray]:
        value, grad = batched(acquisition, flat.reshape(m, d))
        return -float(value.sum()), -grad.ravel()

    bounds = list(zip(np.tile(lower, m), np.tile(upper, m), strict=True))
    res = minimize(minus_sum, raw[starts].ravel(), jac=True, method="L-BFGS-B", bounds=bounds)
    Z = np.clip(res.x.reshape(m, d), lower, upper)
    final, _ = batched(acquisition, Z)
    return Z[np.argmax(final)], {"nit": int(res.nit), "nfev": int(res.nfev)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--d", type=int, default=50)
    parser.add_argument("--budget", type=int, default=600)
    parser.add_argument("--out", type=Path, default=Path("bench/results/mpd_restarts.jsonl"))
    args = parser.parse_args()
    ours = mpd_module.sample_point
    rows: list[dict] = []
    joint_rng = rng_for(2, "mpd-joint", args.d)

    def both(gp, x, mean, box, rng, settings):
        start = time.process_time()
        point = ours(gp, x, mean, box, rng, settings)
        middle = time.process_time()
        other, counts = joint_sample_point(gp, x, mean, box, joint_rng, settings)
        end = time.process_time()
        acquisition = DownhillQuadratic(gp, x, mean)
        if not rows:  # the batch computes what the library's single-point call does, at two
            Z = 0.5 * (np.vstack([point, other]) + x)  # interior points (gradients not ~ 0)
            value, grad = batched(acquisition, Z)
            single = [acquisition(z) for z in Z]
            print(
                "batched vs single, largest relative difference: value",
                max(abs(v - s[0]) / abs(s[0]) for v, s in zip(value, single, strict=True)),
                "gradient",
                max(
                    np.abs(g - s[1]).max() / np.abs(s[1]).max()
                    for g, s in zip(grad, single, strict=True)
                ),
            )
        rows.append(
            {
                "ours_ms": 1e3 * (middle - start),
                "joint_ms": 1e3 * (end - middle),
                "ours_alpha": acquisition.values(point[None, :])[0],
                "joint_alpha": acquisition.values(other[None, :])[0],
                **counts,
            }
        )
        return point

    d = args.d
    with one_core(), patch.object(mpd_module, "sample_point", both):
        paper_run(optimizer_class("mpd")(), bench_path(d), args.budget)
    table = {key: np.array([row[key] for row in rows]) for key in rows[0]}
    summary = {
        "d": d,
        "budget": args.budget,
        "points": len(rows),
        "ours_ms_median": float(np.median(table["ours_ms"])),
        "joint_ms_median": float(np.median(table["joint_ms"])),
        "joint_over_ours_cpu": float(table["joint_ms"].sum() / table["ours_ms"].sum()),
        "joint_nit_median": float(np.median(table["nit"])),
        "joint_nfev_median": float(np.median(table["nfev"])),
        "joint_nfev_max": int(table["nfev"].max()),
        "joint_alpha_higher_share": float(np.mean(table["joint_alpha"] > table["ours_alpha"])),
        "median_alpha_ratio_joint_over_ours": float(
            np.median(table["joint_alpha"] / table["ours_alpha"])
        ),
    }
    append_row(summary, args.out)


if __name__ == "__main__":
    main()
