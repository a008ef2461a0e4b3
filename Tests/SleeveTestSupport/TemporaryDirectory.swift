import Foundation

/// A fresh directory per test, removed when the value is released.
public final class TemporaryDirectory {
  /// The directory.
  public let url: URL

  /// Creates a fresh, empty directory.
  public init() {
    url = FileManager.default.temporaryDirectory
      .appendingPathComponent("sleeve-tests-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  /// The path of `name` inside the directory.
  public func path(_ name: String) -> String { url.appendingPathComponent(name).path }

  deinit { try? FileManager.default.removeItem(at: url) }
}
