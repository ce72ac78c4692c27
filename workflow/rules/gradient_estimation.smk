# Figs. 4 and 5: gradient estimation of non-smooth functions (paper section 5.3 and appendix
# "Additional Experiments"). One job per case, a summary table, one plotting rule per figure.


include: "common_gradient_estimation.smk"


rule gradient_estimate:
    output:
        summary="results/gradient_estimation/{case}.json",
        arrays="results/gradient_estimation/{case}.npz",
    log:
        "logs/gradient_estimate/{case}.log",
    benchmark:
        "benchmarks/gradient_estimate/{case}.tsv"
    wildcard_constraints:
        case="|".join(GE_CASES),
    conda:
        "../../envs/localbo.yaml"
    threads: 1
    resources:
        mem_mb=500,
        runtime=10,
    params:
        settings=gradient_estimation_settings,
    script:
        "../../scripts/gradient_estimate.py"


rule gradient_estimation_table:
    input:
        gradient_estimation_results(GE_CASES, "json"),
    output:
        "results/gradient_estimation/summary.csv",
    log:
        "logs/gradient_estimation_table.log",
    conda:
        "../../envs/localbo.yaml"
    script:
        "../../scripts/gradient_estimation_table.py"


rule fig4_plot:
    input:
        summaries=gradient_estimation_results(GRADIENT_ESTIMATION["fig4"], "json"),
        arrays=gradient_estimation_results(GRADIENT_ESTIMATION["fig4"], "npz"),
    output:
        pdf=report(
            "figures/fig4_l1norm.pdf",
            caption="../report/fig4.rst",
            category="Figures",
        ),
        png="figures/fig4_l1norm.png",
    log:
        "logs/fig4_plot.log",
    conda:
        "../../envs/localbo.yaml"
    script:
        "../../scripts/fig4_plot.py"


rule fig5_plot:
    input:
        summaries=gradient_estimation_results(GRADIENT_ESTIMATION["fig5"], "json"),
        arrays=gradient_estimation_results(GRADIENT_ESTIMATION["fig5"], "npz"),
    output:
        pdf=report(
            "figures/fig5_relu.pdf",
            caption="../report/fig5.rst",
            category="Figures",
        ),
        png="figures/fig5_relu.png",
    log:
        "logs/fig5_plot.log",
    conda:
        "../../envs/localbo.yaml"
    script:
        "../../scripts/fig5_plot.py"
