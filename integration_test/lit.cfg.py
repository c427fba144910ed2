# -*- Python -*-
"""lit configuration for the hwsched integration tests.

What runs programs rather than reading IR: CPU execution before and after a
transform (utils/exec-check.py, mlir-runner), ptxas ground truth, the Python
harnesses (random differential tests, the robustness corpus, bench checks),
fuzz replays, the examples and the install test. The fast FileCheck tests
are in test/; both suites share test/lit.cfg.py (tools, substitutions,
features, sanitizer setup). Inputs shared with a fast test stay beside it
and are named through %test_src (the source test/ folder).
"""

import os

lit_config.load_config(
    config, os.path.join(config.hwsched_src_root, "test", "lit.cfg.py"))
config.name = "HWSCHED-INTEGRATION"
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.hwsched_obj_root,
                                     "integration_test")
config.substitutions.append(
    ("%test_src", os.path.join(config.hwsched_src_root, "test")))

# MiniMalloc's published allocation problems (../shared/bench-data/minimalloc
# beside the checkout, on every developer and CI machine; never committed):
# the tests that pack them are skipped where the data is absent.
minimalloc_data = os.path.join(config.hwsched_src_root, "..", "shared",
                               "bench-data", "minimalloc")
if os.path.exists(os.path.join(minimalloc_data, "I.1048576.csv")):
    config.available_features.add("minimalloc-data")
    config.substitutions.append(("%minimalloc_data", minimalloc_data))
