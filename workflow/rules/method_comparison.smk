# The methods of Fig. 1 compared path by path (beyond the paper): paired differences with local
# BO and between variants, their statistics, and the figure, from Fig. 1's table alone (in a
# redraw, the gallery's).
from localbo.pipeline.method_comparison import (
    QUANTITIES,
    method_params,
    statistics_note,
)

METHODS = method_params(SETTINGS.fig1_jobs())

# It reads Fig. 1's table: the rules files it uses come first, whatever the order the
# Snakefile includes rules files in.
for uses in ("fig1.smk",):
    if not included(uses):

        include: uses


rule method_comparison_table:
    input:
        tables(rules.fig1_table.output[0]),
    output:
        summary=report(
            "results/method_comparison/summary.csv",
            caption="../report/method_comparison_table.rst",
            category="Tables",
        ),
        differences="results/method_comparison/differences.csv",
    log:
        "logs/method_comparison_table.log",
    benchmark:
        "benchmarks/method_comparison_table.tsv"
    conda:
        "../../envs/localbo.yaml"
    params:
        seed=SETTINGS.seed,
        settings=as_config(SETTINGS.method_comparison),
        methods=METHODS,
    script:
        "../../scripts/method_comparison_table.py"


rule method_comparison_plot:
    input:
        **rules.method_comparison_table.output,
    output:
        pdf=report(
            "figures/method_comparison.pdf",
            caption="../report/method_comparison.rst",
            category="Figures",
        ),
        png="figures/method_comparison.png",
    log:
        "logs/method_comparison_plot.log",
    benchmark:
        "benchmarks/method_comparison_plot.tsv"
    conda:
        "../../envs/localbo.yaml"
    params:
        baseline=SETTINGS.method_comparison.baseline,
        methods=METHODS,
        quantities=list(QUANTITIES.values()),
        confidence=SETTINGS.method_comparison.confidence,
        note=statistics_note(SETTINGS.method_comparison),
    script:
        "../../scripts/method_comparison_plot.py"


FINAL_TARGETS.extend(
    [*rules.method_comparison_plot.output, *rules.method_comparison_table.output]
)
DERIVED_TARGETS.extend(rules.method_comparison_table.output)
