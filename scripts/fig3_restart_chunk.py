"""Fig. 3: one chunk of noiseless local-BO runs on the d = 100 path from uniform random starts.

Run i starts at a point drawn from rng_for(seed, "fig3", "start", i), so a run's result does not
depend on the chunking. Writes, per run: index, returned point's true value, true gradient
norm, evaluations used and wall time (`localbo.pipeline.fig3.restart_runs`).
"""

from localbo.pipeline.runtime import snakemake_job

with snakemake_job(snakemake) as log:  # noqa: F821
    import numpy as np

    from localbo.designs import Design
    from localbo.io import save_npz
    from localbo.pipeline.fig3 import restart_runs
    from localbo.sample_paths import FourierSamplePath
    from localbo.seeding import rng_for

    smk = snakemake  # noqa: F821
    s = smk.params.settings
    path = FourierSamplePath.load(smk.input.path)
    runs = range(*s["runs"])
    arrays = restart_runs(
        s,
        path,
        Design.load(smk.input.design),
        runs,
        lambda i: rng_for(s["seed"], "fig3", "start", i),
    )
    save_npz(smk.output[0], **arrays)
    log.info(
        "%d runs, median value %.4f, %.1f s in all",
        len(runs),
        np.median(arrays["value"]),
        arrays["seconds"].sum(),
    )
