# The local-BO paper pipeline: every figure of "The Behavior and Convergence of Local Bayesian
# Optimization" (NeurIPS 2023) from nothing. See README.md.
from pathlib import Path

from snakemake.utils import min_version

min_version("9.0")


configfile: Path(workflow.basedir) / "config/config.yaml"


# Where this config's outputs go (results/, figures/, logs/, benchmarks/ and Snakemake's own
# .snakemake/): its run directory, relative to where Snakemake starts; --directory overrides it.
workdir: config.get("run_directory") or "."


report: "workflow/report/workflow.rst"


include: "workflow/rules/common.smk"


# Every figure is one rules file: adding workflow/rules/<figure>.smk adds the figure.
for rules_file in sorted(Path(workflow.basedir, "workflow/rules").glob("*.smk")):
    if not included(rules_file.name):

        include: rules_file


rule all:
    default_target: True
    input:
        final_targets(),
