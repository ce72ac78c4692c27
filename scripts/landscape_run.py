"""One landscape job: one d, a chunk of Fig. 1 paths. Per path, the population of local minima
(exact-gradient L-BFGS-B from R uniform starts of the Fig. 1 box, stream rng_for(seed,
"landscape", d, i)) and local BO's BFGS step rule with the exact gradient from x = 0; beside
them, the sigma = 0 local BO and exact_gradient runs of Fig. 1 on the same path, read from
Fig. 1's run files (not rerun).

Writes a JSON list with one entry per path (the R minima's values and boundary flags, and each
method's value, boundary and outside-box flags) and an .npz with each path's starts and minima
(keys p<i>_starts, p<i>_minima, (R, d) each).
"""

from localbo.pipeline.runtime import snakemake_job

with snakemake_job(snakemake) as log:  # noqa: F821
    import time

    import numpy as np

    from localbo import landscape as ls
    from localbo.io import load_json, load_npz, save_json, save_npz
    from localbo.methods.exact_gradient import ExactGradientSettings, on_boundary
    from localbo.objective import Box
    from localbo.pipeline.landscape import EXACT_BFGS, FIG1_METHODS, fig1_input
    from localbo.pipeline.sections import build
    from localbo.sample_paths import FourierSamplePath
    from localbo.seeding import rng_for

    smk = snakemake  # noqa: F821
    s = smk.params.settings
    d = int(smk.wildcards.d)
    box = Box(s["box"]["lower"], s["box"]["upper"], d)
    minimizer = build(ExactGradientSettings, s["minimizer"], "fig1.methods.exact_gradient")
    # Fig. 1's returned point and value of each method on each path of this job
    fig1 = {}
    for method in FIG1_METHODS:
        for summary_file, trace_file in zip(
            smk.input[fig1_input(method, "summary")],
            smk.input[fig1_input(method, "traces")],
            strict=True,
        ):
            traces = load_npz(trace_file)
            for run in load_json(summary_file):
                fig1[method, run["path"]] = (traces[f"p{run['path']}_x"], run["value"])

    def solution(x: np.ndarray, value: float) -> dict:
        return {
            "value": float(value),
            "on_boundary": bool(on_boundary(x, box)),
            "outside_box": bool(ls.outside_box(x, box)),
        }

    entries, arrays = [], {}
    for i, path_file in zip(s["paths"], smk.input.paths, strict=True):
        start = time.perf_counter()
        path = FourierSamplePath.load(path_file)
        population = ls.local_minima(
            path, box, s["starts"], minimizer, rng_for(s["seed"], "landscape", d, i)
        )
        descent = ls.exact_bfgs_descent(
            path, np.zeros(d), s["bfgs_gtol"], s["exact_bfgs_max_calls"]
        )
        methods = {m: solution(*fig1[m, i]) for m in FIG1_METHODS}
        methods[EXACT_BFGS] = {
            **solution(descent.x, descent.value),
            "calls": descent.calls,
            "stop": descent.stop,
        }
        seconds = time.perf_counter() - start
        entries.append(
            {
                "d": d,
                "path": i,
                "values": population.values.tolist(),
                "on_boundary": population.on_boundary.tolist(),
                "iterations": population.iterations.tolist(),
                "methods": methods,
                "seconds": seconds,
            }
        )
        arrays[f"p{i}_starts"], arrays[f"p{i}_minima"] = population.starts, population.points
        log.info(
            "d=%d path %d: %d minima, best %.4f, median %.4f, %.0f%% on the boundary; %s, "
            "exact BFGS %.4f (%s); %.1f s",
            d,
            i,
            s["starts"],
            population.values.min(),
            np.median(population.values),
            100 * population.on_boundary.mean(),
            ", ".join(f"{m} {methods[m]['value']:.4f}" for m in FIG1_METHODS),
            descent.value,
            descent.stop,
            seconds,
        )
    save_npz(smk.output.minima, **arrays)
    save_json(smk.output.summary, entries)
