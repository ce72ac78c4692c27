# The sensitivity study (beyond the paper): the choices the paper leaves open, varied one at a
# time from ours, on the rows of the paper comparison they may explain; a table and a figure.
SENSITIVITY = SETTINGS.sensitivity_jobs()

# It runs on Fig. 3's design and reads Figs. 4 and 5's draws: the rules files it uses come
# first, whatever the order the Snakefile includes rules files in.
for uses in ("fig3.smk", "gradient_estimation.smk"):
    if not included(uses):

        include: uses


rule sensitivity_fig3:
    input:
        design=rules.fig3_path.output.design,
    output:
        "results/sensitivity/fig3/{setting}.json",
    log:
        "logs/sensitivity_fig3/{setting}.log",
    benchmark:
        "benchmarks/sensitivity_fig3/{setting}.tsv"
    wildcard_constraints:
        setting="|".join(SENSITIVITY.fig3_settings()),
    conda:
        "../../envs/localbo.yaml"
    threads: 1
    resources:
        **scheduled(COSTS["sensitivity_fig3"]),
    params:
        settings=SENSITIVITY.fig3_params,
    script:
        "../../scripts/sensitivity_fig3.py"


rule sensitivity_fig1:
    output:
        "results/sensitivity/fig1/{setting}/chunk{chunk}.json",
    log:
        "logs/sensitivity_fig1/{setting}/chunk{chunk}.log",
    benchmark:
        "benchmarks/sensitivity_fig1/{setting}/chunk{chunk}.tsv"
    wildcard_constraints:
        setting="|".join(SENSITIVITY.fig1_settings()),
    conda:
        "../../envs/localbo.yaml"
    threads: 1
    resources:
        **scheduled(COSTS["sensitivity_fig1"]),
    params:
        settings=SENSITIVITY.fig1_params,
    script:
        "../../scripts/sensitivity_fig1.py"


use rule gradient_estimation_draws as sensitivity_gradient_estimation with:
    output:
        "results/sensitivity/gradient_estimation/{setting}/{case}.csv",
    log:
        "logs/sensitivity_gradient_estimation/{setting}/{case}.log",
    benchmark:
        "benchmarks/sensitivity_gradient_estimation/{setting}/{case}.tsv"
    wildcard_constraints:
        setting="|".join(SENSITIVITY.gradient_settings()),
        case="|".join(GE.distributed),
    resources:
        **scheduled(COSTS["sensitivity_gradient_estimation"]),
    params:
        settings=SENSITIVITY.gradient_params,


rule sensitivity_table:
    input:
        fig3=SENSITIVITY.fig3_files(rules.sensitivity_fig3.output[0]),
        fig1=SENSITIVITY.fig1_files(rules.sensitivity_fig1.output[0]),
        gradient=SENSITIVITY.gradient_files(
            rules.sensitivity_gradient_estimation.output[0]
        ),
        draws=tables(GE.draw_files(rules.gradient_estimation_draws.output[0])),
    output:
        table=report(
            "results/sensitivity/table.csv",
            caption="../report/sensitivity_table.rst",
            category="Tables",
        ),
        paths="results/sensitivity/fig3_paths.csv",
    log:
        "logs/sensitivity_table.log",
    benchmark:
        "benchmarks/sensitivity_table.tsv"
    conda:
        "../../envs/localbo.yaml"
    params:
        seed=SETTINGS.seed,
        orderings=SETTINGS.fig3.orderings,
        comparison=as_config(SETTINGS.paper_comparison),
        settings=SENSITIVITY.table_params(),
    script:
        "../../scripts/sensitivity_table.py"


rule sensitivity_plot:
    input:
        **tables(rules.sensitivity_table.output),
    output:
        pdf=report(
            "figures/sensitivity.pdf",
            caption="../report/sensitivity.rst",
            category="Figures",
        ),
        png="figures/sensitivity.png",
    log:
        "logs/sensitivity_plot.log",
    benchmark:
        "benchmarks/sensitivity_plot.tsv"
    conda:
        "../../envs/localbo.yaml"
    params:
        alpha=SETTINGS.paper_comparison.false_disagreement,
        defaults=SENSITIVITY.fig3_defaults(),
        fig3_d=SETTINGS.fig3.d,
        fig1_d=SETTINGS.sensitivity.fig1.d,
    script:
        "../../scripts/sensitivity_plot.py"


FINAL_TARGETS.extend([*rules.sensitivity_plot.output, *rules.sensitivity_table.output])
