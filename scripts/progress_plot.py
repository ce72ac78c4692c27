"""Plot the progress curves from results/fig1/curves.csv (`localbo.pipeline.progress_figure`)."""

from localbo.pipeline.runtime import snakemake_job

with snakemake_job(snakemake):  # noqa: F821
    import pandas as pd

    from localbo.pipeline.progress import median_curves
    from localbo.pipeline.progress_figure import progress_figure
    from localbo.plotting import save_figure

    smk = snakemake  # noqa: F821
    methods = smk.params.methods
    budgets = {name: about["budget"] for name, about in methods.items()}
    medians = median_curves(pd.read_csv(smk.input[0]), budgets, smk.params.points)
    save_figure(progress_figure(medians, methods), smk.output.pdf, smk.output.png)
