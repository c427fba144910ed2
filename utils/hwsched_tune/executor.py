"""Where candidates compile and run: local threads, or a Dask cluster.

Compilation (the transform script and the lowering, seconds per candidate)
runs in parallel: on local threads (each drives a subprocess) or as tasks on
the workers of a Dask distributed scheduler (`--scheduler ADDRESS`).
Measurements disturb each other when they share a machine, so the tuner
runs them one at a time unless told otherwise (`--parallel-measurements N`);
on a cluster a measurement needs the worker resource "hwsched_measure"
when workers declare it (`dask-worker --resources hwsched_measure=1` makes
each such worker run one measurement at a time).

Workers run the functions of hwsched_tune.tasks: the package must be
importable there (PYTHONPATH including the directory that holds
hwsched_tune, e.g. <prefix>/share/hwsched/python), and the paths a job
names (the script library, the tools) must exist on the worker.
"""

import concurrent.futures
import os


class LocalExecutor:
    def __init__(self, jobs=None):
        self.jobs = jobs or max(1, os.cpu_count() or 1)
        self.pool = concurrent.futures.ThreadPoolExecutor(max_workers=self.jobs)
        self.description = f"local ({self.jobs} compile thread{'s' if self.jobs != 1 else ''})"

    def compile(self, fn, jobs):
        """Futures of fn(job) for every job (in parallel)."""
        return [self.pool.submit(fn, job) for job in jobs]

    def wait(self, futures):
        return [f.result() for f in futures]

    def measure(self, fn, jobs, parallel=1):
        """fn(job) for every job, at most `parallel` at a time, in order."""
        if parallel <= 1:
            return [fn(job) for job in jobs]
        with concurrent.futures.ThreadPoolExecutor(max_workers=parallel) as pool:
            return list(pool.map(fn, jobs))

    def close(self):
        self.pool.shutdown(wait=False)


class DaskExecutor:
    def __init__(self, address):
        try:
            from distributed import Client
        except ImportError as e:
            raise RuntimeError("--scheduler needs Dask distributed (Debian: "
                               "apt-get install python3-distributed)") from e
        # An address (tcp://host:port) or a scheduler file
        # (dask-scheduler --scheduler-file).
        if os.path.isfile(address):
            self.client = Client(scheduler_file=address, timeout=30)
        else:
            self.client = Client(address, timeout=30)
        info = self.client.scheduler_info()
        workers = info.get("workers", {})
        self.measure_resource = any(
            "hwsched_measure" in (w.get("resources") or {}) for w in workers.values())
        self.description = (f"Dask scheduler {address} ({len(workers)} worker"
                            f"{'s' if len(workers) != 1 else ''}"
                            f"{', measurement resource hwsched_measure' if self.measure_resource else ''})")

    def compile(self, fn, jobs):
        # pure=False: a job's files differ between runs even when its data
        # does not.
        return [self.client.submit(fn, job, pure=False) for job in jobs]

    def wait(self, futures):
        return self.client.gather(futures)

    def measure(self, fn, jobs, parallel=1):
        resources = {"hwsched_measure": 1} if self.measure_resource else None
        results = []
        for start in range(0, len(jobs), max(parallel, 1)):
            chunk = jobs[start:start + max(parallel, 1)]
            futures = [self.client.submit(fn, job, pure=False, resources=resources)
                       for job in chunk]
            results += self.client.gather(futures)
        return results

    def close(self):
        self.client.close()


def make(scheduler=None, jobs=None):
    if scheduler:
        return DaskExecutor(scheduler)
    return LocalExecutor(jobs)
