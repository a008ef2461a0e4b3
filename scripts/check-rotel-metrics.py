#!/usr/bin/env python3
"""Checks that Rotel, a real third-party OTLP collector, received the metrics of an OTLP/JSON
metrics file: what `sleeve export --format otlp-metrics-json` wrote for the sessions that
Sleeve pushed to scripts/rotel-receiver.

Usage: scripts/check-rotel-metrics.py LOG METRICS_FILE
  LOG           the receiver's log (Rotel's detailed debug log of metrics)
  METRICS_FILE  one ExportMetricsServiceRequest per line

Prints `rotel received N metrics (H histograms, S sums with P points) in R resources: all
match` and exits 0 when every metric of the file arrived exactly once (matched by its
resource's attributes, its scope and its name) and nothing else arrived; otherwise lists the
first 20 differences and exits 1. Exit 64 usage, 65 a file line that is not an OTLP/JSON
metrics request, 66 a file that cannot be read.

Compared, as Rotel renders them: each metric's name, description, unit and data type; for a
sum, whether it is monotonic, its temporality and its points (count, order, attributes, start
and end times, and the value wherever Rotel prints one); resource attributes and scope.
What this check cannot see, because Rotel 0.0.1a15's OTLP/JSON decoder drops it (the request
is still accepted with 200):
- An exponential histogram's data: Rotel shows the metric with `DataType: Empty` and no points.
  It is checked by name, description and unit (and, should Rotel decode it as
  `ExponentialHistogram`, by its number of points).
- A point's value written as a JSON string (`"asInt":"152"`, OTLP/JSON's form for 64-bit
  integers, which Sleeve writes): Rotel prints no `Value:` line. A value Rotel does print must
  equal the file's.
Values holding newlines are compared whole, as in scripts/check-rotel-spans.py (whose
rendering, masking and log-line rules this script shares); traces blocks are skipped.
"""
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections import defaultdict


def _spans_checker():
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "check-rotel-spans.py")
    sys.dont_write_bytecode = True  # no __pycache__ left in scripts/
    loader = importlib.machinery.SourceFileLoader("check_rotel_spans", path)
    module = importlib.util.module_from_spec(importlib.util.spec_from_loader(loader.name, loader))
    loader.exec_module(module)
    return module


spans = _spans_checker()
Failure, Masks, shown = spans.Failure, spans.Masks, spans.shown
ATTRIBUTE = spans.ATTRIBUTE
DATA_TYPES = {"gauge": "Gauge", "sum": "Sum", "histogram": "Histogram",
              "exponentialHistogram": "ExponentialHistogram", "summary": "Summary"}
POINT_HEADERS = ("NumberDataPoints", "HistogramDataPoints", "ExponentialHistogramDataPoints",
                 "SummaryDataPoints")
TEMPORALITIES = ["AGGREGATION_TEMPORALITY_UNSPECIFIED", "AGGREGATION_TEMPORALITY_DELTA",
                 "AGGREGATION_TEMPORALITY_CUMULATIVE"]


def expected_metrics(path, masks):
    metrics = []

    def add(request):
        for resource_metrics in request["resourceMetrics"]:
            resource = spans.expected_attributes(
                (resource_metrics.get("resource") or {}).get("attributes"), ATTRIBUTE, masks)
            for scope_metrics in resource_metrics.get("scopeMetrics", []):
                scope_line = spans.scope_line(scope_metrics.get("scope"), masks)
                for metric in scope_metrics.get("metrics", []):
                    metrics.append(expected_metric(metric, resource, scope_line, masks))

    spans.each_request(path, "metrics", add)
    return metrics


def expected_metric(metric, resource, scope_line, masks):
    kinds = [key for key in DATA_TYPES if key in metric]
    data = metric[kinds[0]] if kinds else {}
    record = {
        "resource": resource, "scope": scope_line,
        "name": masks.field(ATTRIBUTE + "Name: ", metric.get("name", "")),
        "description": masks.field(ATTRIBUTE + "Description: ", metric.get("description", "")),
        "unit": masks.field(ATTRIBUTE + "Unit: ", metric.get("unit", "")),
        "type": DATA_TYPES[kinds[0]] if kinds else "Empty",
        "monotonic": None, "temporality": None, "points": [],
    }
    if record["type"] == "Sum":
        record["monotonic"] = "true" if data.get("isMonotonic") else "false"
    if record["type"] in ("Sum", "Histogram", "ExponentialHistogram"):
        temporality = int(data.get("aggregationTemporality", 0))
        record["temporality"] = (TEMPORALITIES[temporality] if 0 <= temporality < 3
                                 else f"Unknown_Temporality({temporality})")
    for point in data.get("dataPoints", []):
        value = None
        for key in ("asInt", "asDouble"):
            if key in point and not isinstance(point[key], str):  # a string: Rotel drops it
                value = (str(int(point[key])) if key == "asInt"
                         else spans.rust_float(float(point[key])))
        record["points"].append({
            "attributes": spans.expected_attributes(point.get("attributes"), ATTRIBUTE, masks),
            "start": str(int(point.get("startTimeUnixNano", 0))),
            "time": str(int(point.get("timeUnixNano", 0))), "value": value,
        })
    return record


