"""The vectorised update reproduces openskill 6.2.0's rate() (fidelity, property 2)."""

import numpy as np
import pytest

from ratings.engine.model import rate_tables
from ratings.engine.params import MODELS, Params
from ratings.engine.ranking import compute_ranking
from ratings.engine.results import Result
from tests.ratings.engine.reference import openskill_model, rate_match_openskill

MONTH = 2026 * 12 + 10


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_rate_tables_matches_openskill_with_ties(model, n):
    params = Params(model=model)
    rng = np.random.default_rng(n)
    m = 150
    mu = rng.normal(25, 6, (m, n))
    sigma = rng.uniform(0.3, params.sigma0, (m, n))
    ranks = rng.integers(0, n, (m, n))  # many ties, ranks in any order
    ranks[:20] = 0  # everybody tied
    new_mu, new_sigma = rate_tables(mu, sigma, ranks, params)
    os_model = openskill_model(params)
    for j in range(m):
        expected = rate_match_openskill(mu[j], sigma[j], ranks[j], params, os_model)
        assert np.allclose(new_mu[j], [x for x, _ in expected], rtol=0, atol=1e-9)
        assert np.allclose(new_sigma[j], [y for _, y in expected], rtol=0, atol=1e-9)


@pytest.mark.parametrize("model", MODELS)
def test_extreme_priors_hit_kappa_like_openskill(model):
    params = Params(model=model)
    mu = np.array([[80.0, -40.0, 25.0], [25.0, 25.0, 25.0]])
    sigma = np.array([[8.3, 0.01, 8.0], [1e-3, 8.3, 8.3]])
    ranks = np.array([[2, 0, 1], [0, 1, 1]])
    new_mu, new_sigma = rate_tables(mu, sigma, ranks, params)
    for j in range(2):
        expected = rate_match_openskill(mu[j], sigma[j], ranks[j], params)
        assert np.allclose(new_mu[j], [x for x, _ in expected], rtol=0, atol=1e-9)
        assert np.allclose(new_sigma[j], [y for _, y in expected], rtol=0, atol=1e-9)


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize(
    "ranks",
    [(0, 1), (1, 0), (0, 0), (0, 1, 2), (2, 0, 0), (0, 1, 2, 3), (3, 1, 1, 0), (1, 1, 1, 1)],
)
def test_property_2_fidelity_one_match_in_an_empty_month(model, ranks):
    """New players, one match, an empty month: mu and sigma are openskill's own."""
    params = Params(model=model)
    players = tuple(f"new{i}" for i in range(len(ranks)))
    listing = compute_ranking([Result("k", MONTH, MONTH, players, ranks)], MONTH, params)
    model_ = openskill_model(params)
    teams = [[model_.rating()] for _ in players]
    rated = model_.rate(teams, ranks=list(ranks))
    by_player = {e.player: e for e in listing.entries}
    for p, team in zip(players, rated, strict=True):
        assert abs(by_player[p].mu - team[0].mu) <= 1e-9
        assert abs(by_player[p].sigma - team[0].sigma) <= 1e-9
