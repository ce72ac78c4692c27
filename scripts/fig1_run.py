"""One Fig. 1 job: run one method at one (d, sigma) on a chunk of sample paths from x = 0.

Writes a JSON list with one summary per run and an .npz with every run's trace (keys
`p<i>_<field>` for path i). Streams: observation noise rng_for(seed, "fig1", "noise", method, d,
sigma, i), optimizer rng_for(seed, "fig1", "optimizer", method, d, sigma, i).
"""

from localbo.pipeline.runtime import snakemake_job

with snakemake_job(snakemake) as log:  # noqa: F821
    from localbo.io import save_json, save_npz
    from localbo.kernels import make_kernel
    from localbo.objective import Box
    from localbo.optimizers import run_on_path
    from localbo.pipeline.fig1 import job_optimizer
    from localbo.sample_paths import FourierSamplePath
    from localbo.seeding import rng_for

    smk = snakemake  # noqa: F821
    s = smk.params.settings
    method, d, sigma = smk.wildcards.method, int(smk.wildcards.d), float(smk.wildcards.sigma)
    kernel = make_kernel(s["kernel"], s["lengthscale"], s["outputscale"])
    box = Box(s["box"]["lower"], s["box"]["upper"], d)
    optimizer = job_optimizer(method, s)
    summaries, traces = [], {}
    for i, path_file in zip(s["paths"], smk.input, strict=True):
        path = FourierSamplePath.load(path_file)
        result = run_on_path(
            optimizer,
            path,
            kernel,
            sigma,
            s["budget"],
            box,
            noise_rng=rng_for(s["seed"], "fig1", "noise", method, d, sigma, i),
            rng=rng_for(s["seed"], "fig1", "optimizer", method, d, sigma, i),
        )
        summaries.append({"method": method, "d": d, "sigma": sigma, "path": i, **result.summary()})
        traces.update({f"p{i}_{k}": v for k, v in result.trace.arrays().items()})
        traces[f"p{i}_x"] = result.x
        log.info(
            "%s d=%d sigma=%g path %d: f = %.4f, |grad f| = %.2e, %d evaluations, %.1f s",
            method,
            d,
            sigma,
            i,
            result.value,
            result.gradient_norm,
            result.evaluations,
            result.seconds,
        )
    save_npz(smk.output.traces, **traces)
    save_json(smk.output.summary, summaries)
