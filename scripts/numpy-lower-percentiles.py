#!/usr/bin/env python3
"""Percentiles by rank, numpy's method='lower', of integer data sets.

Input: a file of lines `name point value value ...`. Prints one line per input line:
`name point result`, the result an integer (method='lower' returns one of the values).
"""
import sys

import numpy

with open(sys.argv[1]) as lines:
    for line in lines:
        name, point, *values = line.split()
        data = numpy.array([int(value) for value in values], dtype=numpy.int64)
        result = numpy.percentile(data, float(point), method="lower")
        print(f"{name} {point} {int(result)}")
