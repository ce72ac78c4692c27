# The RBF error function against Lemma 3: Fig. 2's estimate with the unit RBF kernel,
# a table of the Lambert-W bound and its O(sigma d m^-1/2) form over the estimate, and the figure.


# It reuses Fig. 2's error_function rule: the rules files it uses come first, whatever the
# order the Snakefile includes rules files in.
for uses in ("fig2.smk",):
    if not included(uses):

        include: uses


RBF_ERROR = SETTINGS.rbf_error_jobs()


use rule error_function as rbf_error_function with:
    output:
        summary="results/rbf_error/estimates/{points}.json",
        arrays="results/rbf_error/estimates/{points}.npz",
    log:
        "logs/rbf_error_function/{points}.log",
    benchmark:
        "benchmarks/rbf_error_function/{points}.tsv"
    wildcard_constraints:
        points="|".join(RBF_ERROR.jobs),
    threads: RBF_ERROR.threads
    resources:
        **scheduled(COSTS["rbf_error_function"]),
    params:
        settings=RBF_ERROR.params,


rule rbf_error_table:
    input:
        RBF_ERROR.estimates(rules.rbf_error_function.output.summary),
    output:
        estimates=report(
            "results/rbf_error/error_function.csv",
            caption="../report/tables.rst",
            category="Tables",
        ),
        slopes=report(
            "results/rbf_error/slopes.csv",
            caption="../report/tables.rst",
            category="Tables",
        ),
    log:
        "logs/rbf_error_table.log",
    benchmark:
        "benchmarks/rbf_error_table.tsv"
    conda:
        "../../envs/localbo.yaml"
    params:
        panels=RBF_ERROR.settings.panels(),
    script:
        "../../scripts/rbf_error_table.py"


rule rbf_error_plot:
    input:
        tables(rules.rbf_error_table.output.estimates),
    output:
        pdf=report(
            "figures/rbf_error_function.pdf",
            caption="../report/rbf_error.rst",
            category="Figures",
        ),
        png="figures/rbf_error_function.png",
    log:
        "logs/rbf_error_plot.log",
    benchmark:
        "benchmarks/rbf_error_plot.tsv"
    conda:
        "../../envs/localbo.yaml"
    script:
        "../../scripts/rbf_error_plot.py"


FINAL_TARGETS.extend([*rules.rbf_error_plot.output, *rules.rbf_error_table.output])
