# The paper's own code beside Figs. 4 and 5: where the paper's numbers (and its notebooks'
# outputs) lie among its code's draws, and how far each procedure's draws lie from the code's.
# The code's draws are data (config/paper/paper_code_draws.csv): no rule runs the code.
if not included("gradient_estimation.smk"):

    include: "gradient_estimation.smk"


PAPER_CODE_DRAWS = str(Path(workflow.basedir) / "config/paper/paper_code_draws.csv")


rule paper_code:
    input:
        code=PAPER_CODE_DRAWS,
        draws=tables(GE.draw_files(rules.gradient_estimation_draws.output[0])),
    output:
        code_numbers=report(
            "results/paper_code/numbers.csv",
            caption="../report/paper_code.rst",
            category="Tables",
        ),
        code_draws=report(
            "results/paper_code/draws.csv",
            caption="../report/paper_code.rst",
            category="Tables",
        ),
    log:
        "logs/paper_code.log",
    benchmark:
        "benchmarks/paper_code.tsv"
    conda:
        "../../envs/localbo.yaml"
    params:
        seed=SETTINGS.seed,
        cases=GE.code_cases(),
        alpha=SETTINGS.paper_comparison.false_disagreement,
        tolerance=SETTINGS.paper_comparison.code_tolerance,
        resamples=SETTINGS.paper_comparison.resamples,
    script:
        "../../scripts/paper_code.py"


FINAL_TARGETS.extend(rules.paper_code.output)
DERIVED_TARGETS.extend(rules.paper_code.output)
