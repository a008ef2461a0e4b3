#!/usr/bin/env python3
"""Checks that Rotel, a real third-party OTLP collector, received exactly the spans of an
OTLP/JSON trace file: what `sleeve export --format otlp-json` wrote for the same sessions that
Sleeve pushed to scripts/rotel-receiver.

Usage: scripts/check-rotel-spans.py LOG OTLP_JSON_FILE
  LOG             the receiver's log (Rotel's detailed debug log of traces)
  OTLP_JSON_FILE  one ExportTraceServiceRequest per line

Prints `rotel received N spans in M traces: all match` and exits 0 when every span of the file
arrived exactly once, nothing else arrived, and each arrived span has the file's trace id, span
id, parent id, name, kind, trace state, start and end times, status code and message,
attributes (keys, values and order), events (name, time, dropped count, attributes), number of
links, resource attributes and instrumentation scope. Otherwise lists the first 20
differences and exits 1. Exit 64 usage, 65 a file line that is not an OTLP/JSON trace request,
66 a file that cannot be read.

Values are compared as Rotel renders them (`Str(..)`, `Int(..)`, `Bool(..)`, `Double(..)`,
`Slice(..)`, `Map(k:..)`, `Bytes([..])`, `Empty`), so a value's type counts as well as its text.
The spans may arrive in other requests than the file's lines (a push batches as it likes):
they are matched by trace and span id. The receiver's end markers (resources with the
attribute `rotel_receiver.end_of_log`) are skipped. Metrics and logs blocks in the same log
are skipped.

Rotel's log format and what it cannot tell (Rotel 0.0.1a15):
- Its own log lines (INFO, ERROR) sit between the blocks, with ANSI colour codes: skipped.
- Rotel prints each text as it is. A value holding a newline continues on the next lines, so
  a continued line can look like one of Rotel's own (`     -> key: Str(..)`, `Span #0`). For
  every value of the file that holds a newline, its exact rendered text (all its lines) is
  found in the log and masked, on both sides, before parsing, so it is compared exactly, and
  in place. A newline in a span that arrived but is not in the file is read as continuation
  when the line is not one of Rotel's own forms (blank lines included when text follows).
- A metric's or a log's value with a newline followed by `ResourceSpans #N` would end a
  metrics block early: for hostile metric names, log traces alone
  (`scripts/rotel-receiver --signal traces`).
- Rotel prints no schema URL it could hold wrongly for Sleeve (Sleeve sends none): schema URLs
  and dropped-attribute counts of spans are not compared; a link is counted, not compared.
"""
import base64
import importlib.machinery
import importlib.util
import json
import math
import os
import re
import sys
from collections import Counter, defaultdict


def _receiver():
    """scripts/rotel-receiver as a module: the end marker's attribute has one home there."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "rotel-receiver")
    sys.dont_write_bytecode = True  # no __pycache__ left in scripts/
    loader = importlib.machinery.SourceFileLoader("rotel_receiver", path)
    module = importlib.util.module_from_spec(importlib.util.spec_from_loader(loader.name, loader))
    loader.exec_module(module)
    return module


END_MARKER_KEY = _receiver().END_MARKER_KEY

SHOWN_DIFFERENCES = 20
MASK = "\x00masked#"
LOG_LINE = re.compile(r"(?:\x1b\[[0-9;]*m)*\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z")
NUMBERED = re.compile(r"(ResourceSpans|ResourceMetrics|ResourceLogs|ScopeSpans|Span|SpanEvent"
                      r"|SpanLink) #\d+")
ATTRIBUTE = "     -> "
NESTED_ATTRIBUTE = "          -> "
SPAN_FIELDS = {
    "    Trace ID       : ": "trace", "    Parent ID      : ": "parent",
    "    ID             : ": "span", "    Name           : ": "name",
    "    Kind           : ": "kind", "    TraceState     : ": "trace_state",
    "    Status code    : ": "status_code", "    Status message : ": "status_message",
    "Start time: ": "start", "End time: ": "end",
}
EVENT_FIELDS = {"Name: ": "name", "Timestamp: ": "time", "DroppedAttributesCount: ": "dropped"}
SPAN_KINDS = ["SPAN_KIND_UNSPECIFIED", "SPAN_KIND_INTERNAL", "SPAN_KIND_SERVER",
              "SPAN_KIND_CLIENT", "SPAN_KIND_PRODUCER", "SPAN_KIND_CONSUMER"]
STATUS_CODES = ["STATUS_CODE_UNSET", "STATUS_CODE_OK", "STATUS_CODE_ERROR"]


class Failure(Exception):
    """A clear one-line reason, and the exit code that goes with it."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code


