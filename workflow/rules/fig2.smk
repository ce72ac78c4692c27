# Fig. 2: the error function E_{d,k,sigma}(b) against the Matern-5/2 bound (paper section 6.1).
FIG2 = SETTINGS.fig2_jobs()


rule error_function:
    output:
        summary="results/fig2/estimates/{points}.json",
        arrays="results/fig2/estimates/{points}.npz",
    log:
        "logs/error_function/{points}.log",
    benchmark:
        "benchmarks/error_function/{points}.tsv"
    wildcard_constraints:
        points="|".join(FIG2.jobs),
    conda:
        "../../envs/localbo.yaml"
    threads: FIG2.threads
    resources:
        **scheduled(COSTS["error_function"]),
    params:
        settings=FIG2.params,
    script:
        "../../scripts/fig2_error_function.py"


rule fig2_table:
    input:
        FIG2.estimates(rules.error_function.output.summary),
    output:
        report(
            "results/fig2/error_function.csv",
            caption="../report/tables.rst",
            category="Tables",
        ),
    log:
        "logs/fig2_table.log",
    benchmark:
        "benchmarks/fig2_table.tsv"
    conda:
        "../../envs/localbo.yaml"
    params:
        panels=SETTINGS.fig2.panels(),
    script:
        "../../scripts/fig2_table.py"


rule fig2_plot:
    input:
        tables(rules.fig2_table.output[0]),
    output:
        pdf=report(
            "figures/fig2_error_function.pdf",
            caption="../report/fig2.rst",
            category="Figures",
        ),
        png="figures/fig2_error_function.png",
    log:
        "logs/fig2_plot.log",
    benchmark:
        "benchmarks/fig2_plot.tsv"
    conda:
        "../../envs/localbo.yaml"
    params:
        lemma=SETTINGS.fig2.bound_lemma,
    script:
        "../../scripts/fig2_plot.py"


FINAL_TARGETS.extend([*rules.fig2_plot.output, *rules.fig2_table.output])
