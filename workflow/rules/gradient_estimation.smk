# Figs. 4 and 5: gradient estimation of non-smooth functions (paper section 6.3 and appendix
# "Additional Experiments"). One job per case, a summary table, one plotting rule per figure.
from localbo.pipeline.gradient_estimation import PROCEDURES

GE = SETTINGS.gradient_estimation_jobs()
FIG4_CASES, FIG5_CASES = (
    SETTINGS.gradient_estimation.fig4,
    SETTINGS.gradient_estimation.fig5,
)


rule gradient_estimate:
    output:
        summary="results/gradient_estimation/{case}.json",
        arrays="results/gradient_estimation/{case}.npz",
    log:
        "logs/gradient_estimate/{case}.log",
    benchmark:
        "benchmarks/gradient_estimate/{case}.tsv"
    wildcard_constraints:
        case="|".join(GE.cases),
    conda:
        "../../envs/localbo.yaml"
    threads: 1
    resources:
        **scheduled(COSTS["gradient_estimate"]),
    params:
        settings=GE.params,
    script:
        "../../scripts/gradient_estimate.py"


rule gradient_estimation_table:
    input:
        GE.files(GE.cases, rules.gradient_estimate.output.summary),
    output:
        report(
            "results/gradient_estimation/summary.csv",
            caption="../report/tables.rst",
            category="Tables",
        ),
    log:
        "logs/gradient_estimation_table.log",
    benchmark:
        "benchmarks/gradient_estimation_table.tsv"
    conda:
        "../../envs/localbo.yaml"
    script:
        "../../scripts/gradient_estimation_table.py"


rule gradient_estimation_draws:
    output:
        "results/gradient_estimation/draws/{case}_{procedure}.csv",
    log:
        "logs/gradient_estimation_draws/{case}_{procedure}.log",
    benchmark:
        "benchmarks/gradient_estimation_draws/{case}_{procedure}.tsv"
    wildcard_constraints:
        case="|".join(GE.distributed),
        procedure="|".join(PROCEDURES),
    conda:
        "../../envs/localbo.yaml"
    threads: 1
    resources:
        **scheduled(COSTS["gradient_estimation_draws"]),
    params:
        settings=GE.draw_params,
    script:
        "../../scripts/gradient_estimation_draws.py"


rule gradient_estimation_distribution:
    input:
        GE.draw_files(rules.gradient_estimation_draws.output[0]),
    output:
        report(
            "results/gradient_estimation/distribution.csv",
            caption="../report/gradient_estimation_distribution.rst",
            category="Tables",
        ),
    log:
        "logs/gradient_estimation_distribution.log",
    benchmark:
        "benchmarks/gradient_estimation_distribution.tsv"
    conda:
        "../../envs/localbo.yaml"
    script:
        "../../scripts/gradient_estimation_distribution.py"


rule fig4_plot:
    input:
        summaries=GE.files(FIG4_CASES, rules.gradient_estimate.output.summary),
        arrays=GE.files(FIG4_CASES, rules.gradient_estimate.output.arrays),
    output:
        pdf=report(
            "figures/fig4_l1norm.pdf",
            caption="../report/fig4.rst",
            category="Figures",
        ),
        png="figures/fig4_l1norm.png",
    log:
        "logs/fig4_plot.log",
    benchmark:
        "benchmarks/fig4_plot.tsv"
    conda:
        "../../envs/localbo.yaml"
    script:
        "../../scripts/fig4_plot.py"


rule fig5_plot:
    input:
        summaries=GE.files(FIG5_CASES, rules.gradient_estimate.output.summary),
        arrays=GE.files(FIG5_CASES, rules.gradient_estimate.output.arrays),
    output:
        pdf=report(
            "figures/fig5_relu.pdf",
            caption="../report/fig5.rst",
            category="Figures",
        ),
        png="figures/fig5_relu.png",
    log:
        "logs/fig5_plot.log",
    benchmark:
        "benchmarks/fig5_plot.tsv"
    conda:
        "../../envs/localbo.yaml"
    script:
        "../../scripts/fig5_plot.py"


FINAL_TARGETS.extend(
    [
        *rules.fig4_plot.output,
        *rules.fig5_plot.output,
        *rules.gradient_estimation_table.output,
        *rules.gradient_estimation_distribution.output,
    ]
)
