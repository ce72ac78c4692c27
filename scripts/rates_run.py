"""One rates job: Algorithm 1 from x = 0 on each path of one d at one (sigma, schedule, step rule).

Writes a JSON list with one summary per path and an .npz with the evaluation grid (`grid`) and
each path's running minimum of ||grad f(x_t)||^2 on it (`p<i>`). Streams: designs
rng_for(seed, "rates", "design", d, sigma, schedule, step), shared by the job's paths; noise
rng_for(seed, "rates", "noise", d, sigma, schedule, step, i).
"""

from localbo.pipeline.runtime import snakemake_job

with snakemake_job(snakemake) as log:  # noqa: F821
    import dataclasses
    import time

    from localbo import convergence as cv
    from localbo.io import load_json, save_json, save_npz
    from localbo.landscape import outside_box
    from localbo.methods.local_bo import DesignCache, LocalBOSettings, batch_size
    from localbo.objective import Box
    from localbo.pipeline.rates import evaluation_grid
    from localbo.pipeline.sections import build, kernel_of
    from localbo.sample_paths import FourierSamplePath
    from localbo.seeding import rng_for

    smk = snakemake  # noqa: F821
    p = smk.params.settings
    w = smk.wildcards
    d, sigma, schedule, rule = int(w.d), float(w.sigma), w.schedule, w.step
    kernel = kernel_of(p)
    local_bo = build(LocalBOSettings, p["local_bo"], "fig1.methods.local_bo")
    base = cv.schedule_settings(schedule, d, local_bo)
    designs = DesignCache(
        kernel,
        d,
        sigma**2 + base.min_noise_var,
        False,
        rng_for(p["seed"], "rates", "design", d, sigma, schedule, rule),
        base,
    )
    constants = load_json(smk.input.smoothness)["L"]
    grid = evaluation_grid(1, p["budget"], p["grid_per_decade"])
    box = Box(p["box"]["lower"], p["box"]["upper"], d)
    first_batch = batch_size(base.schedule, d, 1, base.batch_factor)  # d + 1 at sigma = 0
    summaries, curves = [], {"grid": grid}
    for i, path_file in enumerate(smk.input.paths):
        start = time.process_time()
        path = FourierSamplePath.load(path_file)
        L = constants[i]
        step = 1.0 / L if rule == "fixed" else p["normalized_step_size"]
        settings = dataclasses.replace(base, step_rule=rule, step_size=step)
        noise = rng_for(p["seed"], "rates", "noise", d, sigma, schedule, rule, i) if sigma else None
        trace = cv.rate_run(path, kernel, sigma, p["budget"], settings, designs, noise).arrays()
        curves[f"p{i}"] = cv.running_min_on_grid(
            trace["evaluations"], trace["gradient_norms"] ** 2, grid
        )
        iterates = trace["iterates"]
        summaries.append(
            {
                "d": d,
                "sigma": sigma,
                "schedule": schedule,
                "step_rule": rule,
                "path": i,
                "L": L,
                "step_size": step,
                "f_start": float(trace["values"][0]),
                "min_value": float(trace["values"].min()),
                "final_value": float(trace["values"][-1]),
                "iterations": len(iterates) - 1,
                "evaluations": int(trace["evaluations"][-1]),
                "left_box": bool(outside_box(iterates, box).any()),
                # the design's E at sigma = 0 (Corollary 1's floor), after the run made it
                "floor": designs.get(first_batch).value if sigma == 0 else None,
                "seconds": time.process_time() - start,
            }
        )
        log.info(
            "d = %d, sigma = %g, %s, %s, path %d: min |grad f|^2 = %.3e after %d evaluations,"
            " %.1f s",
            d,
            sigma,
            schedule,
            rule,
            i,
            curves[f"p{i}"][-1],
            summaries[-1]["evaluations"],
            summaries[-1]["seconds"],
        )
    save_npz(smk.output.curves, **curves)
    save_json(smk.output.summary, summaries)
