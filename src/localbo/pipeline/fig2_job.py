"""One error-function job: estimate E_{d,k,sigma}(b) at each of its (d, b, sigma) points.

The parameters are those `localbo.pipeline.fig2.Fig2Jobs.params` gives the job. Each point's
stream depends on (d, b, sigma) alone, so a point's estimate is the same whichever job holds it;
each finished point is kept (`localbo.pipeline.finished_runs`), so a killed job's rerun resumes
after it.
"""

from __future__ import annotations

import logging
from typing import Any

import numpy as np

from localbo import error_function as ef
from localbo.pipeline.fig2 import point_label
from localbo.pipeline.finished_runs import FinishedRuns, fingerprint
from localbo.pipeline.sections import build, kernel_of
from localbo.seeding import rng_for


def estimate_point(
    params: dict[str, Any], point: dict[str, Any], log: logging.Logger
) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """One point's estimate: its JSON-ready summary and its (b, d) design and (k, 3) history.

    Args:
        params: the job's parameters. point: one of params["points"] (d, b, sigma, estimate).
    """
    d, b, sigma = point["d"], point["b"], point["sigma"]
    kernel = kernel_of(params)
    settings = build(ef.ErrorFunctionSettings, point["estimate"], "estimate")
    log.info("E_{d=%d, %s, sigma=%g}(b=%d), %s", d, params["kernel"], sigma, b, settings)
    est = ef.estimate_error_function(
        kernel, d, b, sigma, rng_for(params["seed"], "fig2", d, b, sigma), settings
    )
    designs = {dv.kind: {"value": dv.value, "step": dv.step} for dv in est.designs}
    summary = {
        "d": d,
        "b": b,
        "sigma": sigma,
        "kernel": params["kernel"],
        "estimate": est.value,
        "start_values": est.start_values,
        "restart_values": est.restart_values,
        "central_design": designs["central"],
        "forward_design": designs["forward"],
        "bound": ef.paper_bound(params["kernel"], d, b, sigma),
        "noiseless_bound": ef.noiseless_bound(kernel, d, b),
        "evaluations": est.evaluations,
        "seconds": est.seconds,
    }
    log.info(
        "estimate %.6g after %d evaluations in %.1f s", est.value, est.evaluations, est.seconds
    )
    return summary, {"design": est.design, "history": est.history}


def estimate_points(
    params: dict[str, Any], finished: FinishedRuns, log: logging.Logger
) -> tuple[list[dict[str, Any]], dict[str, np.ndarray]]:
    """Every point of a job, in order; a point kept by an earlier attempt with the same
    fingerprint is taken instead of estimated again.

    Returns:
        One summary per point, and every point's arrays under keys <label>_design and
        <label>_history (`point_label`).
    """
    summaries, arrays = [], {}
    for point in params["points"]:
        label = point_label(point["d"], point["b"], point["sigma"])
        key = fingerprint({**params, "points": [point]}, label, [])
        kept = finished.get(label, key)
        if kept is None:
            try:
                kept = estimate_point(params, point, log)
            except Exception:
                log.error("the estimate at %s failed", label)
                raise
            finished.put(label, key, *kept)
        else:
            log.info("%s: kept from an earlier attempt of this job", label)
        summaries.append(kept[0])
        arrays.update({f"{label}_{name}": value for name, value in kept[1].items()})
    return summaries, arrays
