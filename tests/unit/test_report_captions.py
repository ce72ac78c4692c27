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
    ran = [name for name, section in CONFIG["fig1"]["methods"].items() if section is not None]
    assert f"the methods of `fig1.methods` ({', '.join(ran)};" in text
    assert "Top: true value at the point local BO returns" in text
    assert "Bottom: every method's runs at sigma = 0, side by side" in text
    config = copy.deepcopy(CONFIG)
    update_config(config, {"fig1": {"methods": {"local_bo": None, "gp_ucb": None}}})
    text = " ".join(caption("fig1.rst", config).split())
    assert "Top:" not in text and "gp_ucb" not in text
    rest = [name for name in ran if name not in ("local_bo", "gp_ucb")]
    assert f"`fig1.methods` ({', '.join(rest)};" in text
    update_config(config, {"fig1": {"layout": "paper"}})
    text = " ".join(caption("fig1.rst", config).split())
    assert "Bottom: one panel per other method, at its first noise level" in text


@pytest.mark.parametrize(("kernel", "named"), [("matern52", "Lemma 4"), ("rbf", "Lemma 3")])
def test_fig2s_caption_names_the_kernel_and_lemma_it_draws(kernel, named):
    config = copy.deepcopy(CONFIG)
    update_config(config, {"fig2": {"kernel": kernel}})
    text = " ".join(caption("fig2.rst", config).split())
    other = {"Lemma 4": "Lemma 3", "Lemma 3": "Lemma 4"}[named]
    assert named in text and other not in text and "(dashed), one colour per noise level" in text
