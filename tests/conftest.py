"""Shared fixtures: the kernels every kernel-generic test runs on, and one BLAS thread."""

import pytest
from threadpoolctl import threadpool_limits

from localbo.kernels import RBF, Matern52

KERNELS = [RBF(), RBF(lengthscale=0.7, outputscale=1.9), Matern52(), Matern52(1.3, 0.6)]


@pytest.fixture(scope="session", autouse=True)
def one_blas_thread():
    """The tests' matrices are small: threaded BLAS only oversubscribes the CI's two cores (and
    the Snakemake jobs the workflow tests start run beside the test process)."""
    with threadpool_limits(limits=1):
        yield


@pytest.fixture(params=KERNELS, ids=lambda k: f"{k.name}-l{k.lengthscale}-s{k.outputscale}")
def kernel(request):
    return request.param
