import CCurl
import Foundation

/// One libcurl easy transfer: `HTTPTransport`'s attempt, run to its end on the calling thread.
enum CurlTransfer {
  /// What libcurl's callbacks collect during one transfer. Touched only by the thread running
  /// it (libcurl calls back on that thread), so it needs no lock.
  private final class Reception {
    var body: [UInt8] = []
    var retryAfter: String?
    /// A byte arrived past `HTTPTransport.bodyLimit`: the transfer was stopped on purpose.
    var limitReached = false
    let cancelled: CancelFlag

    init(cancelled: CancelFlag) { self.cancelled = cancelled }
  }

  /// The longest `Retry-After` value kept (a date is 29 bytes; anything longer is not one).
  static let retryAfterLimit = 256

  private static let initialized: Bool = curl_global_init(sleeve_curl_global_default) == CURLE_OK

  /// Runs libcurl's global set-up once, before any transfer (it is not safe to run
  /// concurrently, and Swift runs a static's initializer exactly once).
  static func initializeOnce() { _ = initialized }

  /// Sends `post` and waits for the whole answer, at most `deadline`.
  static func run(_ post: HTTPPost, deadline: Duration, cancelled: CancelFlag)
    -> HTTPAttemptOutcome
  {
    guard initialized, let handle = curl_easy_init() else {
      return .failed("libcurl could not start a transfer")
    }
    var lines: UnsafeMutablePointer<curl_slist>? = nil
    let errors = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
    errors.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
    // The handle goes first: it refers to the header list and the error buffer until then.
    defer {
      curl_easy_cleanup(handle)
      curl_slist_free_all(lines)
      errors.deallocate()
    }
    for line in post.headers.map({ "\($0.name): \($0.value)" }) + ["Expect:"] {
      guard let longer = curl_slist_append(lines, line) else { return .failed("out of memory") }
      lines = longer
    }
    let reception = Reception(cancelled: cancelled)
    let context = Unmanaged.passUnretained(reception).toOpaque()
    // Clamped as a Double first: a huge Duration's milliseconds would not fit an integer.
    let milliseconds = Int(min(max(deadline.secondsValue * 1000, 1), Double(Int32.max)))

    let code: CURLcode = withExtendedLifetime(reception) {
      post.url.withCString { url in
        post.body.withUnsafeBytes { body in
          var set = [
            sleeve_curl_set_pointer(handle, CURLOPT_URL, url),
            sleeve_curl_set_long(handle, CURLOPT_NOSIGNAL, 1),
            sleeve_curl_set_long(handle, CURLOPT_FOLLOWLOCATION, 0),
            sleeve_curl_set_long(handle, CURLOPT_TIMEOUT_MS, milliseconds),
            sleeve_curl_set_long(handle, CURLOPT_POST, 1),
            sleeve_curl_set_offset(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count)),
            // An empty body still needs a valid pointer, or curl reads the request from stdin.
            sleeve_curl_set_pointer(
              handle, CURLOPT_POSTFIELDS, body.baseAddress ?? UnsafeRawPointer(url)),
            sleeve_curl_set_pointer(handle, CURLOPT_HTTPHEADER, lines),
            sleeve_curl_set_pointer(handle, CURLOPT_ERRORBUFFER, errors),
            sleeve_curl_set_data_callback(handle, CURLOPT_WRITEFUNCTION, receiveBody),
            sleeve_curl_set_pointer(handle, CURLOPT_WRITEDATA, context),
            sleeve_curl_set_data_callback(handle, CURLOPT_HEADERFUNCTION, receiveHeader),
            sleeve_curl_set_pointer(handle, CURLOPT_HEADERDATA, context),
            sleeve_curl_set_long(handle, CURLOPT_NOPROGRESS, 0),
            sleeve_curl_set_progress_callback(handle, checkCancelled),
            sleeve_curl_set_pointer(handle, CURLOPT_XFERINFODATA, context),
          ]
          // Defence in depth (OTLPEndpoint admits only http and https, and redirects are not
          // followed): libcurl before 7.85 does not know the option, which is then no error.
          let protocols = sleeve_curl_set_pointer(handle, CURLOPT_PROTOCOLS_STR, "http,https")
          if protocols != CURLE_UNKNOWN_OPTION { set.append(protocols) }
          if let refused = set.first(where: { $0 != CURLE_OK }) { return refused }
          return curl_easy_perform(handle)
        }
      }
    }

