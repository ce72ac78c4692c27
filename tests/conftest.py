"""Shared fixtures: the kernels every kernel-generic test runs on, one BLAS thread, and a small
Fig. 1 job; and the groups pytest-xdist's `--dist loadgroup` keeps on one worker."""

import pytest
from threadpoolctl import threadpool_limits

from localbo.kernels import RBF, Matern52
from localbo.sample_paths import FourierSamplePath
from localbo.seeding import rng_for

KERNELS = [RBF(), RBF(lengthscale=0.7, outputscale=1.9), Matern52(), Matern52(1.3, 0.6)]


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The SLURM tests go to one worker, first: with `--dist loadgroup` they share the test
    cluster's node one after the other from the suite's start (the tiny config's run is its
    longest test, mostly waiting on the cluster), and the rest of the suite runs beside them.
    First of the hooks: pytest-xdist's reads the groups off the markers in its own, and a marker
    added after it groups nothing."""
    for item in items:
        if item.get_closest_marker("slurm"):
            item.add_marker(pytest.mark.xdist_group("slurm"))
    items.sort(key=lambda item: item.get_closest_marker("slurm") is None)  # stable


@pytest.fixture(scope="session", autouse=True)
def one_blas_thread():
    """The tests' matrices are small: threaded BLAS only oversubscribes the CI's two cores (and
    the Snakemake jobs the workflow tests start run beside the test process)."""
    with threadpool_limits(limits=1):
        yield


@pytest.fixture(params=KERNELS, ids=lambda k: f"{k.name}-l{k.lengthscale}-s{k.outputscale}")
def kernel(request):
    return request.param


@pytest.fixture
def job(tmp_path):
    """(params, path files) of a Fig. 1 job on three d = 2 paths, budget 40, with the method's
    default settings (`fig1_job.run_chunk` names the method)."""
    files = []
    for i in range(3):
        file = tmp_path / f"path{i}.npz"
        FourierSamplePath.draw(RBF(), 2, 64, rng_for(0, "finished-runs", i)).save(file)
        files.append(str(file))
    params = {
        "seed": 0,
        "kernel": "rbf",
        "lengthscale": 1.0,
        "outputscale": 1.0,
        "num_features": 64,
        "budget": 40,
        "box": {"lower": -5.0, "upper": 5.0},
        "paths": [0, 1, 2],
        "module": None,
        "method_settings": {},
    }
    return params, files
