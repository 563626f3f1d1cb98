import ExamData
import Foundation
import PostgresClient
import QuestionEngine
import TestSupport
import Testing

/// The calendar in the database: every answer's card placed as `ReviewDayChoice` places it,
/// easy days and holidays kept, and every scheduling path equal to a rebuild from the history.
@Suite("Study rhythm in the database", .onTestThreads)
struct StudyRhythmTests {
    /// A Monday at midnight UTC.
    static let monday = Date(timeIntervalSince1970: 1_798_416_000)

    @Test("review_day_choice picks the day ReviewDayChoice picks, on any calendar")
    func agreesWithSwift() throws {
        let database = try TestDatabase(migrated: true)
        let connection = try database.adminConnection()
        var random = SplitMix64(seed: 5)
        for _ in 0..<300 {
            let interval = Int.random(in: 1...120, using: &random)
            let length = ReviewDayChoice.fuzzRange(interval, maximum: 36_500).upperBound + Int.random(in: 0...12, using: &random)
            let capacity = (0...length).map { _ in [1, 1, 1, 0.5, 0][Int.random(in: 0...4, using: &random)] }
            let due = (0...length).map { _ in Int.random(in: 0...30, using: &random) }
            let balance = Bool.random(using: &random)
            let stability = Double.random(in: 0.5...200, using: &random), retention = [0.8, 0.9, 0.95][Int.random(in: 0...2, using: &random)]
            let decay = -FSRSParameters.defaultWeights[20]
            let card = { () -> FSRSCard in
                var card = FSRSCard(due: Self.monday)
                card.state = .review
                card.stability = stability
                card.difficulty = 5
                card.lastReview = Self.monday
                return card
            }()
            let scheduler = FSRSScheduler()
            let swift = ReviewDayChoice.day(
                interval: interval, maximum: 36_500, capacity: capacity, due: due, balance: balance, retention: retention
            ) { scheduler.retrievability(of: card, at: Self.monday.addingTimeInterval(Double($0) * 86_400)) }
            let sql = try connection.query("""
                SELECT review_day_choice(\(interval), 36500, \("{" + capacity.map { "\($0)" }.joined(separator: ",") + "}")::float8[],
                                         \("{" + due.map(String.init).joined(separator: ",") + "}")::int[], \(balance), \(retention)::float8,
                                         \(stability)::float8, \(decay)::float8) AS day
                """).single().decode("day", as: Int.self)
            #expect(sql == swift, "interval \(interval), balance \(balance), capacity \(capacity), due \(due)")
        }
    }

    /// Alice studies 61 questions with the same key for `days` days as the scheduler asks: new questions
    /// on the first days, then each day every question due by its end, answered online.
    final class Student {
        let database: TestDatabase
        let pool: ConnectionPool
        let account: TestAccount
        let examID: Int
        let questions: [UUID]

        init(easyDays: String, holiday: ClosedRange<Int>?) throws {
            database = try TestDatabase(migrated: true)
            let owner = try database.adminConnection()
            examID = try MiniExam.install(owner)
            // Sixty more questions like the first, so the days have loads worth balancing.
            let first = MiniExam.items[0].id
            for _ in 0..<60 {
                try owner.execute("""
                    INSERT INTO questions (id, domain_id, type, stem, options, correct, explanation, difficulty, status)
                    SELECT gen_random_uuid(), domain_id, type, stem || ' ' || gen_random_uuid(), options, correct, explanation, difficulty, status
                    FROM questions WHERE id = \(first)
                    """)
            }
            questions = try owner.query("""
                SELECT q.id FROM questions q JOIN domains d ON d.id = q.domain_id WHERE d.exam_id = \(examID) AND q.type = 'single-choice' AND q.correct = '[0]' ORDER BY q.id
                """).rows.map { try $0.decode("id", as: UUID.self) }
            account = try database.makeAccount("alice")
            try owner.execute("UPDATE users SET easy_days = \(easyDays) WHERE id = \(account.id)")
            if let holiday {
                try owner.execute("""
                    INSERT INTO study_holidays (user_id, starts_on, ends_on)
                    VALUES (\(account.id), \(StudyRhythmTests.monday)::date + \(holiday.lowerBound)::int, \(StudyRhythmTests.monday)::date + \(holiday.upperBound)::int)
                    """)
            }
            pool = database.appPool()
        }

        /// The questions due by the end of `day` (learning steps included), none while the clock
        /// says otherwise.
        func due(by day: Int) throws -> [UUID] {
            let end = StudyRhythmTests.monday.addingTimeInterval(Double(day + 1) * 86_400)
            return try database.adminConnection().query("""
                SELECT question_id FROM review_cards WHERE user_id = \(account.id) AND due < \(end) ORDER BY due, question_id
                """).rows.map { try $0.decode("question_id", as: UUID.self) }
        }

        func answer(_ items: [UUID], at: Date, pattern: inout SplitMix64) throws {
            guard !items.isEmpty else { return }
            try database.setClock(at.addingTimeInterval(3_600))
            try pool.asCaller(account) { connection in
                let session = try StudyStore().create(NewStudySession(
                    userID: account.id, examID: examID, mode: .practice, config: [:], questionIDs: items, startedAt: at), connection)
                for (offset, item) in items.enumerated() {
                    let right = pattern.next() % 6 != 0
                    let key = MiniExam.items[0].key
                    try _ = AnswerRecorder().record(RecordedAnswer(
                        id: UUID(), sessionID: session, questionID: item, questionVersion: 1, response: .indexes(right ? key : [(key[0] + 1) % 4]),
                        correct: right, score: right ? 1 : 0, rating: right ? .good : .again, milliseconds: 8_000,
                        answeredAt: at.addingTimeInterval(Double(offset) * 20)), userID: account.id, connection)
                }
            }
        }

