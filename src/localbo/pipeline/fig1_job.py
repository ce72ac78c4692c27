"""One Fig. 1 job: its optimizer, built from the job's parameters, run on each path of its chunk.

The parameters are those `localbo.pipeline.fig1.Fig1Jobs.run_params` gives the job; each finished
run is kept (`localbo.pipeline.finished_runs`), so a killed job's rerun resumes after it.
"""

from __future__ import annotations

import inspect
import logging
import time
from typing import Any

import numpy as np

from localbo.objective import Box
from localbo.optimizers import Optimizer, optimizer_class, run_on_path
from localbo.pipeline.finished_runs import FinishedRuns, fingerprint
from localbo.pipeline.sections import build, kernel_of
from localbo.sample_paths import FourierSamplePath
from localbo.seeding import rng_for


def path_stream(seed: int, d: int, i: int) -> np.random.Generator:
    """The stream Fig. 1's sample path i in dimension d is drawn from: adding paths or dimensions
    never changes existing ones."""
    return rng_for(seed, "fig1", "path", d, i)


def run_streams(
    seed: int, method: str, d: int, sigma: float, i: int
) -> tuple[np.random.Generator, np.random.Generator]:
    """The observation-noise and optimizer streams of `method`'s Fig. 1 run on path i at
    (d, sigma)."""
    return (
        rng_for(seed, "fig1", "noise", method, d, sigma, i),
        rng_for(seed, "fig1", "optimizer", method, d, sigma, i),
    )


def job_optimizer(name: str, params: dict[str, Any]) -> Optimizer:
    """The optimizer of one Fig. 1 job, from the parameters `Fig1Jobs.run_params` gave it."""
    cls = optimizer_class(params.get("optimizer") or name, params["module"])
    return cls(build(cls.Settings, params["method_settings"], f"fig1.methods.{name}"))


def run_chunk(
    method: str,
    d: int,
    sigma: float,
    params: dict[str, Any],
    path_files: list[str],
    finished: FinishedRuns,
    log: logging.Logger,
) -> tuple[list[dict[str, Any]], dict[str, np.ndarray]]:
    """Run one Fig. 1 job: `method` at (d, sigma) from x = 0 on each path of its chunk.

    Streams: `run_streams` of each path. Each run is kept in
    `finished` as soon as it ends, and a run kept there by an earlier attempt of the job with the
    same fingerprint is taken instead of run again.

    Args:
        method: the registered name. d, sigma: the dimension and noise level.
        params: `Fig1Jobs.run_params` of the job.
        path_files: its sample paths, in params["paths"] order.
        finished: where runs are kept. log: gets one line per run.

    Returns:
        One summary per run (`OptimizationResult.summary` with method, d, sigma and path, and
        `cpu_seconds_before`: the CPU seconds of the run spent before this call, by earlier
        attempts of the job, which its benchmark file, of this attempt only, does not count),
        and every run's arrays under keys p<i>_<field>: its trace (`Trace.arrays`) and its final x
        (d,).
    """
    kernel = kernel_of(params)
    box = Box(params["box"]["lower"], params["box"]["upper"], d)
    optimizer = job_optimizer(method, params)
    method_source = inspect.getsourcefile(type(optimizer))  # a plug-in's lives outside localbo
    job = {**params, "method": method, "d": d, "sigma": sigma}  # what the fingerprint covers
    summaries, traces = [], {}
    for i, path_file in zip(params["paths"], path_files, strict=True):
        run = f"p{i}"
        key = fingerprint(job, run, [path_file, method_source])
        kept = finished.get(run, key)
        if kept is None:
            noise_rng, rng = run_streams(params["seed"], method, d, sigma, i)
            cpu_started = time.process_time()
            result = run_on_path(
                optimizer,
                FourierSamplePath.load(path_file),
                kernel,
                sigma,
                params["budget"],
                box,
                noise_rng=noise_rng,
                rng=rng,
                checkpoint=finished.checkpoint(run, key),
            )
            summary = {"method": method, "d": d, "sigma": sigma, "path": i, **result.summary()}
            arrays = {**result.trace.arrays(), "x": result.x}
            finished.put(run, key, summary, arrays)
            before = max(result.cpu_seconds - (time.process_time() - cpu_started), 0.0)
        else:
            summary, arrays = kept
            before = summary["cpu_seconds"]
        summaries.append({**summary, "cpu_seconds_before": before})
        traces.update({f"{run}_{name}": value for name, value in arrays.items()})
        log.info(
            "%s d=%d sigma=%g path %d: f = %.4f, |grad f| = %.2e, %d evaluations, %.1f s "
            "(CPU %.1f s)%s",
            method,
            d,
            sigma,
            i,
            summary["value"],
            summary["gradient_norm"],
            summary["evaluations"],
            summary["seconds"],
            summary["cpu_seconds"],
            "" if kept is None else " (kept from an earlier attempt of this job)",
        )
    return summaries, traces
