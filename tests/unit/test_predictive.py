"""Predictive p-values: small cases worked out by hand, and each rule's false-disagreement rate
measured by simulation: our draws and the paper's number from one distribution (a normal, two
modes of unequal weight and spread, a near point mass printed to one decimal), the rate at
which the rule calls them inconsistent within 2 points of the level it states."""

import numpy as np
import pytest

from localbo.pipeline.paper_comparison import PaperComparisonSettings
from localbo.predictive import (
    density_p_value,
    half_unit,
    likelihood_bandwidth,
    median_agreement,
    median_cdf,
    median_p_value,
    rank_agreement,
    rank_p_value,
)
from localbo.seeding import rng_for

ALPHA = PaperComparisonSettings().false_disagreement
REPLICATES = 2000
TOLERANCE = 0.02  # the stated level within 2 points (the simulation's s.e. is 0.7 points)
PRINTED = 0.05  # half a unit of one decimal: the near point mass's rounding


def normal(rng, shape, _centre):
    return rng.normal(size=shape)


def two_modes(rng, shape, _centre):
    """60 % of draws in a narrow mode at 0, 40 % in a wide one at 3 (a draw's components
    share its mode)."""
    wide = rng.uniform(size=shape[:1]) < 0.4
    wide = wide.reshape((-1,) + (1,) * (len(shape) - 1))
    return np.where(wide, 3.0 + rng.normal(size=shape), 0.05 * rng.normal(size=shape))


def near_point(rng, shape, centre):
    """A procedure that is deterministic up to 1e-6 (its value anywhere on the printed grid)."""
    return centre + 1e-6 * rng.normal(size=shape)


DISTRIBUTIONS = {"normal": normal, "two modes": two_modes, "near point": near_point}


def printed(value, rounding):
    """The paper's number as printed: rounded to the grid of half-unit `rounding`."""
    return np.round(value / (2 * rounding)) * (2 * rounding) if rounding else value


def false_disagreement(rule, distribution, seed):
    """The share of replicates in which `rule(rng, draw, rounding)` -> p is at most ALPHA."""
    rng = rng_for(seed, "false disagreement", rule.__name__, distribution)
    rounding = PRINTED if distribution == "near point" else 0.0
    called = 0
    for _ in range(REPLICATES):
        centre = rng.uniform()

        def draw(shape, centre=centre):
            return DISTRIBUTIONS[distribution](rng, shape, centre)

        called += rule(rng, draw, rounding) <= ALPHA
    return called / REPLICATES


def paths(rng, draw, rounding):
    """One more path against 19 of ours (Fig. 3's)."""
    return rank_p_value(draw((19,)), printed(draw((1,))[0], rounding), rounding, rng)


def medians(rng, draw, rounding):
    """The median of 50 more paths against 50 of ours (Fig. 1's)."""
    value = printed(np.median(draw((50,))), rounding)
    return median_p_value(draw((50,)), value, 50, rounding)


def draws(rng, draw, rounding):
    """One more draw of a two-component estimate against 19 of ours (the pipeline has 200: p
    takes steps of 1 / (n + 1), and with 20 the level 0.1 is one of them, as with 200 nearly)."""
    value = printed(draw((1, 2))[0], rounding)
    return density_p_value(draw((19, 2)), value, np.array([rounding, rounding]), rng)


@pytest.mark.parametrize("distribution", DISTRIBUTIONS)
@pytest.mark.parametrize("rule", [paths, medians, draws], ids=lambda r: r.__name__)
def test_each_rule_calls_a_number_drawn_as_ours_inconsistent_at_its_stated_rate(rule, distribution):
    rate = false_disagreement(rule, distribution, 20231210)
    assert rate == pytest.approx(ALPHA, abs=TOLERANCE), (rule.__name__, distribution, rate)


