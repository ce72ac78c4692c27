# Fig. 3: what random restarts buy (paper section 5.2). One sample path in d = 100, noiseless
# local-BO runs from uniform random starts fanned out in chunks, then best-after-k statistics.
FIG3 = config["fig3"]
FIG3_PUBLISHED = str(Path(workflow.basedir) / "config/paper/fig3_published.csv")


def fig3_chunk_count():
    return -(-FIG3["num_restarts"] // FIG3["chunk_size"])


def fig3_chunk_files():
    return [f"results/fig3/chunks/chunk{c}.npz" for c in range(fig3_chunk_count())]


def fig3_model_settings(wildcards):
    """Kernel, features and local-BO knobs shared with Fig. 1 (the paper: same settings)."""
    local_bo = {
        k: v
        for k, v in config["fig1"]["local_bo"].items()
        if k not in ("noise_levels", "paths_per_job")
    }
    return {
        "seed": config["seed"],
        "d": FIG3["d"],
        "path_index": FIG3["path_index"],
        "kernel": config["fig1"]["kernel"],
        "lengthscale": config["fig1"]["lengthscale"],
        "outputscale": config["fig1"]["outputscale"],
        "num_features": config["fig1"]["num_features"],
        "local_bo": local_bo,
    }


def fig3_chunk_settings(wildcards):
    chunk = int(wildcards.chunk)
    start = chunk * FIG3["chunk_size"]
    return {
        **fig3_model_settings(wildcards),
        "budget": config["fig1"]["budget"],
        "box": config["fig1"]["box"],
        "runs": [start, min(start + FIG3["chunk_size"], FIG3["num_restarts"])],
    }


def fig3_runtime(wildcards):
    """Minutes: about 0.4 s per d = 100 run at budget 5000 (bench), with a wide margin."""
    return int(5 + FIG3["chunk_size"] * 1.0 / 60 * FIG3["d"] / 100)


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
