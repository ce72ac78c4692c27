"""One error-function job: estimate E_{d,k,sigma}(b) at each of its points (Fig. 2 and the RBF
error function) and write a JSON list of the estimates and an .npz of their designs and
histories. Each point is kept as it finishes in `<summary>.finished/`, so a killed job's rerun
resumes after its last finished point; the directory goes once the outputs are written.
"""

from localbo.pipeline.runtime import snakemake_job

with snakemake_job(snakemake) as log:  # noqa: F821
    from localbo.io import save_json, save_npz
    from localbo.pipeline.fig2_job import estimate_points
    from localbo.pipeline.finished_runs import FinishedRuns

    smk = snakemake  # noqa: F821
    finished = FinishedRuns(smk.output.summary + ".finished")
    summaries, arrays = estimate_points(smk.params.settings, finished, log)
    save_npz(smk.output.arrays, **arrays)
    save_json(smk.output.summary, summaries)
    finished.clear()
