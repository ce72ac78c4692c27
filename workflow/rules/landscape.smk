# Landscape or algorithm? (the paper's open question 1). On Fig. 1's own paths, one job
# per (d, chunk of paths): the population of local minima from uniform starts and local BO's step
# rule with the exact gradient, beside Fig. 1's own local BO (sigma = 0) and exact_gradient runs
# (their files, not rerun); the tables, and the figure.
from functools import partial

# It reads Fig. 1's paths and runs: the rules files it uses come first, whatever the order
# the Snakefile includes rules files in.
for uses in ("fig1.smk",):
    if not included(uses):

        include: uses


LANDSCAPE = SETTINGS.landscape_jobs()


rule landscape_run:
    input:
        **LANDSCAPE.fig1_inputs(rules.fig1_run.output),
        paths=partial(LANDSCAPE.chunk_paths, rules.fig1_path.output[0]),
    output:
        summary="results/landscape/runs/d{d}_chunk{chunk}.json",
        minima="results/landscape/runs/d{d}_chunk{chunk}.npz",
    log:
        "logs/landscape_run/d{d}_chunk{chunk}.log",
    benchmark:
        "benchmarks/landscape_run/d{d}_chunk{chunk}.tsv"
    conda:
        "../../envs/localbo.yaml"
    threads: 1
    resources:
        **scheduled(COSTS["landscape_run"]),
    params:
        settings=LANDSCAPE.run_params,
    script:
        "../../scripts/landscape_run.py"


rule landscape_table:
    input:
        LANDSCAPE.run_files(rules.landscape_run.output.summary),
    output:
        population="results/landscape/population.csv",
        percentiles=report(
            "results/landscape/percentiles.csv",
            caption="../report/tables.rst",
            category="Tables",
        ),
        summary=report(
            "results/landscape/summary.csv",
            caption="../report/tables.rst",
            category="Tables",
        ),
    log:
        "logs/landscape_table.log",
    benchmark:
        "benchmarks/landscape_table.tsv"
    conda:
        "../../envs/localbo.yaml"
    script:
        "../../scripts/landscape_table.py"


rule landscape_plot:
    input:
        **tables(rules.landscape_table.output),
    output:
        pdf=report(
            "figures/landscape.pdf",
            caption="../report/landscape.rst",
            category="Figures",
        ),
        png="figures/landscape.png",
    log:
        "logs/landscape_plot.log",
    benchmark:
        "benchmarks/landscape_plot.tsv"
    conda:
        "../../envs/localbo.yaml"
    params:
        labels=LANDSCAPE.labels(),
        colors=SETTINGS.fig1_jobs().colors(),
    script:
        "../../scripts/landscape_plot.py"


FINAL_TARGETS.extend([*rules.landscape_plot.output, *rules.landscape_table.output])