def shown(text, limit=160):
    """A text safe to print: control and invisible characters escaped, masks undone by the
    caller, long texts cut."""
    text = "".join(c if c.isprintable() else f"\\u{ord(c):04x}" for c in text)
    return text if len(text) <= limit else text[:limit] + "…"


# MARK: Rendering what Rotel prints

def rust_float(value):
    """A float as Rust's `Display` for f64 prints it (no exponent; integral values bare)."""
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    if value == int(value) and abs(value) < 2 ** 63:
        return str(int(value))
    text = repr(value)
    if "e" in text:
        mantissa, exponent = text.split("e")
        text = format(value, f".{max(0, -int(exponent) + len(mantissa))}f").rstrip("0")
    return text


def render_value(value):
    """An OTLP/JSON AnyValue as Rotel's debug log renders it."""
    if not isinstance(value, dict) or not value:
        return "Empty"
    if "stringValue" in value:
        return f"Str({value['stringValue']})"
    if "boolValue" in value:
        return f"Bool({'true' if value['boolValue'] else 'false'})"
    if "intValue" in value:
        return f"Int({int(value['intValue'])})"
    if "doubleValue" in value:
        return f"Double({rust_float(float(value['doubleValue']))})"
    if "arrayValue" in value:
        items = (value["arrayValue"] or {}).get("values", [])
        return "Slice(" + ", ".join(render_value(item) for item in items) + ")"
    if "kvlistValue" in value:
        items = (value["kvlistValue"] or {}).get("values", [])
        return "Map(" + ", ".join(
            f"{item.get('key', '')}:{render_value(item.get('value'))}" for item in items) + ")"
    if "bytesValue" in value:
        return f"Bytes({list(base64.b64decode(value['bytesValue']))})"
    return "Empty"


class Masks:
    """Texts of the file that span lines of the log, each replaced by one line on both sides.

    A rendered field (its line prefix included) holding a newline is found whole in the log,
    where no continued line can be mistaken for one of Rotel's own."""

    def __init__(self):
        self.by_text = {}
        self.originals = {}

    def field(self, prefix, value):
        """The value the parser will read for this field: the value itself, or its mask."""
        text = prefix + value
        if "\n" not in text:
            return value
        if text not in self.by_text:
            mask = f"{MASK}{len(self.by_text)}\x00"
            self.by_text[text] = prefix + mask
            self.originals[mask] = value
        return self.by_text[text][len(prefix):]

    def apply(self, log):
        if not self.by_text:
            return log
        texts = sorted(self.by_text, key=len, reverse=True)
        pattern = re.compile("(?<=\n)(?:" + "|".join(map(re.escape, texts)) + ")(?=\n)")
        return pattern.sub(lambda match: self.by_text[match.group(0)], "\n" + log + "\n")[1:-1]

    def undo(self, text):
        for mask, original in self.originals.items():
            text = text.replace(mask, original)
        return text


def expected_attributes(attributes, prefix, masks):
    return [masks.field(prefix, f"{item.get('key', '')}: {render_value(item.get('value'))}")
            for item in attributes or []]


def read_bytes(path):
    """The file's bytes; exit 66 when it cannot be read."""
    try:
        with open(path, "rb") as file:
            return file.read()
    except OSError as error:
        raise Failure(66, f"cannot read {path}: {error.strerror}")


