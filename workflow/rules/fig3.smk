# Fig. 3: what random restarts buy (paper section 6.2). One sample path in d = 100, noiseless
# local-BO runs from uniform random starts fanned out in chunks, then best-after-k statistics.
FIG3 = SETTINGS.fig3_jobs()
FIG3_PUBLISHED = str(Path(workflow.basedir) / "config/paper/fig3_published.csv")


rule fig3_path:
    output:
        path="results/fig3/path.npz",
        design="results/fig3/design.npz",
    log:
        "logs/fig3_path.log",
    benchmark:
        "benchmarks/fig3_path.tsv"
    conda:
        "../../envs/localbo.yaml"
    threads: 1
    resources:
        **scheduled(COSTS["fig3_path"]),
    params:
        settings=FIG3.model_params,
    script:
        "../../scripts/fig3_path.py"


rule restart_chunk:
    input:
        **rules.fig3_path.output,
    output:
        "results/fig3/chunks/chunk{chunk}.npz",
    log:
        "logs/restart_chunk/chunk{chunk}.log",
    benchmark:
        "benchmarks/restart_chunk/chunk{chunk}.tsv"
    conda:
        "../../envs/localbo.yaml"
    threads: 1
    resources:
        **scheduled(COSTS["restart_chunk"]),
    params:
        settings=FIG3.chunk_params,
    script:
        "../../scripts/fig3_restart_chunk.py"


rule fig3_other_path:
    input:
        design=rules.fig3_path.output.design,
    output:
        "results/fig3/other_paths/path{path}.npz",
    log:
        "logs/fig3_other_path/path{path}.log",
    benchmark:
        "benchmarks/fig3_other_path/path{path}.tsv"
    conda:
        "../../envs/localbo.yaml"
    threads: 1
    resources:
        **scheduled(COSTS["fig3_other_path"]),
    params:
        settings=FIG3.other_params,
    script:
        "../../scripts/fig3_other_path.py"


rule fig3_table:
    input:
        chunks=FIG3.chunk_files(rules.restart_chunk.output[0]),
        others=FIG3.other_files(rules.fig3_other_path.output[0]),
        published=FIG3_PUBLISHED,
    output:
        runs=report(
            "results/fig3/restarts.csv",
            caption="../report/tables.rst",
            category="Tables",
        ),
        best=report(
            "results/fig3/best_after_restarts.csv",
            caption="../report/tables.rst",
            category="Tables",
        ),
        other_paths="results/fig3/other_paths.csv",
    log:
        "logs/fig3_table.log",
    benchmark:
        "benchmarks/fig3_table.tsv"
    conda:
        "../../envs/localbo.yaml"
    params:
        **FIG3.table_params(),
    script:
        "../../scripts/fig3_table.py"


rule fig3_plot:
    input:
        **tables(rules.fig3_table.output),
    output:
        pdf=report(
            "figures/fig3_restarts.pdf",
            caption="../report/fig3.rst",
            category="Figures",
        ),
        png="figures/fig3_restarts.png",
    log:
        "logs/fig3_plot.log",
    benchmark:
        "benchmarks/fig3_plot.tsv"
    conda:
        "../../envs/localbo.yaml"
    params:
        show_paper=SETTINGS.fig3.comparable_to_paper,
        band=SETTINGS.fig3.band,
    script:
        "../../scripts/fig3_plot.py"


FINAL_TARGETS.extend([*rules.fig3_plot.output, *rules.fig3_table.output])
