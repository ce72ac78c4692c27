"""A job's BLAS threads: the limit reaches scipy's own OpenBLAS, loaded after the job starts."""

import json
import os
import subprocess
import sys
import textwrap


def test_a_jobs_thread_limit_holds_for_scipys_blas_loaded_inside_it():
    """In a fresh process that has not imported scipy.linalg (as a pipeline script starts), every
    BLAS threadpoolctl sees inside `snakemake_job` of a 1-thread rule runs on 1 thread. Without
    the limit, OpenBLAS takes one thread per core (at least 2 on CI's 2-core machine)."""
    script = textwrap.dedent(
        """
        import json, os, sys, tempfile
        from types import SimpleNamespace
        assert "scipy.linalg" not in sys.modules
        from localbo.pipeline.runtime import snakemake_job
        from threadpoolctl import threadpool_info
        before = {i["filepath"]: i["num_threads"] for i in threadpool_info()}
        log = os.path.join(tempfile.mkdtemp(), "job.log")
        smk = SimpleNamespace(log=[log], rule="test", threads=1)
        with snakemake_job(smk):
            import scipy.linalg
            inside = {i["filepath"]: i["num_threads"] for i in threadpool_info()}
        print(json.dumps([before, inside]))
        """
    )
    env = {k: v for k, v in os.environ.items() if not k.endswith("_NUM_THREADS")}
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         check=True, env=env)  # fmt: skip
    before, inside = json.loads(out.stdout.splitlines()[-1])
    assert len(inside) > len(before), "scipy's BLAS loaded inside the job"
    assert set(inside.values()) == {1}