def each_request(path, kind, handle):
    """Calls handle(request) with each line of an OTLP/JSON file; exit 65 for a line that is
    not a `kind` request."""
    for number, raw in enumerate(read_bytes(path).split(b"\n"), 1):
        if not raw.strip():
            continue
        try:
            handle(json.loads(raw))
        except (ValueError, KeyError, TypeError, AttributeError) as error:
            raise Failure(65, f"{path} line {number}: not an OTLP/JSON {kind} request ({error})")


def scope_line(scope, masks):
    """A scope as Rotel renders it (`InstrumentationScope name version`), or None."""
    if scope is None:
        return None
    return masks.field("InstrumentationScope ",
                       f"{scope.get('name', '')} {scope.get('version', '')}")


def log_lines(path, masks):
    """Rotel's log, decoded and masked, as numbered lines."""
    log = read_bytes(path).decode("utf-8", errors="replace")
    return enumerate(masks.apply(log).split("\n"), 1)


def expected_spans(path, masks):
    """The file's spans, each as the parser reads Rotel's rendering of it."""
    spans = []

    def add(request):
        for resource_spans in request["resourceSpans"]:
            resource = expected_attributes(
                (resource_spans.get("resource") or {}).get("attributes"), ATTRIBUTE, masks)
            for scope_spans in resource_spans.get("scopeSpans", []):
                scope = scope_spans.get("scope")
                scope_attributes = [] if scope is None else expected_attributes(
                    scope.get("attributes"), ATTRIBUTE, masks)
                for span in scope_spans.get("spans", []):
                    spans.append(expected_span(span, resource, scope_line(scope, masks),
                                               scope_attributes, masks))

    each_request(path, "trace", add)
    return spans


def expected_span(span, resource, scope_line, scope_attributes, masks):
    kind = int(span.get("kind", 0))
    record = {
        "trace": span.get("traceId", "").lower(), "span": span.get("spanId", "").lower(),
        "parent": span.get("parentSpanId", "").lower(),
        "name": masks.field("    Name           : ", span.get("name", "")),
        "kind": SPAN_KINDS[kind] if 0 <= kind < len(SPAN_KINDS) else None,
        "trace_state": None, "status_code": None, "status_message": None,
        "start": str(int(span.get("startTimeUnixNano", 0))),
        "end": str(int(span.get("endTimeUnixNano", 0))),
        "attributes": expected_attributes(span.get("attributes"), ATTRIBUTE, masks),
        "events": [], "links": len(span.get("links", [])),
        "resource": resource, "scope": scope_line, "scope_attributes": scope_attributes,
    }
    if span.get("traceState"):
        record["trace_state"] = masks.field("    TraceState     : ", span["traceState"])
    status = span.get("status")
    if status is not None:
        code = int(status.get("code", 0))
        record["status_code"] = STATUS_CODES[code] if 0 <= code < len(STATUS_CODES) else None
        record["status_message"] = masks.field(
            "    Status message : ", status.get("message", ""))
    for event in span.get("events", []):
        record["events"].append({
            "name": masks.field(ATTRIBUTE + "Name: ", event.get("name", "")),
            "time": str(int(event.get("timeUnixNano", 0))),
            "dropped": str(int(event.get("droppedAttributesCount", 0))),
            "attributes": expected_attributes(event.get("attributes"), NESTED_ATTRIBUTE, masks),
        })
    return record


# MARK: Parsing what Rotel printed

