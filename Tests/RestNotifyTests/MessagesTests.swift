import RestCore
import RestNotify
import Testing

@Suite struct LanguageTests {
    @Test func everyLanguageSaysEverything() {
        for messages in [Messages.english, Messages.german] {
            #expect(!messages.restOver.isEmpty && !messages.again.isEmpty && !messages.dismiss.isEmpty)
            #expect(!messages.addThirtySeconds.isEmpty && !messages.addOneMinute.isEmpty && !messages.cancel.isEmpty)
            // Every button has a label of its own in every language.
            let labels = NotificationAction.allCases.map { $0.label(messages) } + [messages.dismiss]
            #expect(Set(labels).count == labels.count, "\(labels)")
            #expect(messages.next("X").contains("X"))
            #expect(messages.timeLeft("X").contains("X"))
            #expect(messages.endedAgo("X").contains("X"))
            #expect(!messages.workoutDone.isEmpty && messages.restTaken("X").contains("X"))
            #expect(messages.setsDone(3, 15).contains("3/15"))
        }
    }

    @Test func volumesWithAFractionOnlyWhenThereIsOne() {
        let en = Messages.english
        #expect(en.volume(kilograms: 1360, in: .kg) == "1360 kg")
        #expect(en.volume(kilograms: 1362.5, in: .kg) == "1362.5 kg")
        #expect(Messages.german.volume(kilograms: 1362.5, in: .kg) == "1362,5 kg")
        #expect(en.volume(kilograms: 0.04, in: .kg) == "0 kg" && en.volume(kilograms: 2.25, in: .kg) == "2.3 kg")
        // 1360 kg is 2998.29 lb; 1360.78 kg is 3000 lb.
        #expect(en.volume(kilograms: 1360, in: .lb) == "2998.3 lb")
        #expect(Messages.german.volume(kilograms: 1360, in: .lb) == "2998,3 lb")
        #expect(en.volume(kilograms: 1360.78, in: .lb) == "3000 lb")
    }

    /// The record line of "Rest over", in the catalog's language and the unit asked for.
    @Test func recordLinesInEachLanguageAndUnit() {
        let set = SetRecord(
            id: 1, timerID: .default, atUSec: 0, exercise: "Squat", exerciseKey: "squat", reps: 3, weightKg: 111.13,
            failed: false)
        let records: [PersonalRecord] = [.heaviest(kg: 111.13, was: 108.86), .estimatedMax(kg: 122.243, was: 120.2)]
        #expect(
            Messages.english.recordLine(set, records: records, unit: .lb)
                == "record: Squat 245 lb × 3, heaviest (was 240 lb), estimated 1RM 269.5 lb (was 265)")
        #expect(
            Messages.english.recordLine(set, records: records, unit: .kg)
                == "record: Squat 111.13 kg × 3, heaviest (was 108.86 kg), estimated 1RM 122.2 kg (was 120.2)")
        #expect(
            Messages.german.recordLine(set, records: records, unit: .lb)
                == "Rekord: Squat 245 lb × 3, schwerster Satz (vorher 240 lb), geschätztes 1RM 269,5 lb (vorher 265)")
        #expect(Messages.english.recordLine(set, records: [], unit: .lb) == nil)
    }
}

@Suite struct MessageWordingTests {
    @Test func english() {
        let en = Messages.english
        #expect(en.restOver == "Rest over")
        #expect(en.next("Bench press") == "Next: Bench press")
        #expect(en.timeLeft("10 s") == "10 s left")
        #expect(en.endedAgo("3 min") == "ended 3 min ago")
        #expect(
            [en.dismiss, en.addThirtySeconds, en.addOneMinute, en.again, en.cancel]
                == ["Dismiss", "+30 s", "+1 min", "Again", "Cancel"])
    }

    @Test func german() {
        let de = Messages.german
        #expect(de.restOver == "Pause beendet")
        #expect(de.next("Bankdrücken") == "Weiter mit: Bankdrücken")
        #expect(de.timeLeft("10 s") == "Noch 10 s")
        #expect(de.endedAgo("3 Min.") == "vor 3 Min. beendet")
        #expect(
            [de.dismiss, de.addThirtySeconds, de.addOneMinute, de.again, de.cancel]
                == ["Schließen", "+30 s", "+1 Min.", "Nochmal", "Abbrechen"])
    }

    @Test(arguments: [
        (UInt64(0), "0 s", "0 s"), (1, "1 s", "1 s"), (42, "42 s", "42 s"), (60, "1 min", "1 Min."),
        (90, "1 min 30 s", "1 Min. 30 s"), (3600, "1 h", "1 Std."), (3900, "1 h 5 min", "1 Std. 5 Min."),
        (3661, "1 h 1 min 1 s", "1 Std. 1 Min. 1 s"),
    ])
    func durations(_ seconds: UInt64, _ english: String, _ german: String) {
        #expect(Messages.english.duration(seconds: seconds) == english)
        #expect(Messages.german.duration(seconds: seconds) == german)
    }
}

@Suite struct MarkupTests {
    @Test func escapesWhatMarkupGivesMeaningTo() {
        #expect(Markup.escaped("<b>x</b> & y") == "&lt;b&gt;x&lt;/b&gt; &amp; y")
        #expect(Markup.escaped("&amp;") == "&amp;amp;")
        #expect(Markup.escaped("<a href=\"x\">link</a>") == "&lt;a href=\"x\"&gt;link&lt;/a&gt;")
    }

    @Test func leavesEverythingElseAlone() {
        let text = "Bankdrücken · \"Kniebeuge\" 'tief' 🏋️ 100%"
        #expect(Markup.escaped(text) == text)
        #expect(Markup.escaped("") == "")
    }

    @Test func escapesAnAngleBracketEvenInsideAGraphemeCluster() {
        // "<" + COMBINING LONG SOLIDUS OVERLAY is one Character, but a parser still sees "<".
        #expect(Markup.escaped("a<\u{0338}b") == "a&lt;\u{0338}b")
        #expect(
            !Markup.escaped("<\u{0338}>\u{0338}&\u{0301}").unicodeScalars.contains { "<>".unicodeScalars.contains($0) })
    }
}