    var status = 0
    _ = sleeve_curl_get_long(handle, CURLINFO_RESPONSE_CODE, &status)
    if code == CURLE_OK || (code == CURLE_WRITE_ERROR && reception.limitReached) {
      guard status > 0 else { return .failed("the answer was not HTTP") }
      return .answered(status: status, retryAfter: reception.retryAfter, body: reception.body)
    }
    var osError = 0
    _ = sleeve_curl_get_long(handle, CURLINFO_OS_ERRNO, &osError)
    let detail =
      errors.pointee != 0 ? String(cString: errors) : String(cString: curl_easy_strerror(code))
    return .failed(
      describe(
        code, osError: Int32(truncatingIfNeeded: osError), detail: detail, deadline: deadline))
  }

  /// CURLOPT_WRITEFUNCTION: keeps the body up to the limit; a byte more stops the transfer
  /// (returning less than was given is libcurl's way to abort).
  private static let receiveBody: sleeve_curl_data_callback = { data, size, count, context in
    guard let data, let context else { return 0 }
    let reception = Unmanaged<Reception>.fromOpaque(context).takeUnretainedValue()
    let (length, overflow) = size.multipliedReportingOverflow(by: count)
    guard !overflow else { return 0 }
    let room = HTTPTransport.bodyLimit - reception.body.count
    let bytes = UnsafeRawBufferPointer(start: UnsafeRawPointer(data), count: length)
    reception.body.append(contentsOf: bytes.prefix(room))
    if length > room {
      reception.limitReached = true
      return 0
    }
    return length
  }

  /// CURLOPT_HEADERFUNCTION: keeps the last response's `Retry-After` value.
  private static let receiveHeader: sleeve_curl_data_callback = { data, size, count, context in
    guard let data, let context else { return 0 }
    let reception = Unmanaged<Reception>.fromOpaque(context).takeUnretainedValue()
    let (length, overflow) = size.multipliedReportingOverflow(by: count)
    guard !overflow else { return 0 }
    let line = UnsafeRawBufferPointer(start: UnsafeRawPointer(data), count: length)
    if line.starts(with: "HTTP/".utf8) {
      reception.retryAfter = nil  // a new response (after a 1xx) starts
    } else if let colon = line.firstIndex(of: UInt8(ascii: ":")),
      line[..<colon].lazy.map({ $0 | 0x20 }).elementsEqual("retry-after".utf8)
    {
      let value = line[(colon + 1)...].drop { $0 == 0x20 || $0 == 0x09 }
        .prefix { $0 != 0x0D && $0 != 0x0A }.prefix(retryAfterLimit)
      reception.retryAfter = String(decoding: value, as: UTF8.self)
    }
    return length
  }

  /// CURLOPT_XFERINFOFUNCTION: a nonzero return aborts the transfer once it is cancelled.
  private static let checkCancelled: sleeve_curl_progress_callback = { context, _, _, _, _ in
    guard let context else { return 0 }
    return Unmanaged<Reception>.fromOpaque(context).takeUnretainedValue().cancelled.isSet ? 1 : 0
  }

  /// A failed transfer as a short phrase.
  private static func describe(
    _ code: CURLcode, osError: Int32, detail: String, deadline: Duration
  ) -> String {
    // Redacted by the sender, which knows the headers (curl's detail never holds them).
    let detail = ReceiverText.oneLine(detail, redacting: .none) ?? "no detail"
    switch code {
    case CURLE_OPERATION_TIMEDOUT:
      return "no complete answer within \(deadline.secondsText) (attempt deadline)"
    case CURLE_COULDNT_CONNECT:
      return osError == ECONNREFUSED ? "connection refused" : "could not connect: \(detail)"
    case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY: return "host not found"
    case CURLE_GOT_NOTHING: return "connection closed without an answer"
    case CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_PARTIAL_FILE:
      return "connection closed before a complete answer"
    case CURLE_WEIRD_SERVER_REPLY: return "the answer was not valid HTTP"
    case CURLE_ABORTED_BY_CALLBACK: return "cancelled"
    case CURLE_OUT_OF_MEMORY: return "out of memory"
    case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM,
      CURLE_SSL_CIPHER, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR,
      CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_CRL_BADFILE:
      return "TLS failed: \(detail)"
    default:
      return "transport error \(code.rawValue): \(detail)"
    }
  }
}