class LogParser:
    """Reads Rotel's detailed debug log line by line into spans; everything not a span of a
    ResourceSpans block is skipped. A line that is none of Rotel's forms continues the value
    of the field before it (a value holding a newline)."""

    def __init__(self):
        self.spans = []
        self.stray = []
        self.in_traces = False
        self.resource = self.scope = self.span = self.item = None
        self.section = None
        self.target = None
        self.blank_lines = 0

    def set(self, container, key, value):
        container[key] = value
        self.target = (container, key)

    def add(self, items, value):
        items.append(value)
        self.target = (items, len(items) - 1)

    def feed(self, number, line):
        if line == "":
            self.blank_lines += 1
            return
        blank_lines, self.blank_lines = self.blank_lines, 0
        if LOG_LINE.match(line):
            self.target = None
            return
        numbered = NUMBERED.fullmatch(line)
        header = numbered.group(1) if numbered else None
        if header in ("ResourceSpans", "ResourceMetrics", "ResourceLogs"):
            self.in_traces = header == "ResourceSpans"
            self.resource = {"attributes": []}
            self.scope = self.span = None
            self.section = "resource"
            self.target = None
            return
        if not self.in_traces:
            return
        if self.structural(header, line):
            return
        if self.target is None:
            self.stray.append((number, line))
            return
        container, key = self.target
        container[key] += "\n" * (blank_lines + 1) + line

    def structural(self, header, line):
        """Reads one of Rotel's own lines; False for a line that is none of them."""
        if header == "ScopeSpans":
            self.scope = {"line": None, "attributes": []}
            self.section, self.target = "scope", None
        elif header == "Span":
            self.span = {"trace": None, "span": None, "parent": None, "name": None,
                         "kind": None, "trace_state": None, "status_code": None,
                         "status_message": None, "start": None, "end": None,
                         "attributes": [], "events": [], "links": 0,
                         "resource": self.resource["attributes"],
                         "scope": self.scope["line"] if self.scope else None,
                         "scope_attributes": self.scope["attributes"] if self.scope else []}
            self.spans.append(self.span)
            self.section, self.target = "span", None
        elif header == "SpanEvent" and self.span is not None:
            self.item = {"name": None, "time": None, "dropped": None, "attributes": []}
            self.span["events"].append(self.item)
            self.section, self.target = "event", None
        elif header == "SpanLink" and self.span is not None:
            self.span["links"] += 1
            self.item = {"attributes": []}
            self.section, self.target = "link", None
        elif line in ("Resource attributes:", "InstrumentationScope attributes:",
                      "Attributes:", "Events:", "Links:"):
            self.section = {"Resource attributes:": "resource",
                            "InstrumentationScope attributes:": "scope",
                            "Attributes:": "span", "Events:": "events",
                            "Links:": "links"}[line]
            self.target = None
        elif line.startswith(("Resource SchemaURL: ", "ScopeSpans SchemaURL: ")):
            self.set({}, "url", line)
        elif line.startswith("InstrumentationScope ") and self.scope is not None:
            self.set(self.scope, "line", line[len("InstrumentationScope "):])
        elif line == ATTRIBUTE + "Attributes::" and self.section in ("event", "link"):
            self.section += " attributes"
        elif line.startswith(NESTED_ATTRIBUTE) and self.section in (
                "event attributes", "link attributes"):
            self.add(self.item["attributes"], line[len(NESTED_ATTRIBUTE):])
        elif line.startswith(ATTRIBUTE):
            return self.attribute_line(line[len(ATTRIBUTE):])
        else:
            for prefix, key in SPAN_FIELDS.items():
                if line.startswith(prefix) and self.span is not None:
                    self.set(self.span, key, line[len(prefix):])
                    return True
            return False
        return True

    def attribute_line(self, rest):
        if self.section == "event":
            for prefix, key in EVENT_FIELDS.items():
                if rest.startswith(prefix):
                    self.set(self.item, key, rest[len(prefix):])
                    return True
            return False
        if self.section == "link":
            self.set({}, "field", rest)
        elif self.section == "resource" and self.resource is not None:
            self.add(self.resource["attributes"], rest)
        elif self.section == "scope" and self.scope is not None:
            self.add(self.scope["attributes"], rest)
        elif self.section == "span" and self.span is not None:
            self.add(self.span["attributes"], rest)
        else:
            return False
        return True


def received_spans(path, masks):
    parser = LogParser()
    for number, line in log_lines(path, masks):
        parser.feed(number, line)
    marker = END_MARKER_KEY + ": "
    spans = [span for span in parser.spans
             if not any(line.startswith(marker) for line in span["resource"])]
    markers = len(parser.spans) - len(spans)
    return spans, markers, parser.stray


