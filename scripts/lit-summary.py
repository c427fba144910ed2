#!/usr/bin/env python3
"""Counts a lit run's results from its --xunit-xml-output file.

Usage: lit-summary.py RESULTS.xml [--by-suite]
Prints "PASSED FAILED SKIPPED" (three integers on one line). With
--by-suite, prints instead one line per lit suite of the run,
"SUITE: N passed, N failed, N skipped" (test/ is HWSCHED, integration_test/
HWSCHED-INTEGRATION). A missing or unreadable file counts as one failure
("0 1 0"), with the reason on stderr, so a lit run that died before writing
results never reads as green.
"""
import sys
import xml.etree.ElementTree as ET


def counts(cases):
    passed = failed = skipped = 0
    for case in cases:
        if case.find("failure") is not None or case.find("error") is not None:
            failed += 1
        elif case.find("skipped") is not None:
            skipped += 1
        else:
            passed += 1
    return passed, failed, skipped


by_suite = "--by-suite" in sys.argv[2:]
try:
    root = ET.parse(sys.argv[1]).getroot()
except Exception as e:  # noqa: BLE001 - any unreadable file is a failure
    print(f"lit-summary: no lit results: {e}", file=sys.stderr)
    print("lit: 0 passed, 1 failed, 0 skipped" if by_suite else "0 1 0")
    sys.exit(0)
if by_suite:
    for suite in root.iter("testsuite"):
        p, f, s = counts(suite.iter("testcase"))
        print(f"{suite.get('name')}: {p} passed, {f} failed, {s} skipped")
else:
    print(*counts(root.iter("testcase")))
