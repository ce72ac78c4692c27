# Helpers of the Fig. 3 rules (workflow/rules/fig3.smk): chunks, settings, resources.
FIG3 = config["fig3"]
FIG3_PUBLISHED = str(Path(workflow.basedir) / "config/paper/fig3_published.csv")


def fig3_chunk_count():
    return -(-FIG3["num_restarts"] // FIG3["chunk_size"])


def fig3_chunk_files():
    return [f"results/fig3/chunks/chunk{c}.npz" for c in range(fig3_chunk_count())]


def fig3_model_settings(wildcards):
    """Kernel, features and local-BO knobs shared with Fig. 1 (the paper: same settings)."""
    return {
        **fig1_path_settings(wildcards),
        "d": FIG3["d"],
        "path_index": FIG3["path_index"],
        "local_bo": fig1_method_knobs("local_bo"),
    }


def fig3_chunk_settings(wildcards):
    chunk = int(wildcards.chunk)
    start = chunk * FIG3["chunk_size"]
    return {
        **fig3_model_settings(wildcards),
        "budget": fig1_budget("local_bo"),
        "box": FIG1["box"],
        "runs": [start, min(start + FIG3["chunk_size"], FIG3["num_restarts"])],
    }


def fig3_runtime(wildcards):
    """Minutes: measured 0.13-0.3 s per d = 100 run at budget 5000 (benchmarks/restart_chunk),
    scaled with d; 1 s per run is reserved for a busy node."""
    return int(5 + FIG3["chunk_size"] * 1.0 * FIG3["d"] / 100 / 60)
