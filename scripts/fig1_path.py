"""Draw one Fig. 1 sample path (dimension d, index i) from its own stream (`path_stream`)."""

from localbo.pipeline.runtime import snakemake_job

with snakemake_job(snakemake) as log:  # noqa: F821
    from localbo.pipeline.fig1_job import path_stream
    from localbo.pipeline.sections import kernel_of
    from localbo.sample_paths import FourierSamplePath

    smk = snakemake  # noqa: F821
    s = smk.params.settings
    d, i = int(smk.wildcards.d), int(smk.wildcards.i)
    kernel = kernel_of(s)
    rng = path_stream(s["seed"], d, i)
    FourierSamplePath.draw(kernel, d, s["num_features"], rng).save(smk.output[0])
    log.info("drew path %d in d = %d with M = %d", i, d, s["num_features"])
