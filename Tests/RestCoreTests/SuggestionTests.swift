import RestCore
import Testing

/// "Did you mean": one rule for every name restd and restctl take.
@Suite struct SuggestionTests {
    @Test func aSwapOfTwoLettersIsOneEdit() {
        #expect(Suggestion.editDistance("rets", "rest") == 1)
        #expect(Suggestion.editDistance("rets", "sets") == 1)
        #expect(Suggestion.editDistance("rpes", "reps") == 1)
    }

    @Test func keysNotYetSetComeFirst() {
        let keys = ["name", "sets", "reps", "rest"]
        #expect(Suggestion.likelyMeant("rets", among: keys, alreadySet: ["name", "sets"]) == "rest")
        // Without keys set, the name of the same letters: two swapped.
        #expect(Suggestion.likelyMeant("rets", among: keys) == "rest")
        // A key set already is still meant when nothing else is near.
        #expect(Suggestion.likelyMeant("nmae", among: keys, alreadySet: ["name"]) == "name")
    }
}
