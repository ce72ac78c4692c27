# Fig. 2: the error function E_{d,k,sigma}(b) against the Matern-5/2 bound (paper section 5.1).


rule error_function:
    output:
        summary="results/fig2/estimates/d{d}_b{b}_sigma{sigma}.json",
        arrays="results/fig2/estimates/d{d}_b{b}_sigma{sigma}.npz",
    log:
        "logs/error_function/d{d}_b{b}_sigma{sigma}.log",
    benchmark:
        "benchmarks/error_function/d{d}_b{b}_sigma{sigma}.tsv"
    conda:
        "../../envs/localbo.yaml"
    threads: fig2_threads
    resources:
        mem_mb=fig2_mem_mb,
        runtime=fig2_runtime,
    params:
        settings=fig2_settings,
    script:
        "../../scripts/fig2_error_function.py"


rule fig2_table:
    input:
        fig2_estimates(),
    output:
        "results/fig2/error_function.csv",
    log:
        "logs/fig2_table.log",
    conda:
        "../../envs/localbo.yaml"
    params:
        panels=fig2_panels(FIG2),
    script:
        "../../scripts/fig2_table.py"


rule fig2_plot:
    input:
        "results/fig2/error_function.csv",
    output:
        pdf=report(
            "figures/fig2_error_function.pdf",
            caption="../report/fig2.rst",
            category="Figures",
        ),
        png="figures/fig2_error_function.png",
    log:
        "logs/fig2_plot.log",
    conda:
        "../../envs/localbo.yaml"
    script:
        "../../scripts/fig2_plot.py"
