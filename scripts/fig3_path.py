"""Fig. 3: draw the d = 100 sample path and optimize the local-BO design once for all runs
(it does not depend on the start: the kernel is stationary and no data is reused)."""

from localbo.pipeline.runtime import snakemake_job

with snakemake_job(snakemake) as log:  # noqa: F821
    from localbo.methods.local_bo import LocalBOSettings, noiseless_design
    from localbo.pipeline.sections import build, kernel_of
    from localbo.sample_paths import FourierSamplePath
    from localbo.seeding import rng_for

    smk = snakemake  # noqa: F821
    s = smk.params.settings
    d = s["d"]
    kernel = kernel_of(s)
    path_rng = rng_for(s["seed"], "fig3", "path", d, s["path_index"])
    FourierSamplePath.draw(kernel, d, s["num_features"], path_rng).save(smk.output.path)
    settings = build(LocalBOSettings, s["local_bo"], "fig1.methods.local_bo")
    design = noiseless_design(kernel, d, rng_for(s["seed"], "fig3", "design"), settings)
    design.save(smk.output.design)
    log.info(
        "path d = %d (M = %d); design of %d points, trace %.3g",
        d,
        s["num_features"],
        design.size,
        design.value,
    )
