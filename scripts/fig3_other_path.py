"""Fig. 3's spread between paths: another d = 100 path of the stream and `other_restarts`
noiseless local-BO runs on it with the main path's design (it does not depend on the path: the
kernel is stationary). Run i starts at rng_for(seed, "fig3", "start", path_index, i). Writes the
path's index and, per run, what a restart chunk writes (`localbo.pipeline.fig3.restart_runs`).
"""

from localbo.pipeline.runtime import snakemake_job

with snakemake_job(snakemake) as log:  # noqa: F821
    import numpy as np

    from localbo.designs import Design
    from localbo.io import save_npz
    from localbo.pipeline.fig3 import restart_runs
    from localbo.pipeline.sections import kernel_of
    from localbo.sample_paths import FourierSamplePath
    from localbo.seeding import rng_for

    smk = snakemake  # noqa: F821
    s = smk.params.settings
    index, d = s["path_index"], s["d"]
    path_rng = rng_for(s["seed"], "fig3", "path", d, index)
    path = FourierSamplePath.draw(kernel_of(s), d, s["num_features"], path_rng)
    design = Design.load(smk.input.design)
    start = lambda i: rng_for(s["seed"], "fig3", "start", index, i)  # noqa: E731
    arrays = restart_runs(s, path, design, range(s["runs"]), start)
    save_npz(smk.output[0], path_index=np.int64(index), **arrays)
    log.info("path %d: %d runs, median value %.4f", index, s["runs"], np.median(arrays["value"]))
