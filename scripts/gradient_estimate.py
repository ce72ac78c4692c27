"""One Fig. 4/5 case: design the queries, observe f, fit the GP by ML-II, write grad mu_D(x)."""

from localbo.runtime import snakemake_job

with snakemake_job(snakemake) as log:  # noqa: F821
    import time

    import numpy as np

    from localbo import gradient_estimation as ge
    from localbo.hyperparameters import Bounds
    from localbo.io import save_json, save_npz
    from localbo.kernels import make_kernel
    from localbo.seeding import rng_for

    smk = snakemake  # noqa: F821
    s = smk.params.settings
    case, design_cfg, fit_cfg = s["case"], s["design"], s["fit"]
    x = np.asarray(case["x"], dtype=float)
    n, function = int(case["n"]), case["function"]
    # Streams keyed by (x, n) only: cases at the same point with the same n share queries and
    # noise draws; the ML-II starts also depend on the function.
    coords = ("gradient_estimation", n, *x.tolist())
    start = time.perf_counter()
    kernel = make_kernel(s["kernel"], design_cfg["lengthscale"], design_cfg["outputscale"])
    design = ge.design_queries(
        kernel,
        x,
        n,
        design_cfg["noise_var"],
        rng_for(s["seed"], *coords, "design"),
        restarts=design_cfg["restarts"],
        start_std=design_cfg["start_std"],
        max_iterations=design_cfg["max_iterations"],
    )
    log.info("%s: design of %d queries, trace %.6g", smk.wildcards.case, n, design.trace)
    est = ge.estimate_gradient(
        function,
        x,
        design,
        s["kernel"],
        case["noise_std"],
        rng_for(s["seed"], *coords, "noise"),
        rng_for(s["seed"], *coords, "fit", function),
        fit_restarts=fit_cfg["restarts"],
        bounds=Bounds(
            lengthscale=tuple(fit_cfg["lengthscale_bounds"]),
            outputscale=tuple(fit_cfg["outputscale_bounds"]),
            noise_var=tuple(fit_cfg["noise_var_bounds"]),
        ),
        fit_max_iterations=fit_cfg["max_iterations"],
    )
    seconds = time.perf_counter() - start
    if est.fit.at_bound:
        log.warning("ML-II ended at the bound of %s", ", ".join(est.fit.at_bound))
    log.info("grad mu(x) = %s, distance to the subdifferential %.4g", est.gradient, est.error)
    paper = ge.paper_estimate(function, x, n)
    save_npz(
        smk.output.arrays,
        x=x,
        queries=est.queries,
        observations=est.observations,
        gradient=est.gradient,
        gradient_std=est.gradient_std,
        subdifferential=est.subdifferential,
        design_restart_traces=design.restart_traces,
        fit_restart_nlml=est.fit.restart_nlml,
    )
    save_json(
        smk.output.summary,
        {
            "case": smk.wildcards.case,
            "function": function,
            "kernel": s["kernel"],
            "x": x.tolist(),
            "n": n,
            "noise_std": case["noise_std"],
            "gradient": est.gradient.tolist(),
            "gradient_std": est.gradient_std.tolist(),
            "subdifferential": est.subdifferential.tolist(),
            "error": est.error,
            "paper_gradient": list(paper) if paper is not None else None,
            "paper_error": (
                ge.distance_to_box(np.asarray(paper), est.subdifferential)
                if paper is not None
                else None
            ),
            "design_trace": design.trace,
            "hyperparameters": est.fit.params.as_dict(),
            "nlml": est.fit.nlml,
            "at_bound": list(est.fit.at_bound),
            "seconds": seconds,
        },
    )