def test_half_a_unit_of_the_last_printed_digit():
    assert half_unit("0.039") == pytest.approx(5e-4)
    assert half_unit("1.5") == pytest.approx(0.05)
    assert half_unit("-19.33") == pytest.approx(0.005)
    assert half_unit("2.06e-5") == pytest.approx(5e-8)


def test_ranks_below_all_19_paths_or_among_them():
    rng = rng_for(1)
    ours = np.arange(19.0)
    assert rank_p_value(ours, -0.5, 0.0, rng) == pytest.approx(0.1)  # below all: 2 / 20
    assert rank_p_value(ours, 18.5, 0.0, rng) == pytest.approx(0.1)
    assert rank_p_value(ours, 0.5, 0.0, rng) == pytest.approx(0.2)  # one below: 2 * 2 / 20
    assert rank_p_value(ours, 9.0, 0.0, rng) == 1.0  # a tie counts on neither side
    assert rank_agreement(ours, ALPHA) == (0.0, 18.0)
    # 39 paths: one may lie outside on each side at 0.1
    assert rank_agreement(np.arange(39.0), ALPHA) == (1.0, 37.0)
    assert rank_agreement(np.arange(11.0), ALPHA) == (-np.inf, np.inf)  # 2 / 12 > 0.1


def test_the_median_of_one_draw_is_a_draw_and_its_law_spreads_over_the_gaps():
    """count = 1: K is uniform on 0..n (beta-binomial(n, 1, 1)), so the predictive CDF is
    j / (n + 1) at the j-th smallest of ours (the mass below the smallest sits on it), linear
    between, and 1 from the largest on."""
    ours = np.array([0.0, 1.0, 2.0, 3.0])
    cdf = median_cdf(ours, 1, 0.0)
    assert [cdf(t) for t in (-1.0, 0.0, 1.0, 1.5, 3.0)] == pytest.approx([0, 0.2, 0.4, 0.5, 1])
    assert median_p_value(ours, 1.5, 1, 0.0) == pytest.approx(1.0)
    # the rounding spreads the value: a uniform error of +-0.5 around 1.0 averages 0.3..0.5
    assert median_cdf(ours, 1, 0.5)(1.0) == pytest.approx(0.4, abs=1e-3)


def test_the_median_agreement_interval_is_where_the_p_value_crosses_the_level():
    ours = rng_for(2).normal(size=50)
    low, high = median_agreement(ours, 50, 0.05, ALPHA)
    assert low < np.median(ours) < high
    for end in (low, high):
        assert median_p_value(ours, end, 50, 0.05) == pytest.approx(ALPHA, abs=1e-6)


def test_a_value_between_two_modes_is_atypical_however_central():
    """200 draws in two tight modes at 0 and 1.4 (l1 with n = 5 by our procedure): the middle,
    0.7, lies at the centre of the draws but in none of their modes, so its density is the
    lowest of all and p = 1 / 201; a value in a mode is typical."""
    rng = rng_for(3)
    ours = np.concatenate([1e-4 * rng.normal(size=(100, 1)), 1.4 + 0.1 * rng.normal(size=(100, 1))])
    assert density_p_value(ours, np.array([0.7]), np.array([5e-4]), rng) == pytest.approx(1 / 201)
    assert density_p_value(ours, np.array([1.4]), np.array([5e-4]), rng) > ALPHA
    assert likelihood_bandwidth(np.vstack([ours, [[0.7]]])) < 0.1  # Scott's rule: 0.35


def test_a_deterministic_procedure_is_judged_by_the_printed_precision():
    """Our draws all equal 1.0206 (to 1e-9); a paper value printed to three decimals agrees
    when it is the rounding of ours, not when it is three units off."""
    rng = rng_for(4)
    ours = np.full((200, 1), 1.0206) + 1e-9 * rng.normal(size=(200, 1))
    assert density_p_value(ours, np.array([1.021]), np.array([5e-4]), rng) > ALPHA
    assert density_p_value(ours, np.array([1.018]), np.array([5e-4]), rng) <= ALPHA
