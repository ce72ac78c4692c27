# What every rules file shares: the validated config as typed settings, and the list of final
# targets that each rules file extends with its own (rule all asks for all of them).
from snakemake.utils import validate

from localbo.pipeline.resources import per_attempt
from localbo.pipeline.settings import load_settings

validate(config, "../../config/schemas/config.schema.yaml")
SETTINGS = load_settings(config)
# Each rules file appends its figures and tables: `rule all` needs no hand-kept list.
FINAL_TARGETS = []


wildcard_constraints:
    d=r"\d+",
    b=r"\d+",
    i=r"\d+",
    chunk=r"\d+",
    sigma=r"\d+(\.\d+)?(e-?\d+)?",
