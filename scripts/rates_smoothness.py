"""Each rates path's smoothness constant L: the largest Hessian spectral norm over uniform points
of the Fig. 1 box and the start, polished by local maximization (localbo.smoothness); points
from the stream rng_for(seed, "rates", "smoothness", d, i)."""

from localbo.pipeline.runtime import snakemake_job

with snakemake_job(snakemake) as log:  # noqa: F821
    from localbo.io import save_json
    from localbo.objective import Box
    from localbo.sample_paths import FourierSamplePath
    from localbo.seeding import rng_for
    from localbo.smoothness import smoothness_constant

    smk = snakemake  # noqa: F821
    p = smk.params.settings
    d = int(smk.wildcards.d)
    box = Box(p["box"]["lower"], p["box"]["upper"], d)
    constants = []
    for i, path_file in enumerate(smk.input):
        path = FourierSamplePath.load(path_file)
        rng = rng_for(p["seed"], "rates", "smoothness", d, i)
        constants.append(smoothness_constant(path, box, p["points"], rng, p["polish"]))
        log.info("d = %d, path %d: L = %.4f over %d points", d, i, constants[-1], p["points"] + 1)
    save_json(
        smk.output[0], {"d": d, "points": p["points"] + 1, "polish": p["polish"], "L": constants}
    )
