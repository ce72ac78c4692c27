# Fig. 1: how good are local solutions? (paper section 3). One job per sample path (so adding
# paths never reruns anything), one job per (method, d, sigma, chunk of paths) for every method
# of fig1.methods, a table with one row per run, and the figure.
from functools import partial

from localbo.methods.local_bo import LocalBO

FIG1 = SETTINGS.fig1_jobs()


wildcard_constraints:
    method="|".join(FIG1.method_names),


rule fig1_path:
    output:
        "results/fig1/paths/d{d}/path{i}.npz",
    log:
        "logs/fig1_path/d{d}_path{i}.log",
    benchmark:
        "benchmarks/fig1_path/d{d}_path{i}.tsv"
    conda:
        "../../envs/localbo.yaml"
    threads: 1
    resources:
        **scheduled(COSTS["fig1_path"]),
    params:
        settings=FIG1.path_params,
    script:
        "../../scripts/fig1_path.py"


rule fig1_run:
    input:
        partial(FIG1.chunk_paths, rules.fig1_path.output[0]),
    output:
        summary="results/fig1/runs/{method}/d{d}_sigma{sigma}_chunk{chunk}.json",
        traces="results/fig1/runs/{method}/d{d}_sigma{sigma}_chunk{chunk}.npz",
    log:
        "logs/fig1_run/{method}/d{d}_sigma{sigma}_chunk{chunk}.log",
    benchmark:
        "benchmarks/fig1_run/{method}/d{d}_sigma{sigma}_chunk{chunk}.tsv"
    conda:
        "../../envs/localbo.yaml"
    threads: 1
    resources:
        **scheduled(COSTS["fig1_run"]),
    params:
        settings=FIG1.run_params,
    script:
        "../../scripts/fig1_run.py"


rule fig1_table:
    input:
        FIG1.run_files(rules.fig1_run.output.summary),
    output:
        report(
            "results/fig1/local_solutions.csv",
            caption="../report/tables.rst",
            category="Tables",
        ),
    log:
        "logs/fig1_table.log",
    benchmark:
        "benchmarks/fig1_table.tsv"
    conda:
        "../../envs/localbo.yaml"
    script:
        "../../scripts/fig1_table.py"


rule fig1_curves:
    input:
        summaries=FIG1.run_files(rules.fig1_run.output.summary),
        traces=FIG1.run_files(rules.fig1_run.output.traces),
    output:
        report(
            "results/fig1/curves.csv",
            caption="../report/tables.rst",
            category="Tables",
        ),
    log:
        "logs/fig1_curves.log",
    benchmark:
        "benchmarks/fig1_curves.tsv"
    conda:
        "../../envs/localbo.yaml"
    params:
        budgets={name: SETTINGS.fig1.budget_of(name) for name in FIG1.method_names},
        points=SETTINGS.progress.points,
    script:
        "../../scripts/fig1_curves.py"


rule fig1_plot:
    input:
        tables(rules.fig1_table.output[0]),
    output:
        pdf=report(
            "figures/fig1_local_solutions.pdf",
            caption="../report/fig1.rst",
            category="Figures",
        ),
        png="figures/fig1_local_solutions.png",
    log:
        "logs/fig1_plot.log",
    benchmark:
        "benchmarks/fig1_plot.tsv"
    conda:
        "../../envs/localbo.yaml"
    params:
        labels=FIG1.labels(),
        colors=FIG1.colors(),
        layout=SETTINGS.fig1.layout,
        local_bo=LocalBO.name,
    script:
        "../../scripts/fig1_plot.py"


FINAL_TARGETS.extend(
    [*rules.fig1_plot.output, *rules.fig1_table.output, *rules.fig1_curves.output]
)
