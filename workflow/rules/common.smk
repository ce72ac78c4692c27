# Helpers shared by the rules: config validation, wildcard lists, resources.
from snakemake.utils import validate

from localbo.config_checks import check_config
from localbo.grids import fig2_blas_threads, fig2_is_large, fig2_panels

validate(config, "../../config/schemas/config.schema.yaml")
_config_errors = check_config(config)
if _config_errors:
    raise ValueError("invalid config:\n  " + "\n  ".join(_config_errors))


wildcard_constraints:
    d=r"\d+",
    b=r"\d+",
    sigma=r"\d+(\.\d+)?(e-?\d+)?",


def sigma_label(sigma):
    """The text of a noise level in file names: the shortest repr of the float."""
    return repr(float(sigma))


# ---- Fig. 2 ----
FIG2 = config["fig2"]


def fig2_points():
    """Every (d, b) of both panels, deduplicated: a job is shared when the panels meet."""
    return sorted(set().union(*fig2_panels(FIG2).values()))


def fig2_estimates():
    return [
        f"results/fig2/estimates/d{d}_b{b}_sigma{sigma_label(s)}.json"
        for d, b in fig2_points()
        for s in FIG2["noise_levels"]
    ]


def fig2_threads(wildcards):
    """Two BLAS threads pay off only for the largest designs: measured 1.8x at b = 1e4, 1.1x at
    b = 2000, and slower than one thread on a busy node (bench/README.md)."""
    return fig2_blas_threads(FIG2, int(wildcards.b))


def fig2_mem_mb(wildcards):
    """Twice the peak of one evaluation, K (b x b) plus the slope matrix's upper blocks: 1.22 GB
    measured at b = 1e4 (bench/README.md), about 1.5 b x b float64 matrices."""
    b = int(wildcards.b)
    return 500 + 2 * 8 * b * b // 2**20


def fig2_eval_seconds(b):
    """CPU seconds of one alpha_trace evaluation with its gradient at d = 10, one thread, fitted
    to bench/bench_error_function.py: 3 ms at b = 500, 90 ms at b = 2000, 7.7 s at b = 1e4;
    kernel and slope blocks about 1.1e-8 b^2, the Cholesky about 7e-12 b^3.
    """
    return 1.1e-8 * b**2 + 7e-12 * b**3


def fig2_runtime(wildcards):
    """Minutes: restarts x (iterations + 10) evaluations at the measured cost, times 2 for a busy
    node, plus 5 minutes of start-up."""
    settings = fig2_settings(wildcards)
    evaluations = settings["restarts"] * (settings["max_iterations"] + 10)
    return int(5 + 2 * evaluations * fig2_eval_seconds(int(wildcards.b)) / 60)


def all_figures():
    figures = [f"figures/fig2_error_function.{ext}" for ext in ("pdf", "png")]
    figures += fig1_figures()  # defined in fig1.smk
    figures += [f"figures/fig3_restarts.{ext}" for ext in ("pdf", "png")]
    figures += [
        f"figures/{name}.{ext}"
        for name in ("fig4_l1norm", "fig5_relu")
        for ext in ("pdf", "png")
    ]
    return figures


def all_tables():
    """The table of every figure: what a user compares with the paper, and what the tests read."""
    return [
        "results/fig1/local_solutions.csv",
        "results/fig2/error_function.csv",
        "results/fig3/restarts.csv",
        "results/fig3/best_after_restarts.csv",
        "results/gradient_estimation/summary.csv",
    ]


def fig2_settings(wildcards):
    """The knobs one (d, b, sigma) job depends on, and nothing else (so a new noise level or
    panel point never reruns existing jobs)."""
    large = fig2_is_large(FIG2, int(wildcards.b))
    return {
        "seed": config["seed"],
        "kernel": FIG2["kernel"],
        "lengthscale": FIG2["lengthscale"],
        "outputscale": FIG2["outputscale"],
        "restarts": FIG2["large_restarts"] if large else FIG2["restarts"],
        "max_iterations": (
            FIG2["large_max_iterations"] if large else FIG2["max_iterations"]
        ),
        "perturbation": FIG2["perturbation"],
        "min_noise_var": FIG2["min_noise_var"],
    }
