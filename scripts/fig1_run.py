"""One Fig. 1 job: run one method at one (d, sigma) on a chunk of sample paths from x = 0.

Writes a JSON list with one summary per run and an .npz with every run's trace (keys
`p<i>_<field>` for path i); `localbo.pipeline.fig1_job.run_chunk` gives the streams. Each run
is kept as it finishes in `<summary>.finished/`, so a killed job's rerun resumes after its last
finished run (`localbo.pipeline.finished_runs`); the directory goes once the outputs are written.
"""

from localbo.pipeline.runtime import snakemake_job

with snakemake_job(snakemake) as log:  # noqa: F821
    from localbo.io import save_json, save_npz
    from localbo.pipeline.fig1_job import run_chunk
    from localbo.pipeline.finished_runs import FinishedRuns

    smk = snakemake  # noqa: F821
    method, d, sigma = smk.wildcards.method, int(smk.wildcards.d), float(smk.wildcards.sigma)
    finished = FinishedRuns(smk.output.summary + ".finished")
    summaries, traces = run_chunk(
        method, d, sigma, smk.params.settings, list(smk.input), finished, log
    )
    save_npz(smk.output.traces, **traces)
    save_json(smk.output.summary, summaries)
    finished.clear()
