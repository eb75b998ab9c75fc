import RestCore
import Testing

@Suite("Median")
struct MedianTests {
    @Test("the middle value; for an even count the mean of the two middle ones, rounded down; none for none")
    func middle() {
        #expect([USec(3), 1, 2].median() == 2)
        #expect([USec(4), 1, 3, 2].median() == 2)
        #expect([USec(5), 8].median() == 6)
        #expect([USec]().median() == nil)
        #expect([2.0, 1.0].median() == 1.5)
    }

    @Test("two values past half of UInt64's range do not overflow")
    func noOverflow() {
        #expect([USec.max, USec.max - 2].median() == USec.max - 1)
    }

    @Test("of a sorted slice, as a report's quartiles take it")
    func slices() {
        let sorted: [Double] = [1, 2, 3, 4, 5, 6, 7]
        #expect(sorted[..<3].medianOfSorted == 2)
        #expect(sorted[4...].medianOfSorted == 6)
        #expect(sorted[3..<3].medianOfSorted == nil)
    }
}
