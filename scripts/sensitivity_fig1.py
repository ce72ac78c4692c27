"""The sensitivity study, Fig. 1: local BO at sigma = 0 on a chunk of Fig. 1's paths in d,
each path drawn from its stream with the setting's number of features, each run from x = 0 with
Fig. 1's streams (`localbo.pipeline.sensitivity`). Writes one summary per run."""

from localbo.pipeline.runtime import snakemake_job

with snakemake_job(snakemake) as log:  # noqa: F821
    from localbo.io import save_json
    from localbo.objective import Box
    from localbo.optimizers import run_on_path
    from localbo.pipeline.fig1_job import job_optimizer, path_stream, run_streams
    from localbo.pipeline.sections import kernel_of
    from localbo.sample_paths import FourierSamplePath

    smk = snakemake  # noqa: F821
    s = smk.params.settings
    d, seed, kernel = s["d"], s["seed"], kernel_of(s)
    box = Box(s["box"]["lower"], s["box"]["upper"], d)
    optimizer = job_optimizer("local_bo", s)
    runs = []
    for i in s["paths"]:
        path = FourierSamplePath.draw(kernel, d, s["num_features"], path_stream(seed, d, i))
        noise_rng, rng = run_streams(seed, "local_bo", d, 0.0, i)
        result = run_on_path(optimizer, path, kernel, 0.0, s["budget"], box, noise_rng, rng)
        runs.append({"path": i, "value": result.value, "evaluations": result.evaluations})
        log.info("path %d, M = %d: f = %.4f", i, s["num_features"], result.value)
    save_json(smk.output[0], runs)
