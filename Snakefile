# The local-BO paper pipeline: every figure of "The Behavior and Convergence of Local Bayesian
# Optimization" (NeurIPS 2023) from nothing. See README.md.
from pathlib import Path

from snakemake.utils import min_version

min_version("9.0")


configfile: Path(workflow.basedir) / "config/config.yaml"


report: "workflow/report/workflow.rst"


include: "workflow/rules/common.smk"
include: "workflow/rules/fig2.smk"
include: "workflow/rules/fig1.smk"
include: "workflow/rules/fig3.smk"
include: "workflow/rules/gradient_estimation.smk"


rule all:
    default_target: True
    input:
        all_figures(),
        all_tables(),
