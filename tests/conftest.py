"""Shared fixtures: the kernels every kernel-generic test runs on."""

import pytest

from localbo.kernels import RBF, Matern52

KERNELS = [RBF(), RBF(lengthscale=0.7, outputscale=1.9), Matern52(), Matern52(1.3, 0.6)]


@pytest.fixture(params=KERNELS, ids=lambda k: f"{k.name}-l{k.lengthscale}-s{k.outputscale}")
def kernel(request):
    return request.param
