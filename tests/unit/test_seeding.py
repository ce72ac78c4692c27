"""Random streams named by a run's coordinates."""

import numpy as np
import pytest

from localbo.seeding import rng_for


def test_a_stream_is_its_coordinates_on_every_machine():
    """Pinned first draws: a change of how coordinates become entropy changes every number of
    every run, and must be deliberate."""
    assert rng_for(0, "fig1", 10, 0.05, "gibo", 3).standard_normal() == 0.1473579980145964
    assert rng_for(7, "path", 50, 49).standard_normal() == 0.7042719789025134
    assert rng_for(0, "fig1", 10, 0.05).random() != rng_for(0, "fig1", 10, 0.5).random()


def test_a_numpy_scalar_names_the_stream_its_python_value_names():
    python = rng_for(0, "fig1", 10, 0.05, "gibo").random()
    assert rng_for(0, "fig1", np.int64(10), np.float64(0.05), np.str_("gibo")).random() == python


def test_booleans_are_refused():
    with pytest.raises(TypeError, match="booleans"):
        rng_for(0, True)
