# Empirical convergence rates (paper Corollaries 1 and 2): Algorithm 1 with step 1 / L
# on Fig. 1's own paths, one job per (d, sigma, schedule, step rule) over all paths, a table of
# fitted slopes beside the theory's exponents, and the figure.
from functools import partial

from localbo.convergence import SCHEDULE_LABELS

# It runs on Fig. 1's paths: the rules files it uses come first, whatever the order the
# Snakefile includes rules files in.
for uses in ("fig1.smk",):
    if not included(uses):

        include: uses


RATES = SETTINGS.rates_jobs()


wildcard_constraints:
    schedule="|".join(RATES.schedule_names),
    step="|".join(RATES.step_names),


rule rates_smoothness:
    input:
        partial(RATES.path_files, rules.fig1_path.output[0]),
    output:
        "results/rates/smoothness/d{d}.json",
    log:
        "logs/rates_smoothness/d{d}.log",
    benchmark:
        "benchmarks/rates_smoothness/d{d}.tsv"
    conda:
        "../../envs/localbo.yaml"
    threads: 1
    resources:
        **scheduled(COSTS["rates_smoothness"]),
    params:
        settings=RATES.smoothness_params,
    script:
        "../../scripts/rates_smoothness.py"


rule rates_run:
    input:
        paths=partial(RATES.path_files, rules.fig1_path.output[0]),
        smoothness=rules.rates_smoothness.output[0],
    output:
        summary="results/rates/runs/d{d}_sigma{sigma}_{schedule}_{step}.json",
        curves="results/rates/runs/d{d}_sigma{sigma}_{schedule}_{step}.npz",
    log:
        "logs/rates_run/d{d}_sigma{sigma}_{schedule}_{step}.log",
    benchmark:
        "benchmarks/rates_run/d{d}_sigma{sigma}_{schedule}_{step}.tsv"
    conda:
        "../../envs/localbo.yaml"
    threads: 1
    resources:
        **scheduled(COSTS["rates_run"]),
    params:
        settings=RATES.run_params,
    script:
        "../../scripts/rates_run.py"


rule rates_table:
    input:
        summaries=RATES.run_files(rules.rates_run.output.summary),
        curves=RATES.run_files(rules.rates_run.output.curves),
    output:
        runs="results/rates/runs.csv",
        curves="results/rates/curves.csv",
        slopes=report(
            "results/rates/slopes.csv",
            caption="../report/tables.rst",
            category="Tables",
        ),
    log:
        "logs/rates_table.log",
    benchmark:
        "benchmarks/rates_table.tsv"
    conda:
        "../../envs/localbo.yaml"
    script:
        "../../scripts/rates_table.py"


rule rates_plot:
    input:
        **tables(rules.rates_table.output),
    output:
        pdf=report(
            "figures/rates.pdf",
            caption="../report/rates.rst",
            category="Figures",
        ),
        png="figures/rates.png",
    log:
        "logs/rates_plot.log",
    benchmark:
        "benchmarks/rates_plot.tsv"
    conda:
        "../../envs/localbo.yaml"
    params:
        labels=SCHEDULE_LABELS,
    script:
        "../../scripts/rates_plot.py"


FINAL_TARGETS.extend([*rules.rates_plot.output, *rules.rates_table.output])
