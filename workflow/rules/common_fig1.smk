# Helpers of the Fig. 1 rules (workflow/rules/fig1.smk): config section, job chunks, settings,
# resources. Kept apart from the rules (snakemake --lint).
FIG1 = config["fig1"]
FIG1_METHODS = ("local_bo", "gp_ucb", "random_search")


wildcard_constraints:
    method="|".join(FIG1_METHODS),
    chunk=r"\d+",
    i=r"\d+",


def fig1_budget(method):
    """Evaluations per run of a method: its own `budget` key, else fig1.budget."""
    return FIG1[method].get("budget") or FIG1["budget"]


def fig1_chunks(method):
    """Path indices of each job of a method: consecutive blocks of paths_per_job."""
    size = FIG1[method]["paths_per_job"]
    n = FIG1["num_paths"]
    return [list(range(start, min(start + size, n))) for start in range(0, n, size)]


def fig1_run_files():
    return [
        f"results/fig1/runs/{method}/d{d}_sigma{sigma_label(s)}_chunk{c}.json"
        for method in FIG1_METHODS
        for d in FIG1["dims"]
        for s in FIG1[method]["noise_levels"]
        for c in range(len(fig1_chunks(method)))
    ]


def fig1_chunk_paths(wildcards):
    indices = fig1_chunks(wildcards.method)[int(wildcards.chunk)]
    return [f"results/fig1/paths/d{wildcards.d}/path{i}.npz" for i in indices]


def fig1_path_settings(wildcards):
    return {
        "seed": config["seed"],
        "kernel": FIG1["kernel"],
        "lengthscale": FIG1["lengthscale"],
        "outputscale": FIG1["outputscale"],
        "num_features": FIG1["num_features"],
    }


def fig1_method_knobs(method):
    """A method's own settings, without the job bookkeeping (noise levels, chunking, budget)."""
    return {
        k: v
        for k, v in FIG1[method].items()
        if k not in ("noise_levels", "paths_per_job", "budget")
    }


def fig1_run_settings(wildcards):
    """What one job depends on: the kernel, budget, box and its own method's knobs only."""
    knobs = fig1_method_knobs(wildcards.method)
    return {
        **fig1_path_settings(wildcards),
        "budget": fig1_budget(wildcards.method),
        "box": FIG1["box"],
        "paths": fig1_chunks(wildcards.method)[int(wildcards.chunk)],
        "method_settings": knobs,
    }


def fig1_mem_mb(wildcards):
    """Paths of the chunk (M x d floats each) plus, for GP-UCB, a few n x n matrices."""
    d = int(wildcards.d)
    paths = len(fig1_chunks(wildcards.method)[int(wildcards.chunk)])
    mem = 500 + paths * FIG1["num_features"] * (d + 2) * 8 // 2**20
    if wildcards.method == "gp_ucb":
        mem += 4 * 8 * fig1_budget("gp_ucb") ** 2 // 2**20
    return mem


def fig1_runtime(wildcards):
    """Minutes per job, from measured costs (one core, bench/results/): local BO about 3 s per
    d = 50 run at budget 5000, random search under a second, GP-UCB about 5.5e-8 n^2 s per
    iteration at n points (0.88 s at n = 4000, d = 20), so about 2e-8 n^3 s per run.
    """
    d = int(wildcards.d)
    paths = len(fig1_chunks(wildcards.method)[int(wildcards.chunk)])
    n = fig1_budget(wildcards.method)
    per_run = {
        "local_bo": 1e-3 * n * (1 + d / 10),
        "random_search": 2e-4 * n,
        "gp_ucb": 2e-8 * n**3 + 0.05 * n,
    }[wildcards.method]
    return int(5 + 3 * paths * per_run / 60)


def fig1_figures():
    return [f"figures/fig1_local_solutions.{ext}" for ext in ("pdf", "png")]
