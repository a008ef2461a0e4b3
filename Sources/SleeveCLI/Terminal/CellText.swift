/// Text cut to a width in terminal cells (see `CellWidth`), on Unicode scalars.
enum CellText {
  /// `text` padded with spaces to `width` cells, on the right (`leading: false`) or the left.
  static func padded(_ text: String, to width: Int, leading: Bool = false) -> String {
    let pad = String(repeating: " ", count: max(width - CellWidth.of(text), 0))
    return leading ? pad + text : text + pad
  }

  /// `text` cut into pieces of at most `width` cells (at least one scalar each), in order, so
  /// that joining them gives `text` back. A piece ends after its last space when it has one
  /// (so words stay whole where they can), else at the edge. A zero-width scalar (a combining
  /// mark) stays with the scalar before it; a wide scalar that would straddle the edge starts the
  /// next piece.
  static func pieces(_ text: String, width: Int) -> [String] {
    let width = max(width, 2)
    var pieces: [String] = []
    var current: [(scalar: Unicode.Scalar, cells: Int)] = []
    var used = 0
    for scalar in text.unicodeScalars {
      let cells = CellWidth.of(scalar)
      while used + cells > width, !current.isEmpty {
        var cut = current.count
        if let space = current.lastIndex(where: { $0.scalar == " " }), space + 1 < current.count {
          cut = space + 1
        }
        pieces.append(String(String.UnicodeScalarView(current[..<cut].map(\.scalar))))
        current.removeFirst(cut)
        used = current.reduce(0) { $0 + $1.cells }
      }
      current.append((scalar, cells))
      used += cells
    }
    pieces.append(String(String.UnicodeScalarView(current.map(\.scalar))))
    return pieces
  }

  /// `line` wrapped at spaces into lines of at most `width` cells, as prose: a word longer than
  /// a line is cut into pieces; the space at each break is dropped.
  static func wrapped(_ line: String, width: Int) -> [String] {
    guard CellWidth.of(line) > width else { return [line] }
    var lines: [String] = []
    var current = ""
    for word in line.split(separator: " ", omittingEmptySubsequences: false).map(String.init) {
      let joined = current.isEmpty ? word : current + " " + word
      if CellWidth.of(joined) <= width {
        current = joined
        continue
      }
      if !current.isEmpty { lines.append(current) }
      let cut = pieces(word, width: width)
      lines += cut.dropLast()
      current = cut.last ?? ""
    }
    lines.append(current)
    return lines
  }
}