        /// `days` days of study; returns the reviews done each day.
        func study(days: Int, newPerDay: Int = 20) throws -> [Int] {
            var pattern = SplitMix64(seed: 9)
            var done: [Int] = []
            var learned = 0
            for day in 0..<days {
                var count = 0
                // Morning: what is due; a new batch on the first days; then the learning steps
                // through the day until nothing is due before midnight.
                for round in 0..<6 {
                    let at = StudyRhythmTests.monday.addingTimeInterval(Double(day) * 86_400 + 9 * 3_600 + Double(round) * 1_800)
                    var items = try due(by: day)
                    if round == 0, learned < questions.count, day < 3 {
                        let fresh = Array(questions[learned..<min(questions.count, learned + newPerDay)])
                        learned += fresh.count
                        items += fresh
                    }
                    if items.isEmpty { break }
                    try answer(items, at: at, pattern: &pattern)
                    count += items.count
                }
                done.append(count)
            }
            return done
        }

        /// How many of Alice's cards a rebuild from her history changes.
        func rebuildDiffers() throws -> Int {
            try pool.asCaller(account) { try ReviewCardStore().rebuild($0).differing }
        }
    }

    @Test("studying day by day with spread reviews, Sundays off and a holiday: nothing due on a Sunday or in the holiday, and a rebuild changes no card")
    func onlineEqualsRebuild() throws {
        let student = try Student(easyDays: "nnnnnrx", holiday: 22...29)
        let days = try student.study(days: 40)
        for sunday in stride(from: 6, to: 40, by: 7) {
            #expect(days[sunday] == 0, "Sunday \(sunday): \(days[sunday]) reviews")
        }
        for day in 22...29 {
            #expect(days[day] == 0, "holiday day \(day): \(days[day]) reviews")
        }
        #expect(days.reduce(0, +) > 150, "a real history: \(days)")
        #expect(try student.rebuildDiffers() == 0, "every card is what its history replayed makes it")
    }

    @Test("an offline batch that arrives late is scheduled as if it had come in order: a rebuild changes nothing")
    func lateBatchEqualsRebuild() throws {
        let student = try Student(easyDays: "nnnnnnn", holiday: nil)
        _ = try student.study(days: 10)
        // Answers given on day 4 at dawn, offline, uploaded on day 10 in one batch.
        let offline = Array(student.questions.suffix(5))
        let at = Self.monday.addingTimeInterval(4 * 86_400 + 6 * 3_600)
        try student.database.setClock(Self.monday.addingTimeInterval(10 * 86_400 + 12 * 3_600))
        try student.pool.asCaller(student.account) { connection in
            let session = try StudyStore().create(NewStudySession(
                userID: student.account.id, examID: student.examID, mode: .practice, config: [:], questionIDs: offline, startedAt: at), connection)
            let key = MiniExam.items[0].key
            _ = try AnswerRecorder().recordAll(offline.enumerated().map { offset, item in
                RecordedAnswer(
                    id: UUID(), sessionID: session, questionID: item, questionVersion: 1, response: .indexes(key), correct: true, score: 1,
                    rating: .good, milliseconds: 6_000, answeredAt: at.addingTimeInterval(Double(offset) * 15))
            }, userID: student.account.id, connection)
        }
        #expect(try student.rebuildDiffers() == 0)
    }

    @Test("a mock exam's answers, applied when it ends, are what a rebuild makes of them, spread reviews and a day off on")
    func mockFinishEqualsRebuild() throws {
        let student = try Student(easyDays: "nnnnnnx", holiday: nil)
        _ = try student.study(days: 12)
        let at = Self.monday.addingTimeInterval(12 * 86_400 + 10 * 3_600)
        let questions = Array(student.questions.prefix(30))
        // A mock begins now, on the server's clock, and lasts a minute: answered within it.
        try student.database.setClock(at)
        let session = try student.pool.asCaller(student.account) { connection in
            try StudyStore().create(NewStudySession(
                userID: student.account.id, examID: student.examID, mode: .mock, config: [:], questionIDs: questions, startedAt: at), connection)
        }
        try student.database.setClock(at.addingTimeInterval(40))
        try student.pool.asCaller(student.account) { connection in
            let key = MiniExam.items[0].key
            for (offset, item) in questions.enumerated() {
                let right = offset % 4 != 0
                _ = try AnswerRecorder().record(RecordedAnswer(
                    id: UUID(), sessionID: session, questionID: item, questionVersion: 1, response: .indexes(right ? key : [(key[0] + 1) % 4]),
                    correct: right, score: right ? 1 : 0, rating: right ? .good : .again, milliseconds: 1_000,
                    answeredAt: at.addingTimeInterval(Double(offset))), userID: student.account.id, connection)
            }
            #expect(try StudyStore().finish(sessionID: session, at: at.addingTimeInterval(40), connection))
        }
        #expect(try student.database.adminConnection().query("SELECT count(*) AS n FROM review_cards WHERE last_review = \(at.addingTimeInterval(40))")
            .single().decode("n", as: Int.self) == 30, "the mock's answers reviewed their cards when it ended")
        #expect(try student.rebuildDiffers() == 0)
    }
}
