"""The report's captions as the config makes them: each renders, and Fig. 1's says only what ran."""

import copy
from pathlib import Path
from types import SimpleNamespace

import jinja2
import pytest
import yaml
from snakemake.utils import update_config

REPO = Path(__file__).resolve().parents[2]
CONFIG = yaml.safe_load((REPO / "config" / "config.yaml").read_text())


def caption(name: str, config: dict) -> str:
    """workflow/report/NAME rendered as Snakemake's report renders it (`snakemake.config`)."""
    text = (REPO / "workflow" / "report" / name).read_text()
    return jinja2.Template(text).render(snakemake=SimpleNamespace(config=config))


@pytest.mark.parametrize("name", sorted(p.name for p in (REPO / "workflow/report").glob("*.rst")))
def test_every_caption_renders_from_the_config(name):
    assert caption(name, CONFIG).strip()


def test_fig1s_caption_names_the_methods_that_ran_and_no_local_bo_panels_without_it():
    text = " ".join(caption("fig1.rst", CONFIG).split())
    assert "Top: true value at the point local BO returns" in text
    assert "Then one panel per other method of `fig1.methods` (gp_ucb," in text
    config = copy.deepcopy(CONFIG)
    update_config(config, {"fig1": {"methods": {"local_bo": None, "gp_ucb": None}}})
    text = " ".join(caption("fig1.rst", config).split())
    assert "local BO" not in text and "Then" not in text and "gp_ucb" not in text
    assert "One panel per method of `fig1.methods` (turbo, mpd, random_search," in text


@pytest.mark.parametrize(("kernel", "named"), [("matern52", "Lemma 4"), ("rbf", "Lemma 3")])
def test_fig2s_caption_names_the_kernel_and_lemma_it_draws(kernel, named):
    config = copy.deepcopy(CONFIG)
    update_config(config, {"fig2": {"kernel": kernel}})
    text = " ".join(caption("fig2.rst", config).split())
    other = {"Lemma 4": "Lemma 3", "Lemma 3": "Lemma 4"}[named]
    assert named in text and other not in text and "(dashed), one colour per noise level" in text
