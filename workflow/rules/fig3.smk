# Fig. 3: what random restarts buy (paper section 5.2). One sample path in d = 100, noiseless
# local-BO runs from uniform random starts fanned out in chunks, then best-after-k statistics.


include: "common_fig3.smk"


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
        mem_mb=1000,
        runtime=10,
    params:
        settings=fig3_model_settings,
    script:
        "../../scripts/fig3_path.py"


rule restart_chunk:
    input:
        path="results/fig3/path.npz",
        design="results/fig3/design.npz",
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
        mem_mb=1000,
        runtime=fig3_runtime,
    params:
        settings=fig3_chunk_settings,
    script:
        "../../scripts/fig3_restart_chunk.py"


rule fig3_table:
    input:
        chunks=fig3_chunk_files(),
        published=FIG3_PUBLISHED,
    output:
        runs="results/fig3/restarts.csv",
        best="results/fig3/best_after_restarts.csv",
    log:
        "logs/fig3_table.log",
    conda:
        "../../envs/localbo.yaml"
    params:
        seed=config["seed"],
        max_restarts=FIG3["max_restarts"],
        band=FIG3["band"],
        orderings=FIG3["orderings"],
    script:
        "../../scripts/fig3_table.py"


rule fig3_plot:
    input:
        runs="results/fig3/restarts.csv",
        best="results/fig3/best_after_restarts.csv",
    output:
        pdf=report(
            "figures/fig3_restarts.pdf",
            caption="../report/fig3.rst",
            category="Figures",
        ),
        png="figures/fig3_restarts.png",
    log:
        "logs/fig3_plot.log",
    conda:
        "../../envs/localbo.yaml"
    params:
        show_paper=FIG3["d"] == 100,
    script:
        "../../scripts/fig3_plot.py"
