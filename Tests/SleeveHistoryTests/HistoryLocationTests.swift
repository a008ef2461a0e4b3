import Testing

@testable import SleeveHistory

/// A history URL's password never reaches a message: ``HistoryLocation/redacted`` hides the
/// user part's and every `password=` parameter's, and ``HistoryLocation/scrubbed(_:)`` removes
/// them from server messages.
@Suite("History location")
struct HistoryLocationTests {
  @Test(
    "The redacted URL hides the user part's password and every password parameter",
    arguments: [
      ("postgresql://ci:s3cret@db.internal/sleeve", "postgresql://ci:***@db.internal/sleeve"),
      (
        "postgres://ci:p%40ss@h:5432/x?sslmode=require",
        "postgres://ci:***@h:5432/x?sslmode=require"
      ),
      (
        "postgresql://h/x?user=ci&password=s3cret&sslmode=require",
        "postgresql://ci:***@h/x?sslmode=require"
      ),
      ("postgresql://h/x?pass%77ord=s3cret", "postgresql://:***@h/x"),
      ("postgresql://ci@h/x", "postgresql://ci@h/x"),
      // libpq ends the user part at the first '@': the host is then "c@h".
      ("postgresql://a:b@c@h/x", "postgresql://a:***@c@h/x"),
      // libpq ends the user part at '@', not at '?': the whole "top?secret" is the password.
      ("postgresql://u:top?secret@h/x", "postgresql://u:***@h/x"),
      ("postgresql://u@h/x?sslpassword=s3cret", "postgresql://u@h/x?sslpassword=***"),
      ("POSTGRESQL://u:s3cret@h/x", "postgresql://u:***@h/x"),
    ])
  func redacts(url: String, expected: String) throws {
    let location = try HistoryLocation(url)
    #expect(location.redacted == expected)
    for password in location.passwords {
      #expect(!location.redacted.contains(password), "\(url)")
    }
  }

  @Test("Passwords are decoded and scrubbed from messages, longest first")
  func scrubsMessages() throws {
    let location = try HistoryLocation("postgresql://ci:p%40ss@h/x?password=p%40ssword")
    #expect(Set(location.passwords) == ["p@ss", "p@ssword", "p%40ss", "p%40ssword"])
    #expect(
      location.scrubbed("auth failed for p@ssword and p@ss") == "auth failed for *** and ***")
  }

  @Test(
    "Text that is not a PostgreSQL URL libpq reads, or holds NUL, is a usage error (exit 64) that never repeats it",
    arguments: [
      "history.sqlite", "mysql://h/x", "postgresql://h/x\u{0}y", "http://h",
      "postgresql://[::1", "postgresql://h/x?foo", "postgresql://h/x?a=b=c",
      "postgresql://u:sec%41%zzret@h/x", "postgresql://u:secret%00x@h/x",
    ])
  func rejects(text: String) {
    #expect(throws: HistoryError.self) { try HistoryLocation(text) }
    do {
      _ = try HistoryLocation(text)
    } catch {
      #expect(error.kind == .usage)
      #expect(error.exitCode.rawValue == 64)
      // Never the text itself: it may hold a password libpq could not read.
      #expect(!error.message.contains("secret") && !error.message.contains("zzret"))
      #expect(!error.message.contains("mysql"))
    }
  }

  @Test("Both schemes name a history, in any case")
  func schemes() {
    #expect(HistoryLocation.isHistory("POSTGRESQL://h/x"))
    #expect(HistoryLocation.isHistory("postgres://h/x"))
    #expect(!HistoryLocation.isHistory("./postgres://h"))
  }
}

/// SQLSTATEs map to the exit codes the CLI documents.
@Suite("History errors")
struct HistoryErrorTests {
  @Test(
    "SQLSTATE classes map to their kinds and exit codes",
    arguments: [
      ("40001", HistoryError.Kind.busy, Int32(75)), ("40P01", .busy, 75), ("55P03", .busy, 75),
      ("42501", .denied, 77), ("28P01", .denied, 77), ("28000", .denied, 77),
      ("3D000", .notFound, 66), ("42P01", .schema, 65), ("08006", .unreachable, 69),
      ("57P01", .unreachable, 69), ("23505", .failed, 74),
    ])
  func maps(state: String, kind: HistoryError.Kind, code: Int32) {
    #expect(HistoryError.kind(ofSQLState: state) == kind)
    #expect(HistoryError(kind, "x").exitCode.rawValue == code)
  }

  @Test("Server messages become one line without control characters")
  func oneLine() {
    let error = HistoryError(.failed, "ERROR:  boom\nDETAIL:\t\u{1B}[31mred\r\n")
    #expect(error.message == "ERROR: boom DETAIL: [31mred")
  }
}

/// `COPY … FROM STDIN` text rows: no value can end a column, a row or the stream early.
@Suite("Array parameters")
struct PostgresArrayTests {
  @Test("Quotes and backslashes in text are escaped; NULL, doubles and bytes encode")
  func encodes() throws {
    var texts = PostgresArray(of: .text)
    try texts.append("a\"b\\c,d}{")
    texts.appendNull()
    try texts.append("NULL")
    #expect(texts.literal == .text(#"{"a\"b\\c,d}{",NULL,"NULL"}"#))
    #expect(texts.type == "text")
    var numbers = PostgresArray(of: .real)
    numbers.append(1.5)
    numbers.append(Double.nan)
    numbers.append(-Double.infinity)
    #expect(numbers.literal == .text("{1.5,NaN,-Infinity}"))
    var blobs = PostgresArray(of: .blob)
    blobs.append(bytes: [0x0A, 0xFF])
    #expect(blobs.literal == .text(#"{"\\x0aff"}"#))
    var integers = PostgresArray(of: .integer)
    integers.append(Int64.min)
    #expect(integers.literal == .text("{-9223372036854775808}"))
  }

  @Test("Text holding NUL is refused")
  func refusesNUL() {
    var texts = PostgresArray(of: .text)
    #expect(throws: PostgresArray.NULInText.self) { try texts.append("a\u{0}b") }
  }
}