class MetricsLogParser:
    """Reads the metrics blocks of Rotel's detailed debug log; everything else is skipped."""

    def __init__(self):
        self.metrics = []
        self.stray = []
        self.in_metrics = False
        self.resource = self.scope = self.metric = self.point = None
        self.section = self.target = None
        self.blank_lines = 0

    def set(self, container, key, value):
        container[key] = value
        self.target = (container, key)

    def feed(self, number, line):
        if line == "":
            self.blank_lines += 1
            return
        blank_lines, self.blank_lines = self.blank_lines, 0
        if spans.LOG_LINE.match(line):
            self.target = None
            return
        header, _, index = line.partition(" #")
        numbered = index.isdigit()
        if numbered and header in ("ResourceSpans", "ResourceMetrics", "ResourceLogs"):
            self.in_metrics = header == "ResourceMetrics"
            self.resource = {"attributes": []}
            self.scope = self.metric = self.point = None
            self.section, self.target = "resource", None
            return
        if not self.in_metrics:
            return
        if self.structural(numbered and header, line):
            return
        if self.target is None:
            self.stray.append((number, line))
            return
        container, key = self.target
        container[key] += "\n" * (blank_lines + 1) + line

    def structural(self, header, line):
        if header == "ScopeMetrics":
            self.scope = {"line": None}
            self.section, self.target = None, None
        elif header == "Metric":
            self.metric = {"resource": self.resource["attributes"],
                           "scope": self.scope["line"] if self.scope else None,
                           "name": None, "description": None, "unit": None, "type": None,
                           "monotonic": None, "temporality": None, "points": []}
            self.metrics.append(self.metric)
            self.section, self.target = "metric", None
        elif header in POINT_HEADERS and self.metric is not None:
            self.point = {"attributes": [], "start": None, "time": None, "value": None}
            self.metric["points"].append(self.point)
            self.section, self.target = "point", None
        elif line == "Resource attributes:":
            self.section, self.target = "resource", None
        elif line == "Descriptor:":
            self.section, self.target = "metric", None
        elif line == "Data point attributes:":
            self.section, self.target = "point attributes", None
        elif line.startswith(("Resource SchemaURL: ", "ScopeMetrics SchemaURL: ")):
            self.set({}, "url", line)
        elif line.startswith("InstrumentationScope ") and self.scope is not None:
            self.set(self.scope, "line", line[len("InstrumentationScope "):])
        elif line.startswith(ATTRIBUTE):
            return self.attribute_line(line[len(ATTRIBUTE):])
        elif self.point is not None and self.section in ("point", "point attributes"):
            for prefix, key in (("StartTimestamp: ", "start"), ("Timestamp: ", "time"),
                                ("Value: ", "value")):
                if line.startswith(prefix):
                    self.set(self.point, key, line[len(prefix):])
                    return True
            # Other point lines (counts, buckets, exemplars) are Rotel's but not compared.
            return line.startswith(("Count: ", "Sum: ", "Min: ", "Max: ", "Bucket",
                                    "ExplicitBounds #", "QuantileValue #", "Exemplar"))
        else:
            return False
        return True

    def attribute_line(self, rest):
        if self.section == "resource" and self.resource is not None:
            self.resource["attributes"].append(rest)
            self.target = (self.resource["attributes"], len(self.resource["attributes"]) - 1)
            return True
        if self.section == "point attributes" and self.point is not None:
            self.point["attributes"].append(rest)
            self.target = (self.point["attributes"], len(self.point["attributes"]) - 1)
            return True
        if self.section == "metric" and self.metric is not None:
            for prefix, key in (("Name: ", "name"), ("Description: ", "description"),
                                ("Unit: ", "unit"), ("DataType: ", "type"),
                                ("IsMonotonic: ", "monotonic"),
                                ("AggregationTemporality: ", "temporality")):
                if rest.startswith(prefix):
                    self.set(self.metric, key, rest[len(prefix):])
                    return True
        return self.section == "point" and rest.startswith(("Trace ID", "Span ID", "Value",
                                                            "Timestamp"))  # an exemplar's


