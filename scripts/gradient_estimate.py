"""One Fig. 4/5 case: design the queries, observe f, fit the GP by ML-II, write grad mu_D(x)."""

from localbo.pipeline.runtime import snakemake_job

with snakemake_job(snakemake) as log:  # noqa: F821
    import time

    import numpy as np

    from localbo import gradient_estimation as ge
    from localbo.io import save_json, save_npz
    from localbo.pipeline.gradient_estimation import run_job

    CURVE_HALF_WIDTH, CURVE_POINTS = 0.35, 400  # the posterior drawn around a 1-d x (Fig. 5)

    smk = snakemake  # noqa: F821
    s = smk.params.settings
    case = s["case"]
    x = np.asarray(case["x"], dtype=float)
    n, function = int(case["n"]), case["function"]
    start = time.perf_counter()
    design, design_restart_values, est = run_job(s)
    log.info("%s: design of %d queries, trace %.6g", smk.wildcards.case, n, design.value)
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
        design_restart_traces=design_restart_values,
        fit_restart_nlml=est.fit.restart_nlml,
        **(
            {
                f"curve_{k}": v
                for k, v in ge.posterior_curve(
                    est, s["kernel"], CURVE_HALF_WIDTH, CURVE_POINTS
                ).items()
            }
            if len(x) == 1
            else {}
        ),
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
            "fit": case["fit"],
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
            "design_trace": design.value,
            "hyperparameters": est.fit.params.as_dict(),
            "nlml": est.fit.nlml,
            "at_bound": list(est.fit.at_bound),
            "seconds": seconds,
        },
    )
