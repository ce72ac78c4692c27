# Fig. 1: how good are local solutions? (paper section 3). One job per sample path (so adding
# paths never reruns anything), one job per (method, d, sigma, chunk of paths), a table with one
# row per run, and the figure.


include: "common_fig1.smk"


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
        mem_mb=500,
        runtime=10,
    params:
        settings=fig1_path_settings,
    script:
        "../../scripts/fig1_path.py"


rule fig1_run:
    input:
        fig1_chunk_paths,
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
        mem_mb=fig1_mem_mb,
        runtime=fig1_runtime,
    params:
        settings=fig1_run_settings,
    script:
        "../../scripts/fig1_run.py"


rule fig1_table:
    input:
        fig1_run_files(),
    output:
        "results/fig1/local_solutions.csv",
    log:
        "logs/fig1_table.log",
    conda:
        "../../envs/localbo.yaml"
    script:
        "../../scripts/fig1_table.py"


rule fig1_plot:
    input:
        "results/fig1/local_solutions.csv",
    output:
        pdf=report(
            "figures/fig1_local_solutions.pdf",
            caption="../report/fig1.rst",
            category="Figures",
        ),
        png="figures/fig1_local_solutions.png",
    log:
        "logs/fig1_plot.log",
    conda:
        "../../envs/localbo.yaml"
    script:
        "../../scripts/fig1_plot.py"
