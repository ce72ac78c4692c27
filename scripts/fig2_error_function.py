"""One Fig. 2 job: estimate E_{d,k,sigma}(b) and write the estimate, design and history."""

from localbo.pipeline.runtime import snakemake_job

with snakemake_job(snakemake) as log:  # noqa: F821
    from localbo import error_function as ef
    from localbo.io import save_json, save_npz
    from localbo.pipeline.sections import build, kernel_of
    from localbo.seeding import rng_for

    smk = snakemake  # noqa: F821
    s = smk.params.settings
    d, b, sigma = int(smk.wildcards.d), int(smk.wildcards.b), float(smk.wildcards.sigma)
    kernel = kernel_of(s)
    settings = build(ef.ErrorFunctionSettings, s["estimate"], "estimate")
    log.info("E_{d=%d, %s, sigma=%g}(b=%d), %s", d, s["kernel"], sigma, b, settings)
    est = ef.estimate_error_function(
        kernel, d, b, sigma, rng_for(s["seed"], "fig2", d, b, sigma), settings
    )
    designs = {dv.kind: {"value": dv.value, "step": dv.step} for dv in est.designs}
    save_npz(smk.output.arrays, design=est.design, history=est.history)
    save_json(
        smk.output.summary,
        {
            "d": d,
            "b": b,
            "sigma": sigma,
            "kernel": s["kernel"],
            "estimate": est.value,
            "start_values": est.start_values,
            "restart_values": est.restart_values,
            "central_design": designs["central"],
            "forward_design": designs["forward"],
            "bound": ef.paper_bound(s["kernel"], d, b, sigma),
            "noiseless_bound": ef.noiseless_bound(kernel, d, b),
            "evaluations": est.evaluations,
            "seconds": est.seconds,
        },
    )
    log.info(
        "estimate %.6g after %d evaluations in %.1f s", est.value, est.evaluations, est.seconds
    )