def received_metrics(path, masks):
    parser = MetricsLogParser()
    for number, line in spans.log_lines(path, masks):
        parser.feed(number, line)
    marker = spans.END_MARKER_KEY + ": "
    metrics = [metric for metric in parser.metrics
               if not any(line.startswith(marker) for line in metric["resource"])]
    return metrics, parser.stray


def metric_differences(want, got, masks):
    differences = []
    for field in ("description", "unit", "monotonic", "temporality"):
        if want[field] != got[field] and not (
                field == "temporality" and got["type"] == "Empty"
                and want["type"] == "ExponentialHistogram"):
            differences.append(f"{field}: file {shown(masks.undo(str(want[field])))}, "
                               f"Rotel logged {shown(masks.undo(str(got[field])))}")
    if want["type"] == "ExponentialHistogram" and got["type"] == "Empty":
        if got["points"]:
            differences.append(f"Rotel logged {len(got['points'])} points of an Empty metric")
        return differences  # what this Rotel shows of an exponential histogram: its name
    if want["type"] != got["type"]:
        differences.append(f"data type: file {want['type']}, Rotel logged {got['type']}")
    if len(want["points"]) != len(got["points"]):
        differences.append(f"points: file {len(want['points'])}, "
                           f"Rotel logged {len(got['points'])}")
    if want["type"] == "ExponentialHistogram":
        return differences  # its buckets are not read
    for index, (wanted, logged) in enumerate(zip(want["points"], got["points"])):
        difference = spans.list_difference(f"point {index} attributes", wanted["attributes"],
                                           logged["attributes"], masks)
        if difference:
            differences.append(difference)
        for field in ("start", "time"):
            if wanted[field] != logged[field]:
                differences.append(f"point {index} {field}: file {wanted[field]}, "
                                   f"Rotel logged {logged[field]}")
        if logged["value"] is not None and wanted["value"] != logged["value"]:
            differences.append(f"point {index} value: file {wanted['value']}, "
                               f"Rotel logged {shown(logged['value'])}")
    return differences


def compare(expected, received, masks):
    by_key = defaultdict(lambda: ([], []))
    for side, metrics in ((0, expected), (1, received)):
        for metric in metrics:
            key = (tuple(metric["resource"]), metric["scope"], metric["name"])
            by_key[key][side].append(metric)
    differences = []
    for (resource, _, name), (wanted, got) in by_key.items():
        session = next((line for line in resource if line.startswith("sleeve.session.id: ")),
                       "no sleeve.session.id")
        where = f"metric '{shown(masks.undo(name or ''))}' ({shown(masks.undo(session))})"
        if len(wanted) != len(got):
            differences.append(f"{where}: {len(wanted)} in the file, Rotel logged {len(got)}"
                               if wanted else f"{where}: Rotel logged it, not in the file")
        for want, have in zip(wanted, got):
            differences += [f"{where}: {text}" for text in metric_differences(want, have, masks)]
    return differences


def main(arguments):
    if len(arguments) != 2:
        raise Failure(64, "usage: scripts/check-rotel-metrics.py LOG METRICS_FILE")
    masks = Masks()
    expected = expected_metrics(arguments[1], masks)
    received, stray = received_metrics(arguments[0], masks)
    differences = [f"log line {number}: not Rotel's debug format: {shown(line)}"
                   for number, line in stray]
    differences += compare(expected, received, masks)
    if differences:
        for difference in differences[:spans.SHOWN_DIFFERENCES]:
            print(difference)
        print(f"rotel received {len(received)} metrics, the file holds {len(expected)}: "
              f"{len(differences)} difference{'s' if len(differences) > 1 else ''}")
        return 1
    histograms = sum(1 for metric in expected if metric["type"] == "ExponentialHistogram")
    sums = [metric for metric in received if metric["type"] == "Sum"]
    points = sum(len(metric["points"]) for metric in sums)
    resources = len({tuple(metric["resource"]) for metric in received})
    print(f"rotel received {len(received)} metrics ({histograms} histograms, {len(sums)} sums "
          f"with {points} points) in {resources} resources: all match")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except Failure as failure:
        print(f"check-rotel-metrics: {failure}", file=sys.stderr)
        sys.exit(failure.code)
