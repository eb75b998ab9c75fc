/// "Did you mean": the known name a mistyped one most likely was, for restctl's options and
/// commands and restd's configuration and plan keys alike.
public enum Suggestion {
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
