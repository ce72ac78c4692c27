# Progress over the budget (beyond the paper): every Fig. 1 run's curve (results/fig1/curves.csv)
# as median curves per d, and the evaluations at which each method's median reaches local BO's
# final median at its budget; from Fig. 1's curve table alone (in a redraw, the gallery's).
from localbo.methods.local_bo import LocalBO
from localbo.pipeline.method_comparison import method_params

PROGRESS_METHODS = method_params(SETTINGS.fig1_jobs())

# It reads Fig. 1's curve table: the rules files it uses come first, whatever the order the
# Snakefile includes rules files in.
for uses in ("fig1.smk",):
    if not included(uses):

        include: uses


rule progress_table:
    input:
        tables(rules.fig1_curves.output[0]),
    output:
        report(
            "results/progress/reach.csv",
            caption="../report/progress_table.rst",
            category="Tables",
        ),
    log:
        "logs/progress_table.log",
    benchmark:
        "benchmarks/progress_table.tsv"
    conda:
        "../../envs/localbo.yaml"
    params:
        methods=PROGRESS_METHODS,
        points=SETTINGS.progress.points,
        local_bo=LocalBO.name,
    script:
        "../../scripts/progress_table.py"


rule progress_plot:
    input:
        tables(rules.fig1_curves.output[0]),
    output:
        pdf=report(
            "figures/progress.pdf",
            caption="../report/progress.rst",
            category="Figures",
        ),
        png="figures/progress.png",
    log:
        "logs/progress_plot.log",
    benchmark:
        "benchmarks/progress_plot.tsv"
    conda:
        "../../envs/localbo.yaml"
    params:
        methods=PROGRESS_METHODS,
        points=SETTINGS.progress.points,
    script:
        "../../scripts/progress_plot.py"


FINAL_TARGETS.extend([*rules.progress_plot.output, *rules.progress_table.output])
DERIVED_TARGETS.extend(rules.progress_table.output)
