/// How a handler is matched between baseline and candidate when its registration moved.
///
/// Handlers are matched by (control, handler): a handler with an `id:` keeps its name wherever
/// its registration is, so it always matches. One without is named by its registration site
/// (`Checkout.swift:42`, or `Model@Checkout.swift:42` for a target-action), which changes
/// when a line above it is added or removed. So a site-named handler only on one side is
/// paired with one only on the other side when they are the only ones on the same control and
/// in the same file (with the same target type): the edit moved it. Where two or more such
/// handlers remain, pairing them would be a guess, and none is paired (each is `new` or
/// `gone`; README says to give handlers an `id:`).
enum MovedRegistrations {
  /// Pairs of (baseline key, candidate key) to read as one handler.
  static func pairs(baseline: [GroupKey: SidePool], candidate: [GroupKey: SidePool]) -> [(
    GroupKey, GroupKey
  )] {
    func unmatched(_ side: [GroupKey: SidePool], other: [GroupKey: SidePool]) -> [String:
      [GroupKey]]
    {
      var byFile: [String: [GroupKey]] = [:]
      for (key, pool) in side where other[key] == nil {
        guard let stem = stem(of: key, site: pool.site) else { continue }
        byFile[stem, default: []].append(key)
      }
      return byFile
    }
    let gone = unmatched(baseline, other: candidate)
    let new = unmatched(candidate, other: baseline)
    var pairs: [(GroupKey, GroupKey)] = []
    for (stem, old) in gone {
      guard old.count == 1, let moved = new[stem], moved.count == 1 else { continue }
      pairs.append((old[0], moved[0]))
    }
    return pairs.sorted { $0.1.display < $1.1.display }
  }

  /// `control\u{0}Checkout.swift` for a handler named by its site `Checkout.swift:42` (or
  /// `Model@Checkout.swift:42`); `nil` for a handler with an `id:` or without a known site.
  private static func stem(of key: GroupKey, site: String?) -> String? {
    guard case .handler(let control, let name) = key, let site, name.hasSuffix(site),
      let colon = site.lastIndex(of: ":"), site[site.index(after: colon)...].allSatisfy(\.isNumber)
    else { return nil }
    let prefix = name.dropLast(site.count)
    guard prefix.isEmpty || prefix.hasSuffix("@") else { return nil }
    return (control ?? "\u{0}-") + "\u{0}" + prefix + site[..<colon]
  }
}
