import Localization
import Testing

/// How the catalog's texts take their values: by position, so that a translation may reorder them.
@Suite struct CatalogTests {
    @Test func valuesGoWhereTheirPositionSays() {
        #expect(Catalog.source.localized("Next: %1$s", "Squat") == "Next: Squat")
        #expect(Catalog.source.localized("%2$s, then %1$s", "a", "b") == "b, then a")
        #expect(Catalog.source.localized("%1$d/%2$d", 3, 15) == "3/15")
        #expect(Catalog.source.localized("%s and %d", "x", 2) == "x and 2")
        #expect(Catalog.source.localized("100%% of %1$s", "it") == "100% of it")
    }

    @Test func aDirectiveWithoutItsValueStaysAsItIs() {
        #expect(Catalog.source.localized("%3$s and %1$s", "a") == "%3$s and a")
        #expect(Catalog.source.localized("50% off") == "50% off")
        #expect(Catalog.source.localized("trailing %", "a") == "trailing %")
    }

    @Test func theSourceTextsAreEnglishWithItsPlural() {
        #expect(Catalog.source.localizedPlural("%1$d set", "%1$d sets", count: 1, 1) == "1 set")
        #expect(Catalog.source.localizedPlural("%1$d set", "%1$d sets", count: 0, 0) == "0 sets")
        #expect(Catalog.source.localizedInContext("unit of minutes", "min") == "min")
    }

    @Test func germanFromItsCatalog() {
        let german = Catalog.compiled("de")
        #expect(german.localized("Next: %1$s", "Bankdrücken") == "Weiter mit: Bankdrücken")
        #expect(german.localizedPlural("%1$d/%2$d set", "%1$d/%2$d sets", count: 1, 1, 1) == "1/1 Satz")
        #expect(german.localizedPlural("%1$d/%2$d set", "%1$d/%2$d sets", count: 15, 12, 15) == "12/15 Sätze")
        #expect(german.localizedInContext("decimal separator", ".") == ",")
    }
}
