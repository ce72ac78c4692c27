"""Draw one Fig. 1 sample path (dimension d, index i) from its own stream
rng_for(seed, "fig1", "path", d, i): adding paths or dimensions never changes existing ones."""

from localbo.pipeline.runtime import snakemake_job

with snakemake_job(snakemake) as log:  # noqa: F821
    from localbo.kernels import make_kernel
    from localbo.sample_paths import FourierSamplePath
    from localbo.seeding import rng_for

    smk = snakemake  # noqa: F821
    s = smk.params.settings
    d, i = int(smk.wildcards.d), int(smk.wildcards.i)
    kernel = make_kernel(s["kernel"], s["lengthscale"], s["outputscale"])
    rng = rng_for(s["seed"], "fig1", "path", d, i)
    FourierSamplePath.draw(kernel, d, s["num_features"], rng).save(smk.output[0])
    log.info("drew path %d in d = %d with M = %d", i, d, s["num_features"])
