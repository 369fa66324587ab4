#!/usr/bin/env python3
"""Checks a JUnit XML report of `bismuth run` with a real XML parser (xml.etree): well-formed, one <testsuites>
with <testsuite> children whose tests/failures/errors/skipped attributes match their <testcase> elements, every
testcase named with a numeric time. Prints "tests=N failures=F errors=E skipped=S" and exits 0, else 1."""
import sys
import xml.etree.ElementTree as ET


def main(path):
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as e:
        print(f"{path}: not well-formed XML: {e}")
        return 1
    if root.tag != "testsuites":
        print(f"{path}: root element is <{root.tag}>, expected <testsuites>")
        return 1
    totals = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    for suite in root.findall("testsuite"):
        cases = suite.findall("testcase")
        counted = {
            "tests": len(cases),
            "failures": sum(1 for c in cases if c.find("failure") is not None),
            "errors": sum(1 for c in cases if c.find("error") is not None),
            "skipped": sum(1 for c in cases if c.find("skipped") is not None),
        }
        for key, value in counted.items():
            if int(suite.get(key, "-1")) != value:
                print(f"{path}: testsuite {key}={suite.get(key)} but {value} testcases say so")
                return 1
            totals[key] += value
        for c in cases:
            if not c.get("name") or not c.get("classname"):
                print(f"{path}: a testcase without name or classname")
                return 1
            float(c.get("time"))
    print(" ".join(f"{k}={v}" for k, v in totals.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
