/// "Did you mean": the known name a mistyped one most likely was, for restctl's options and
/// commands, restd's options, and the keys of config.toml and workout plans alike — one rule
/// for all of them; each sentence that offers the name is a catalog text of its own
/// (CONTRIBUTING.md, "Messages").
public enum Suggestion {
    /// The known name `typed` most likely stands for: the only one it begins (from two
    /// characters: `resu` is `resume`), else the closest one at most a third of its length
    /// away (one edit always, three at most; `rset` is `rest`, `all` is not `id`). Among names
    /// as close, those not in `alreadySet` (the keys a table has already) come first, then those
    /// of the same letters (two swapped, the commonest slip): `rets` beside `sets = 3` is
    /// `rest`, not `sets` or `reps`, though each is one edit away.
    public static func likelyMeant(_ typed: String, among known: [String], alreadySet: Set<String> = []) -> String? {
        let letters = typed.sorted()
        let ranked = known.enumerated().sorted { a, b in
            let rankA = (alreadySet.contains(a.element) ? 2 : 0) + (a.element.sorted() == letters ? 0 : 1)
            let rankB = (alreadySet.contains(b.element) ? 2 : 0) + (b.element.sorted() == letters ? 0 : 1)
            return (rankA, a.offset) < (rankB, b.offset)
        }.map(\.element)
        let extensions = ranked.filter { $0.hasPrefix(typed) }
        if typed.count >= 2, extensions.count == 1 { return extensions[0] }
        return nearest(typed, among: ranked, maxDistance: min(3, max(1, (typed.count + 1) / 3)))
    }

    /// Edit distance counting characters, a swap of two neighbours as one edit (the commonest
    /// typo: `--rpes` is one from `--reps` and two from `--rest`).
    public static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                table[i][j] = min(
                    table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }

    /// The first of `candidates` closest to `word`, when at most `maxDistance` edits away.
    public static func nearest(_ word: String, among candidates: [String], maxDistance: Int) -> String? {
        let scored = candidates.map { (candidate: $0, distance: editDistance(word, $0)) }
        guard let best = scored.min(by: { $0.distance < $1.distance }), best.distance <= maxDistance else {
            return nil
        }
        return best.candidate
    }
}
