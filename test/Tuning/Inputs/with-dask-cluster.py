"""with-dask-cluster.py UTILS_DIR -- COMMAND...: starts a Dask distributed
cluster on loopback (a scheduler and two single-threaded worker processes,
one declaring the measurement resource), runs COMMAND with its scheduler
address appended as `--scheduler ADDRESS`, then shuts the cluster down and
exits with COMMAND's status. The workers import hwsched_tune from UTILS_DIR."""

import os
import subprocess
import sys

utils = sys.argv[1]
command = sys.argv[sys.argv.index("--") + 1:]
# Worker processes inherit the environment: they import hwsched_tune.
os.environ["PYTHONPATH"] = utils + os.pathsep + os.environ.get("PYTHONPATH", "")
sys.path.insert(0, utils)

from distributed import Scheduler, Worker  # noqa: E402
from distributed.deploy.spec import SpecCluster  # noqa: E402

if __name__ == "__main__":
    workers = {
        "compile": {"cls": Worker, "options": {"nthreads": 1}},
        "measure": {"cls": Worker, "options": {"nthreads": 1,
                                                "resources": {"hwsched_measure": 1}}},
    }
    scheduler = {"cls": Scheduler,
                 "options": {"host": "127.0.0.1", "dashboard_address": None}}
    with SpecCluster(workers=workers, scheduler=scheduler, silence_logs=40) as cluster:
        address = cluster.scheduler_address
        print(f"dask cluster: {address}, {len(cluster.workers)} workers", file=sys.stderr)
        status = subprocess.run(command + ["--scheduler", address]).returncode
    sys.exit(status)
