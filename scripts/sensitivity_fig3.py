"""The sensitivity study, Fig. 3: one setting's runs on each path of Fig. 3's stream it covers,
each path drawn with the setting's number of features, run i from Fig. 3's start i of that path
(mapped into the setting's box), with the main path's design (`localbo.pipeline.sensitivity`).
Writes, per path, its index, amplitude and the runs' values."""

from localbo.pipeline.runtime import snakemake_job

with snakemake_job(snakemake) as log:  # noqa: F821
    import numpy as np

    from localbo.designs import Design
    from localbo.io import save_json
    from localbo.pipeline.fig3 import restart_runs
    from localbo.pipeline.sections import kernel_of
    from localbo.pipeline.sensitivity_table import amplitude
    from localbo.sample_paths import FourierSamplePath
    from localbo.seeding import rng_for

    smk = snakemake  # noqa: F821
    s = smk.params.settings
    d, seed, kernel = s["d"], s["seed"], kernel_of(s)
    design = Design.load(smk.input.design)
    paths = []
    for index in s["paths"]:
        path_rng = rng_for(seed, "fig3", "path", d, index)
        path = FourierSamplePath.draw(kernel, d, s["num_features"], path_rng)
        if index == s["main"]:  # Fig. 3's main path starts its runs from streams of their own
            start = lambda i: rng_for(seed, "fig3", "start", i)  # noqa: E731
        else:
            start = lambda i, index=index: rng_for(seed, "fig3", "start", index, i)  # noqa: E731
        arrays = restart_runs(s, path, design, range(s["runs"]), start)
        scale = amplitude(path.weights, s["outputscale"])
        paths.append({"path": index, "amplitude": scale, "values": arrays["value"].tolist()})
        log.info(
            "path %d, M = %d: amplitude %.4f, %d runs, median value %.4f",
            index,
            s["num_features"],
            scale,
            s["runs"],
            np.median(arrays["value"]),
        )
    save_json(smk.output[0], paths)
