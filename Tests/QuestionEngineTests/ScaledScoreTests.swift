import QuestionEngine
import Testing

@Suite("Scaled scores")
struct ScaledScoreTests {
    @Test("a raw percentage maps in two straight pieces: 0% to the lowest, the pass mark to the pass score, 100% to the highest; just under the pass mark stays under the pass score")
    func mapping() {
        let scale = ScaledScore(min: 100, pass: 700, max: 1000)
        #expect(scale.scaled(percent: 0, passMark: 70) == 100)
        #expect(scale.scaled(percent: 70, passMark: 70) == 700)
        #expect(scale.scaled(percent: 100, passMark: 70) == 1000)
        #expect(scale.scaled(percent: 35, passMark: 70) == 400)
        #expect(scale.scaled(percent: 85, passMark: 70) == 850)
        #expect(scale.scaled(percent: 69.99, passMark: 70) == 699, "a fail never rounds up to the pass score")
        #expect(scale.scaled(percent: 120, passMark: 70) == 1000 && scale.scaled(percent: -5, passMark: 70) == 100)
        let scores = stride(from: 0.0, through: 100, by: 0.5).map { scale.scaled(percent: $0, passMark: 70) }
        #expect(scores == scores.sorted(), "more right never scores less")
        #expect(ScaledScore(min: 0, pass: 500, max: 1000).scaled(percent: 100, passMark: 100) == 1000)
    }

    @Test("a scale is refused with the reason when its pass score is not between its lowest and highest, or it leaves 0 to 100000")
    func problems() {
        #expect(ScaledScore(min: 100, pass: 700, max: 1000).problem == nil)
        #expect(ScaledScore(min: 700, pass: 700, max: 1000).problem?.contains("above the lowest") == true)
        #expect(ScaledScore(min: 100, pass: 1000, max: 1000).problem?.contains("below the highest") == true)
        #expect(ScaledScore(min: -1, pass: 700, max: 1000).problem?.contains("0 to at most 100000") == true)
        #expect(ScaledScore(min: 0, pass: 700, max: 100_001).problem?.contains("0 to at most 100000") == true)
    }
}
