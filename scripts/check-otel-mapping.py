#!/usr/bin/env python3
"""Checks Sleeve's exponential bucket mapping against the OpenTelemetry Python SDK's.

Input: a file of lines `scale value index` (value a positive integer, index Sleeve's bucket).
Prints `checked N` when every index equals the SDK's LogarithmMapping (scale > 0) or
ExponentMapping (scale <= 0); otherwise prints the mismatches and exits 1.
"""
import sys

from opentelemetry.sdk.metrics._internal.exponential_histogram.mapping.exponent_mapping import (
    ExponentMapping,
)
from opentelemetry.sdk.metrics._internal.exponential_histogram.mapping.logarithm_mapping import (
    LogarithmMapping,
)

mappings = {}
checked = 0
wrong = []
with open(sys.argv[1]) as lines:
    for line in lines:
        scale, value, index = (int(part) for part in line.split())
        if scale not in mappings:
            mappings[scale] = LogarithmMapping(scale) if scale > 0 else ExponentMapping(scale)
        expected = mappings[scale].map_to_index(float(value))
        checked += 1
        if expected != index:
            wrong.append(f"scale {scale} value {value}: sleeve {index}, sdk {expected}")
if wrong:
    print("\n".join(wrong[:20]))
    sys.exit(1)
print(f"checked {checked}")
