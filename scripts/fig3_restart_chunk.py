"""Fig. 3: one chunk of noiseless local-BO runs on the d = 100 path from uniform random starts.

Run i starts at a point drawn from rng_for(seed, "fig3", "start", i), so a run's result does not
depend on the chunking. Writes, per run: index, start, returned point's true value, true gradient
norm, evaluations used and wall time.
"""

from localbo.pipeline.runtime import snakemake_job

with snakemake_job(snakemake) as log:  # noqa: F821
    import numpy as np

    from localbo.designs import Design
    from localbo.io import save_npz
    from localbo.methods.local_bo import LocalBOSettings, run_noiseless_local_bo
    from localbo.objective import Box
    from localbo.pipeline.sections import build, kernel_of
    from localbo.sample_paths import FourierSamplePath
    from localbo.seeding import rng_for

    smk = snakemake  # noqa: F821
    s = smk.params.settings
    d = s["d"]
    kernel = kernel_of(s)
    path = FourierSamplePath.load(smk.input.path)
    design = Design.load(smk.input.design)
    settings = build(LocalBOSettings, s["local_bo"], "fig1.methods.local_bo")
    box = Box(s["box"]["lower"], s["box"]["upper"], d)
    first, stop = s["runs"]
    columns = {"run": [], "value": [], "gradient_norm": [], "evaluations": [], "seconds": []}
    for i in range(first, stop):
        x0 = box.uniform(1, rng_for(s["seed"], "fig3", "start", i))[0]
        result = run_noiseless_local_bo(path, kernel, x0, s["budget"], design, settings)
        columns["run"].append(i)
        columns["value"].append(result.value)
        columns["gradient_norm"].append(result.gradient_norm)
        columns["evaluations"].append(result.evaluations)
        columns["seconds"].append(result.seconds)
        if (i - first) % 25 == 0:
            log.info(
                "run %d: f = %.4f, |grad f| = %.2e, %d evaluations, %.2f s",
                i,
                result.value,
                result.gradient_norm,
                result.evaluations,
                result.seconds,
            )
    integer = ("run", "evaluations")
    arrays = {k: np.array(v, dtype=np.int64 if k in integer else float) for k, v in columns.items()}
    save_npz(smk.output[0], **arrays)
    log.info(
        "%d runs, median value %.4f, %.1f s in all",
        stop - first,
        np.median(arrays["value"]),
        arrays["seconds"].sum(),
    )
