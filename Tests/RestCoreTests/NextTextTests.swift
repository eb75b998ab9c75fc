import RestCore
import Testing

@Suite struct NextTextTests {
    @Test func aLeadingNextIsDroppedOnce() {
        #expect(NextText.subject("Next: Bench press") == "Bench press")
        #expect(NextText.subject("next:Curl") == "Curl")
        #expect(NextText.subject("Squat 4/5") == "Squat 4/5")
        #expect(NextText.subject("Next: Next: x") == "Next: x")
        #expect(NextText.subject("Nextdoor") == "Nextdoor")
        #expect(NextText.subject("") == "" && NextText.subject("Next:") == "")
    }
}
