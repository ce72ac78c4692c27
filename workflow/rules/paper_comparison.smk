# The paper-vs-reproduced table: every number the paper states beside ours, with a verdict. Rows
# of a figure not run at the paper's scale say so.
from localbo.pipeline.paper_comparison import comparable_sections

# It compares the figures' tables: the rules files it uses come first, whatever the order the
# Snakefile includes rules files in.
for uses in (
    "fig1.smk",
    "fig2.smk",
    "fig3.smk",
    "gradient_estimation.smk",
    "paper_code.smk",
    "sensitivity.smk",
):
    if not included(uses):

        include: uses


rule paper_comparison:
    input:
        **rules.paper_code.output,  # made from tables: made again by a redraw too
        fig1=tables(rules.fig1_table.output[0]),
        fig2=tables(rules.fig2_table.output[0]),
        fig3=tables(rules.fig3_table.output.best),
        fig3_others=tables(rules.fig3_table.output.other_paths),
        draws=tables(GE.draw_files(rules.gradient_estimation_draws.output[0])),
        sensitivity=tables(rules.sensitivity_table.output.table),
    output:
        report(
            "results/paper_comparison.csv",
            caption="../report/paper_comparison.rst",
            category="Tables",
        ),
    log:
        "logs/paper_comparison.log",
    benchmark:
        "benchmarks/paper_comparison.tsv"
    conda:
        "../../envs/localbo.yaml"
    params:
        seed=SETTINGS.seed,
        settings=as_config(SETTINGS.paper_comparison),
        departures=SETTINGS.gradient_estimation.departures(),
        comparable=comparable_sections(
            SETTINGS.fig1, SETTINGS.fig2, SETTINGS.fig3, SETTINGS.gradient_estimation
        ),
    script:
        "../../scripts/paper_comparison.py"


FINAL_TARGETS.extend(rules.paper_comparison.output)
DERIVED_TARGETS.extend(rules.paper_comparison.output)
