"""Plot Fig. 1 from results/fig1/local_solutions.csv (`localbo.pipeline.local_solutions_figure`),
its panels in config order."""

from localbo.pipeline.runtime import snakemake_job

with snakemake_job(snakemake):  # noqa: F821
    import pandas as pd

    from localbo.pipeline.local_solutions_figure import local_solutions_figure
    from localbo.plotting import save_figure

    smk = snakemake  # noqa: F821
    table, params = pd.read_csv(smk.input[0]), smk.params
    fig = local_solutions_figure(
        table, params.labels, params.layout, params.local_bo, params.colors
    )
    save_figure(fig, smk.output.pdf, smk.output.png)