# MARK: Comparing

FIELDS = ["parent", "name", "kind", "trace_state", "start", "end", "status_code",
          "status_message", "links", "scope", "scope_attributes"]


def list_difference(label, expected, received, masks):
    missing = list((Counter(expected) - Counter(received)).elements())
    extra = list((Counter(received) - Counter(expected)).elements())
    if not missing and not extra:
        return None if expected == received else f"{label} in another order"
    parts = [f"missing {shown(masks.undo(item))}" for item in missing[:3]]
    parts += [f"logged {shown(masks.undo(item))}" for item in extra[:3]]
    return f"{label}: " + "; ".join(parts)


def span_differences(expected, received, masks):
    differences = []
    for field in FIELDS:
        if expected[field] != received[field]:
            differences.append(
                f"{field}: file {shown(masks.undo(str(expected[field])))}, "
                f"Rotel logged {shown(masks.undo(str(received[field])))}")
    for label, key in (("attributes", "attributes"), ("resource attributes", "resource")):
        difference = list_difference(label, expected[key], received[key], masks)
        if difference:
            differences.append(difference)
    if len(expected["events"]) != len(received["events"]):
        differences.append(f"events: file {len(expected['events'])}, "
                           f"Rotel logged {len(received['events'])}")
    for index, (want, got) in enumerate(zip(expected["events"], received["events"])):
        for field in ("name", "time", "dropped"):
            if want[field] != got[field]:
                differences.append(
                    f"event {index} {field}: file {shown(masks.undo(want[field]))}, "
                    f"Rotel logged {shown(masks.undo(str(got[field])))}")
        difference = list_difference(f"event {index} attributes", want["attributes"],
                                     got["attributes"], masks)
        if difference:
            differences.append(difference)
    return differences


def compare(expected, received, masks):
    by_id = defaultdict(lambda: ([], []))
    for span in expected:
        by_id[(span["trace"], span["span"])][0].append(span)
    for span in received:
        by_id[(span["trace"], span["span"])][1].append(span)
    differences = []
    for (trace, span_id), (wanted, got) in by_id.items():
        where = f"span {shown(trace or '')}/{shown(span_id or '')}"
        name = wanted[0]["name"] if wanted else got[0]["name"]
        where += f" '{shown(masks.undo(name))}'" if name is not None else ""
        if len(wanted) != len(got):
            differences.append(
                f"{where}: {len(wanted)} in the file, Rotel logged {len(got)}"
                if wanted else f"{where}: Rotel logged it, not in the file")
        for want, have in zip(wanted, got):
            differences += [f"{where}: {text}" for text in span_differences(want, have, masks)]
    return differences


def main(arguments):
    if len(arguments) != 2:
        raise Failure(64, "usage: scripts/check-rotel-spans.py LOG OTLP_JSON_FILE")
    masks = Masks()
    expected = expected_spans(arguments[1], masks)
    received, markers, stray = received_spans(arguments[0], masks)
    differences = [f"log line {number}: not Rotel's debug format: {shown(line)}"
                   for number, line in stray]
    differences += compare(expected, received, masks)
    if differences:
        for difference in differences[:SHOWN_DIFFERENCES]:
            print(difference)
        print(f"rotel received {len(received)} spans, the file holds {len(expected)}: "
              f"{len(differences)} difference{'s' if len(differences) > 1 else ''}"
              + (f" (first {SHOWN_DIFFERENCES} shown)"
                 if len(differences) > SHOWN_DIFFERENCES else ""))
        return 1
    traces = len({span["trace"] for span in received})
    print(f"rotel received {len(received)} spans in {traces} traces: all match")
    if markers == 0:
        print("check-rotel-spans: no end marker in the log: was it written by "
              "scripts/rotel-receiver, to its end?", file=sys.stderr)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except Failure as failure:
        print(f"check-rotel-spans: {failure}", file=sys.stderr)
        sys.exit(failure.code)
