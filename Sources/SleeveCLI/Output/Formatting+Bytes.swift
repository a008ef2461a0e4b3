extension Formatting {
  /// `812 bytes`, `4.2 KB`, `15.3 MB`, `1.07 GB`: decimal units (1 MB = 1,000,000 bytes), as
  /// `ls -lh --si` and disk makers count.
  static func bytes(_ count: Int64) -> String {
    let value = Double(count)
    switch abs(value) {
    case ..<1_000: return "\(count) byte" + (count == 1 ? "" : "s")
    case ..<1_000_000: return fixed(value / 1e3, digits: 1) + " KB"
    case ..<1_000_000_000: return fixed(value / 1e6, digits: 1) + " MB"
    default: return fixed(value / 1e9, digits: 2) + " GB"
    }
  }
}
