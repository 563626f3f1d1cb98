/// The lines that differ between two texts, by their longest common run of lines: what an
/// admin reads to see what an edit changed. Unchanged stretches are left out but for one line
/// of context on each side of a change.
enum LineDiff {
    struct Line: Encodable, Equatable {
        enum Kind: String, Encodable { case same, removed, added, gap }
        var kind: Kind
        var text: String
        /// The kind as the template asks for it.
        let isRemoved: Bool, isAdded: Bool, isGap: Bool

        init(kind: Kind, text: String) {
            self.kind = kind
            self.text = text
            (isRemoved, isAdded, isGap) = (kind == .removed, kind == .added, kind == .gap)
        }
    }

    /// Longer texts than this many lines are not compared (the table would be too large to
    /// help, and the work grows with the product of the two lengths).
    static let largest = 2_000

    /// The changed lines of `before` → `after` with a line of context; nil when either is too long.
    static func changes(_ before: String, _ after: String) -> [Line]? {
        let old = before.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let new = after.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard old.count <= largest, new.count <= largest else { return nil }
        // common[i][j]: the longest common run of old[i...] and new[j...].
        var common = Array(repeating: Array(repeating: 0, count: new.count + 1), count: old.count + 1)
        for i in stride(from: old.count - 1, through: 0, by: -1) {
            for j in stride(from: new.count - 1, through: 0, by: -1) {
                common[i][j] = old[i] == new[j] ? common[i + 1][j + 1] + 1 : max(common[i + 1][j], common[i][j + 1])
            }
        }
        var all: [Line] = []
        var i = 0, j = 0
        while i < old.count || j < new.count {
            if i < old.count, j < new.count, old[i] == new[j] {
                all.append(Line(kind: .same, text: old[i])); i += 1; j += 1
            } else if j < new.count, i == old.count || common[i][j + 1] >= common[i + 1][j] {
                all.append(Line(kind: .added, text: new[j])); j += 1
            } else {
                all.append(Line(kind: .removed, text: old[i])); i += 1
            }
        }
        // Keep the changes and the line on each side of them; say where lines were left out.
        let keep = all.indices.map { index in
            all[max(0, index - 1)...min(all.count - 1, index + 1)].contains { $0.kind != .same }
        }
        var shown: [Line] = []
        for index in all.indices {
            if keep[index] { shown.append(all[index]) } else if shown.last?.kind != .gap { shown.append(Line(kind: .gap, text: "…")) }
        }
        return shown
    }
}
