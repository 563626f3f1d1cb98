import QuestionEngine
import Testing
import TestSupport

@Suite("Item review flags", .onTestThreads)
struct ItemReviewTests {
    func statistics(facility: Double, efficiency: Double?, shares: [Int: Double], attempts: Int = 20) -> ItemStatistics {
        ItemStatistics(attempts: attempts, facility: facility, discrimination: nil, efficiency: efficiency, averageMilliseconds: nil, optionShares: shares)
    }

    @Test("each rule flags at its threshold and not before")
    func thresholds() {
        let texts = ["aa", "bb", "cc"]
        let used = [0: 0.5, 1: 0.3, 2: 0.2]
        #expect(ItemReview.flags(statistics(facility: 0.5, efficiency: 0.15, shares: used), kind: .singleChoice, key: [0], optionTexts: texts).isEmpty)
        #expect(ItemReview.flags(statistics(facility: 0.5, efficiency: 0.149, shares: used), kind: .singleChoice, key: [0], optionTexts: texts) == [.lowEfficiency])
        #expect(ItemReview.flags(statistics(facility: 0.96, efficiency: 0.5, shares: used), kind: .singleChoice, key: [0], optionTexts: texts) == [.tooEasy])
        #expect(ItemReview.flags(statistics(facility: 0.09, efficiency: 0.5, shares: used), kind: .singleChoice, key: [0], optionTexts: texts) == [.tooHard])
        #expect(ItemReview.flags(statistics(facility: 0.5, efficiency: 0.5, shares: [0: 0.6, 1: 0.4]), kind: .singleChoice, key: [0], optionTexts: texts) == [.unusedOption])
        #expect(ItemReview.flags(statistics(facility: 0.5, efficiency: 0.5, shares: used), kind: .multiChoice, key: [0, 1], optionTexts: ["long one", "long two", "x"]) == [.longestIsKey])
        #expect(ItemReview.flags(statistics(facility: 0.5, efficiency: 0.5, shares: used), kind: .multiChoice, key: [0, 1], optionTexts: ["long one", "x", "long two"]).isEmpty)
    }

    @Test("the longest-key rule compares words only: numbers and addresses are never flagged for their length")
    func longestKeyIsForText() {
        #expect(ItemReview.flags(nil, kind: .singleChoice, key: [2], optionTexts: ["62", "126", "1022", "30"]).isEmpty)
        #expect(ItemReview.flags(nil, kind: .singleChoice, key: [0], optionTexts: ["255.255.255.128", "255.0.0.0", "10.0.0.1"]).isEmpty)
        #expect(ItemReview.flags(nil, kind: .singleChoice, key: [1], optionTexts: ["0x1F", "0x3FF", "0b101"]).isEmpty)
        #expect(ItemReview.flags(nil, kind: .singleChoice, key: [1], optionTexts: ["TCP", "HTTPS"]) == [.longestIsKey])
        #expect(ItemReview.flags(nil, kind: .singleChoice, key: [1], optionTexts: ["It drops", "It resends the lost segment after a timeout"]) == [.longestIsKey])
        #expect(ItemReview.flags(nil, kind: .singleChoice, key: [1], optionTexts: ["Bee", "Beetle"]) == [.longestIsKey], "words of hex letters are words")
    }

    @Test("with too few attempts only the writing is judged; ordering has no options to pick or compare")
    func fewAttemptsAndOrdering() {
        let few = statistics(facility: 1, efficiency: 0, shares: [:], attempts: ItemReview.minimumAttempts - 1)
        #expect(ItemReview.flags(few, kind: .singleChoice, key: [0], optionTexts: ["a", "b"]).isEmpty)
        #expect(ItemReview.flags(nil, kind: .singleChoice, key: [1], optionTexts: ["a", "bbb"]) == [.longestIsKey])
        #expect(ItemReview.flags(statistics(facility: 0.5, efficiency: 0.5, shares: [:]), kind: .ordering, key: [1, 0], optionTexts: ["a", "bbb"]).isEmpty)
    }
}
