# What every rules file shares: the validated config as typed settings, and the list of final
# targets that each rules file extends with its own (rule all asks for all of them).
from localbo.pipeline.files import gallery_name
from localbo.pipeline.resources import scheduled
from localbo.pipeline.sections import as_config
from localbo.pipeline.settings import load_settings

# every problem of the config at once, one line each (schema and semantic checks)
SETTINGS = load_settings(
    config, Path(workflow.basedir) / "config/schemas/config.schema.yaml"
)
# each compute rule's cost model: its resources (`scheduled`) and the forecast (plan.py)
COSTS = SETTINGS.job_costs()


def included(name):
    """Whether workflow/rules/<name> is in already (a rules file that uses another's rules
    includes that file first, so the Snakefile's order of inclusion does not matter)."""
    rules = Path(workflow.basedir, "workflow", "rules", name)
    return any(Path(str(source)) == rules for source in workflow.included)


def tables(outputs):
    """A plot rule's table inputs: a table rule's outputs (one path, a list, or named ones), or with
    `redraw_from` their copies in that gallery (made by no rule, so only plot rules run).
    """
    if SETTINGS.redraw_from is None:
        return outputs
    gallery = Path(workflow.basedir, SETTINGS.redraw_from)
    if isinstance(outputs, str):
        return str(gallery / gallery_name(outputs))
    # a rule's named outputs (a Namedlist, which is also a list) go by name
    names = list(outputs.keys()) if hasattr(outputs, "keys") else []
    if names:
        return {name: str(gallery / gallery_name(outputs[name])) for name in names}
    return [str(gallery / gallery_name(path)) for path in outputs]


def final_targets():
    """The targets of the default rule, all: every figure and table, or with `redraw_from`
    the figures and the tables made from other tables (`DERIVED_TARGETS`)."""
    if SETTINGS.redraw_from is None:
        return FINAL_TARGETS
    return [
        t for t in FINAL_TARGETS if t.startswith("figures/") or t in DERIVED_TARGETS
    ]


# Each rules file appends its figures and tables: `rule all` needs no hand-kept list. Tables made
# from other figures' tables alone (their inputs through `tables`) are also DERIVED_TARGETS: a
# redraw makes them from the gallery's tables.
FINAL_TARGETS = []
DERIVED_TARGETS = []


wildcard_constraints:
    d=r"\d+",
    b=r"\d+",
    i=r"\d+",
    chunk=r"\d+",
    path=r"\d+",
    sigma=r"\d+(\.\d+)?(e-?\d+)?",
