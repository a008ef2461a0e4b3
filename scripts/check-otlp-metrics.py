#!/usr/bin/env python3
"""Parses an OTLP/JSON metrics file (one ExportMetricsServiceRequest per line) with the
official opentelemetry-proto classes (unknown fields are errors) and checks what the protobuf
JSON mapping alone cannot: each exponential histogram point's buckets and zero count add up to
its count, its min is at most its max, and its time range is in order.

Usage: scripts/check-otlp-metrics.py FILE   prints "histograms H counters C outcomes N",
exits 1 on any problem.
Needs: pip install opentelemetry-proto
"""
import sys

from google.protobuf import json_format
from opentelemetry.proto.collector.metrics.v1.metrics_service_pb2 import (
    ExportMetricsServiceRequest,
)

histograms = counters = outcomes = 0
problems = []
with open(sys.argv[1]) as lines:
    for number, line in enumerate(lines, 1):
        request = ExportMetricsServiceRequest()
        json_format.Parse(line, request, ignore_unknown_fields=False)
        for resource in request.resource_metrics:
            for scope in resource.scope_metrics:
                for metric in scope.metrics:
                    if metric.HasField("exponential_histogram"):
                        for point in metric.exponential_histogram.data_points:
                            histograms += 1
                            total = point.zero_count + sum(point.positive.bucket_counts)
                            if total != point.count:
                                problems.append(f"line {number}: buckets {total} != count {point.count}")
                            if point.min > point.max:
                                problems.append(f"line {number}: min above max")
                            if point.start_time_unix_nano > point.time_unix_nano:
                                problems.append(f"line {number}: time range out of order")
                    elif metric.HasField("sum"):
                        for point in metric.sum.data_points:
                            counters += 1
                            outcomes += point.as_int
if problems:
    print("\n".join(problems[:20]))
    sys.exit(1)
print(f"histograms {histograms} counters {counters} outcomes {outcomes}")
