import SleeveQuery

/// A session as an OTLP resource: the one home of its attributes, for traces and metrics.
enum OTLPResource {
  /// The session as resource attributes (a JSON list's contents): `service.name` is the
  /// session's name; host, process, OS and runtime use OpenTelemetry's names; the rest are
  /// `sleeve.*`, with each recorded environment variable as `sleeve.env.NAME`.
  static func attributes(of session: SessionSummary) -> String {
    let metadata = session.metadata
    var out = ""
    var attributes = OTLPAttributeList()
    attributes.add("service.name", session.name, to: &out)
    attributes.add("service.instance.id", session.uuid, to: &out)
    attributes.add("sleeve.session.id", session.uuid, to: &out)
    attributes.add("sleeve.session.name", session.name, to: &out)
    attributes.add("sleeve.session.status", session.status, to: &out)
    attributes.add("sleeve.session.started_unix_ns", session.startedUnixNanoseconds, to: &out)
    let named: [(String, String)] = [
      ("host.name", "host"), ("os.description", "os"),
      ("process.runtime.description", "runtime"), ("sleeve.version", "sleeveVersion"),
      ("sleeve.sqlite_version", "sqliteVersion"), ("sleeve.session.durability", "durability"),
    ]
    for (key, field) in named {
      if let value = metadata[field], !value.isEmpty { attributes.add(key, value, to: &out) }
    }
    if let pid = metadata["pid"].flatMap({ Int64($0) }) {
      attributes.add("process.pid", pid, to: &out)
    }
    let recorded = session.recorded
    if !recorded.tags.isEmpty { attributes.add("sleeve.session.tags", recorded.tags, to: &out) }
    for (name, value) in recorded.sortedEnvironment {
      attributes.add("sleeve.env." + name, value, to: &out)
    }
    return out
  }
}
