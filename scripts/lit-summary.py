#!/usr/bin/env python3
"""Counts a lit run's results from its --xunit-xml-output file.

Usage: lit-summary.py RESULTS.xml
Prints "PASSED FAILED SKIPPED" (three integers on one line). A missing or
unreadable file counts as one failure ("0 1 0"), with the reason on stderr,
so a lit run that died before writing results never reads as green.
"""
import sys
import xml.etree.ElementTree as ET

try:
    root = ET.parse(sys.argv[1]).getroot()
except Exception as e:  # noqa: BLE001 - any unreadable file is a failure
    print(f"lit-summary: no lit results: {e}", file=sys.stderr)
    print(0, 1, 0)
    sys.exit(0)
passed = failed = skipped = 0
for case in root.iter("testcase"):
    if case.find("failure") is not None or case.find("error") is not None:
        failed += 1
    elif case.find("skipped") is not None:
        skipped += 1
    else:
        passed += 1
print(passed, failed, skipped)
