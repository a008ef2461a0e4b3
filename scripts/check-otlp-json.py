#!/usr/bin/env python3
"""Parses an OTLP/JSON trace file (one ExportTraceServiceRequest per line) with the official
opentelemetry-proto classes and checks what the protobuf JSON mapping alone cannot: id
lengths, time order, and an exception event on every ERROR span.

OTLP/JSON encodes trace and span ids as hex where the protobuf JSON mapping expects base64,
so ids are converted before parsing (as OTLP receivers do). Unknown fields are errors.

Usage: scripts/check-otlp-json.py FILE   prints "spans S errors E", exits 1 on any problem.
Needs: pip install opentelemetry-proto
"""
import base64
import json
import sys

from google.protobuf import json_format
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

ID_FIELDS = ("traceId", "spanId", "parentSpanId")


def hex_ids_to_base64(node):
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ID_FIELDS and isinstance(value, str):
                node[key] = base64.b64encode(bytes.fromhex(value)).decode()
            else:
                hex_ids_to_base64(value)
    elif isinstance(node, list):
        for value in node:
            hex_ids_to_base64(value)


def main(path):
    spans = errors = 0
    with open(path, encoding="utf-8") as lines:
        for number, line in enumerate(lines, 1):
            document = json.loads(line)
            hex_ids_to_base64(document)
            request = json_format.Parse(json.dumps(document), ExportTraceServiceRequest())
            for resource_spans in request.resource_spans:
                names = {a.key for a in resource_spans.resource.attributes}
                assert "service.name" in names, f"line {number}: resource without service.name"
                for scope_spans in resource_spans.scope_spans:
                    for span in scope_spans.spans:
                        assert len(span.trace_id) == 16 and any(span.trace_id), f"line {number}: trace id"
                        assert len(span.span_id) == 8 and any(span.span_id), f"line {number}: span id"
                        assert len(span.parent_span_id) in (0, 8), f"line {number}: parent span id"
                        assert 0 < span.start_time_unix_nano <= span.end_time_unix_nano, f"line {number}: times"
                        spans += 1
                        if span.status.code == 2:
                            assert [e.name for e in span.events] == ["exception"], f"line {number}: events"
                            errors += 1
    print(f"spans {spans} errors {errors}")


if __name__ == "__main__":
    try:
        main(sys.argv[1])
    except (AssertionError, json_format.ParseError, ValueError) as problem:
        print(f"invalid OTLP/JSON: {problem}", file=sys.stderr)
        sys.exit(1)
