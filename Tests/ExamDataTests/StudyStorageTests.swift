import ExamData
import Foundation
import PostgresClient
import QuestionEngine
import TestSupport
import Testing

/// Sessions, answers and review cards as the database keeps them, through real `portal_app`
/// connections: idempotent uploads, append-only answers, ownership, derived cards.
@Suite("Study storage", .onTestThreads)
struct StudyStorageTests {
    final class Fixture {
        let database: TestDatabase
        let pool: ConnectionPool
        let examID: Int
        let aliceAccount: TestAccount, bobAccount: TestAccount
        var alice: UUID { aliceAccount.id }
        var bob: UUID { bobAccount.id }
        let now = Date(timeIntervalSince1970: 1_800_000_000)

        init() throws {
            database = try TestDatabase(migrated: true)
            examID = try MiniExam.install(try database.adminConnection())
            aliceAccount = try database.makeAccount("alice", displayName: "Alice")
            bobAccount = try database.makeAccount("bob", displayName: "Bob")
            pool = database.appPool()
            // The database's clock reads the fixture's "now", as the server's would.
            try database.setClock(now)
        }

        /// Statements as Alice or Bob (by their session token), or as a guest (by a guest token).
        func `as`<Value>(_ user: UUID?, guest: String = "", _ body: (PostgresConnection) throws -> Value) throws -> Value {
            let account = user == alice ? aliceAccount : user == bob ? bobAccount : nil
            return try pool.asCaller(account, guestToken: guest.isEmpty ? nil : guest, body)
        }

        func session(for user: UUID?, guest: String = "", mode: StudyMode = .practice) throws -> UUID {
            try self.as(user, guest: guest) { connection in
                try StudyStore().create(NewStudySession(
                    userID: user, examID: examID, mode: mode, config: [:], questionIDs: MiniExam.items.map(\.id), startedAt: now), connection)
            }
        }

        func answer(_ session: UUID, _ item: MiniExam.Item, response: [Int]? = nil, id: UUID = UUID(), rating: FSRSRating? = .good, at: Date? = nil) -> RecordedAnswer {
            // A rating goes with its correctness: Again is a wrong answer, anything else a right one.
            let response = response ?? (rating == .again ? item.wrong : item.key)
            return RecordedAnswer(
                id: id, sessionID: session, questionID: item.id, questionVersion: 1, response: .indexes(response), correct: response == item.key,
                score: response == item.key ? 1 : 0, rating: rating, milliseconds: 4000, answeredAt: at ?? now)
        }
    }

    @Test("the database rates each answer (what the device sends is not taken): wrong Again, right Good; once five right answers at a difficulty make a typical time, much slower is Hard and much quicker on a card in review Easy")
    func ratingsAreTheDatabases() throws {
        let fixture = try Fixture()
        let item = MiniExam.items[0]
        /// Answers `item` in a session of its own, taking `milliseconds`; the rating stored.
        func rated(right: Bool, milliseconds: Int, sent: FSRSRating = .easy) throws -> Int {
            let session = try fixture.session(for: fixture.alice)
            var answer = fixture.answer(session, item, response: right ? item.key : item.wrong, rating: sent)
            answer.milliseconds = milliseconds
            try fixture.as(fixture.alice) { _ = try AnswerRecorder().record(answer, userID: fixture.alice, $0) }
            return try fixture.database.adminConnection().query("SELECT rating FROM answers WHERE id = \(answer.id)").single().decode("rating", as: Int.self)
        }
        #expect(try rated(right: false, milliseconds: 4_000) == 1, "wrong is Again, whatever was sent")
        // Fewer than five right answers at this difficulty: every right one is Good, however slow.
        for _ in 0..<4 { #expect(try rated(right: true, milliseconds: 4_000) == 3) }
        #expect(try rated(right: true, milliseconds: 60_000, sent: .hard) == 3, "a typical time needs five answers")
        // Five right answers now: about 4 s is typical (a median is not moved by one slow one).
        #expect(try rated(right: true, milliseconds: 4_000) == 3)
        #expect(try rated(right: true, milliseconds: 9_000, sent: .good) == 2, "more than twice the typical time is Hard")
        func card(_ state: String) throws {
            try fixture.database.adminConnection().execute("UPDATE review_cards SET state = \(state) WHERE user_id = \(fixture.alice) AND question_id = \(item.id)")
        }
        try card("learning")
        #expect(try rated(right: true, milliseconds: 1_000, sent: .good) == 3, "quick on a card not yet in review is Good")
        try card("review")
        #expect(try rated(right: true, milliseconds: 1_000, sent: .good) == 4, "under half the typical time on a card in review is Easy")
    }

    @Test("an answer uploaded twice is stored once; the same id with other content is a conflict and changes nothing")
    func idempotentUpload() throws {
        let fixture = try Fixture()
        let session = try fixture.session(for: fixture.alice)
        let item = MiniExam.items[0]
        let first = fixture.answer(session, item)
        let store = StudyStore()
        #expect(try fixture.as(fixture.alice) { try AnswerRecorder().record(first, userID: fixture.alice, $0) } == .inserted)
        #expect(try fixture.as(fixture.alice) { try AnswerRecorder().record(first, userID: fixture.alice, $0) } == .replayed)
        var changed = first
        changed.response = .indexes(item.wrong)
        #expect(try fixture.as(fixture.alice) { try AnswerRecorder().record(changed, userID: fixture.alice, $0) } == .conflict)
        // Another student reusing the id (say, a forged upload) neither sees nor replaces it.
        let bobs = try fixture.session(for: fixture.bob)
        var stolen = first
        stolen.sessionID = bobs
        #expect(try fixture.as(fixture.bob) { try AnswerRecorder().record(stolen, userID: fixture.bob, $0) } == .conflict)
        let stored = try fixture.as(fixture.alice) { try store.finalAnswers(sessionID: session, $0) }
        #expect(stored.count == 1)
        #expect(stored[item.id]?.response == .indexes(item.key))
    }

    @Test("answers are append-only: the app role can neither change nor delete one", arguments: [
        "UPDATE answers SET correct = NOT correct", "DELETE FROM answers", "TRUNCATE answers",
    ])
    func appendOnly(_ statement: String) throws {
        let fixture = try Fixture()
        let session = try fixture.session(for: fixture.alice)
        _ = try fixture.as(fixture.alice) { try AnswerRecorder().record(fixture.answer(session, MiniExam.items[0]), userID: fixture.alice, $0) }
        #expect {
            try fixture.as(fixture.alice) { try $0.execute(SQL(stringLiteral: statement)) }
        } throws: { ($0 as? PostgresError)?.isInsufficientPrivilege == true }
        #expect(try fixture.as(fixture.alice) { try StudyStore().finalAnswers(sessionID: session, $0) }.count == 1)
    }

    @Test("a student sees only their own sessions, and cannot answer into another's")
    func ownership() throws {
        let fixture = try Fixture()
        let session = try fixture.session(for: fixture.alice)
        let store = StudyStore()
        #expect(try fixture.as(fixture.alice) { try store.session(id: session, $0) } != nil)
        #expect(try fixture.as(fixture.bob) { try store.session(id: session, $0) } == nil)
        #expect(try fixture.as(nil) { try store.session(id: session, $0) } == nil)
        #expect(throws: PostgresError.self) {
            try fixture.as(fixture.bob) { try AnswerRecorder().record(fixture.answer(session, MiniExam.items[0]), userID: fixture.bob, $0) }
        }
        // Nor write into it pretending to be its owner.
        #expect(throws: PostgresError.self) {
            try fixture.as(fixture.bob) { try AnswerRecorder().record(fixture.answer(session, MiniExam.items[0]), userID: fixture.alice, $0) }
        }
        #expect(try fixture.as(fixture.alice) { try store.finalAnswers(sessionID: session, $0) }.isEmpty)
    }

    @Test("a guest's sessions belong to whoever holds the guest cookie, and carry no user")
    func guests() throws {
        let fixture = try Fixture()
        let token = String(repeating: "g", count: 43)
        let session = try fixture.session(for: nil, guest: token)
        let store = StudyStore()
        #expect(try fixture.as(nil, guest: token) { try store.session(id: session, $0) }?.userID == nil)
        #expect(try fixture.as(nil, guest: String(repeating: "h", count: 43)) { try store.session(id: session, $0) } == nil)
        #expect(try fixture.as(fixture.alice) { try store.session(id: session, $0) } == nil)
        #expect(try fixture.as(nil, guest: token) { try AnswerRecorder().record(fixture.answer(session, MiniExam.items[1], rating: nil), userID: nil, $0) } == .inserted)
        // Knowing the stored key (the token's hash) is not holding the cookie.
        let key = try fixture.database.superuserConnection().query("SELECT encode(guest_key, 'hex') AS key FROM study_sessions WHERE id = \(session)")
            .single().decode("key", as: String.self)
        #expect(try fixture.as(nil, guest: key) { try store.session(id: session, $0) } == nil)
        // A signed-in student cannot make a guest session by holding a guest cookie too.
        #expect(throws: PostgresError.self) {
            try fixture.as(fixture.alice, guest: token) { connection in
                try connection.execute("""
                    INSERT INTO study_sessions (guest_key, exam_id, mode, question_ids, started_at)
                    VALUES (app_guest_key(), \(fixture.examID), 'practice', ARRAY[\(MiniExam.items[0].id)]::uuid[], \(fixture.now))
                    """)
            }
        }
    }

    @Test("a finished session is frozen, and takes no more answers")
    func frozen() throws {
        let fixture = try Fixture()
        let session = try fixture.session(for: fixture.alice)
        let store = StudyStore()
        #expect(try fixture.as(fixture.alice) { try store.finish(sessionID: session, at: fixture.now, $0) })
        #expect(try fixture.as(fixture.alice) { try store.finish(sessionID: session, at: fixture.now, $0) } == false)
        #expect(throws: PostgresError.self) {
            try fixture.as(fixture.alice) { try $0.execute("UPDATE study_sessions SET flagged = '{}', passed = true WHERE id = \(session)") }
        }
        #expect(throws: PostgresError.self) {
            try fixture.as(fixture.alice) { try AnswerRecorder().record(fixture.answer(session, MiniExam.items[0]), userID: fixture.alice, $0) }
        }
    }

    @Test("the database's forgetting curve is the scheduler's", arguments: [(0.5, 0.0), (2.3, 1.4), (10, 30.2), (120, 400), (0.01, 3)])
    func retrievabilityInSQL(_ stability: Double, _ days: Double) throws {
        let fixture = try Fixture()
        var card = FSRSCard(due: fixture.now)
        card.stability = stability
        card.difficulty = 5
        card.lastReview = fixture.now
        let at = fixture.now.addingTimeInterval(days * 86_400)
        let sql = try fixture.as(nil) {
            try $0.query("SELECT fsrs_retrievability(\(stability), \(fixture.now), \(at)) AS r").first!.decode("r", as: Double.self)
        }
        #expect(abs(sql - FSRSScheduler().retrievability(of: card, at: at)) < 1e-12)
    }

    @Test("review cards kept up to date by the database as answers arrive equal the ones rebuilt from the history, a damaged card is repaired, and the app writes no card")
    func rebuild() throws {
        let fixture = try Fixture()
        let cards = ReviewCardStore()
        let practice = try fixture.session(for: fixture.alice)
        // Practice answers on three days, each applied to its card by the database as it arrives.
        for (day, item, rating) in [(0, MiniExam.items[0], FSRSRating.good), (0, MiniExam.items[1], .again), (1, MiniExam.items[1], .good), (4, MiniExam.items[0], .easy)] {
            let at = fixture.now.addingTimeInterval(Double(day) * 86_400 + Double.random(in: 0...3600))
            try fixture.database.setClock(at)
            let session = day == 0 ? practice : try fixture.session(for: fixture.alice)
            try fixture.as(fixture.alice) { connection in
                _ = try AnswerRecorder().record(fixture.answer(session, item, rating: rating, at: at), userID: fixture.alice, connection)
            }
        }
        // A mock exam: only the final answer per question counts, and only once it has ended.
        try fixture.database.setClock(fixture.now)
        let mock = try fixture.session(for: fixture.alice, mode: .mock)
        let ended = fixture.now.addingTimeInterval(50)
        let store = StudyStore()
        try fixture.database.setClock(fixture.now.addingTimeInterval(10))
        _ = try fixture.as(fixture.alice) {
            try AnswerRecorder().record(fixture.answer(mock, MiniExam.items[2], response: MiniExam.items[2].wrong, rating: .again, at: fixture.now.addingTimeInterval(10)), userID: fixture.alice, $0)
        }
        try fixture.database.setClock(fixture.now.addingTimeInterval(20))
        _ = try fixture.as(fixture.alice) {
            try AnswerRecorder().record(fixture.answer(mock, MiniExam.items[2], rating: .good, at: fixture.now.addingTimeInterval(20)), userID: fixture.alice, $0)
        }
        try fixture.database.setClock(ended)
        try fixture.as(fixture.alice) { connection in
            #expect(try cards.derivedCards(connection)[MiniExam.items[2].id] == nil)
            _ = try store.finish(sessionID: mock, at: ended, connection)
        }
        let result = try fixture.as(fixture.alice) { try cards.rebuild($0) }
        #expect(result.cards == 3)
        #expect(result.differing == 0)
        let mockCard = try fixture.as(fixture.alice) { try cards.storedCards($0)[MiniExam.items[2].id] }
        #expect(mockCard?.reviews == 1)
        #expect(abs((mockCard?.card.lastReview ?? .distantPast).timeIntervalSince(ended)) < 0.001)
        // The cards are what the Swift scheduler makes of the same history (the one the reference
        // vectors hold), to the storage's rounding.
        let derived = try fixture.as(fixture.alice) { try cards.derivedCards($0) }
        let kept = try fixture.as(fixture.alice) { try cards.storedCards($0) }
        #expect(derived.count == 3 && derived.allSatisfy { id, card in kept[id].map { ReviewCardStore.agree($0, card) } ?? false })
        // The app cannot write a card: the student's own connection is refused.
        #expect(throws: PostgresError.self) {
            try fixture.as(fixture.alice) { try $0.execute("UPDATE review_cards SET stability = 999 WHERE question_id = \(MiniExam.items[0].id)") }
        }
        // Damage one card (as the database's own role); the rebuild puts it back as the history says.
        let owner = try fixture.database.adminConnection()
        try owner.execute("SET ROLE portal_auth")
        try owner.execute("UPDATE review_cards SET stability = 999, reviews = 42 WHERE question_id = \(MiniExam.items[0].id)")
        let version = { try owner.query("SELECT data_version FROM users WHERE id = \(fixture.alice)").single().decode("data_version", as: Int64.self) }
        let damaged = try version()
        let all = try ReviewCardStore().rebuildAll(try fixture.database.adminConnection())
        #expect(all.students == 1 && all.cards == 3 && all.differing == 1)
        // The repair changes what Alice's pages show: her data version moves, so kept copies go.
        #expect(try version() != damaged)
        let repaired = try fixture.as(fixture.alice) { try cards.storedCards($0)[MiniExam.items[0].id] }
        #expect(repaired?.reviews == 2)
        #expect(repaired?.card.state == .review)
    }

    @Test("an answer changes its student's data version without a notice of its own (the portal announces its writes); answers a guest made, claimed into an account, still announce themselves")
    func answersChangeTheVersionQuietly() throws {
        let fixture = try Fixture()
        let session = try fixture.session(for: fixture.alice)
        let listener = try fixture.database.adminConnection()
        try listener.listen(PostgresIdentifier("portal_readers")!)
        _ = try listener.notifications(timeout: 0.2)
        let owner = try fixture.database.superuserConnection()
        let version = { try owner.query("SELECT data_version FROM users WHERE id = \(fixture.alice)").single().decode("data_version", as: Int64.self) }
        let before = try version()
        #expect(try fixture.as(fixture.alice) { try AnswerRecorder().record(fixture.answer(session, MiniExam.items[0]), userID: fixture.alice, $0) } == .inserted)
        #expect(try version() != before)
        #expect(try listener.notifications(timeout: 0.5).isEmpty, "an answer's insert sent a notice")
        // A guest's history taken into the account is rare, and says so itself.
        let token = String(repeating: "g", count: 43)
        let guestSession = try fixture.session(for: nil, guest: token)
        _ = try fixture.as(nil, guest: token) { try AnswerRecorder().record(fixture.answer(guestSession, MiniExam.items[1], rating: nil), userID: nil, $0) }
        #expect(try fixture.as(fixture.alice, guest: token) { try StudyStore().claimGuestSessions(guestToken: token, $0) } == 1)
        let heard = try listener.notifications(timeout: 2)
        #expect(heard.contains { $0.payload.hasPrefix(fixture.alice.lowercasedText + ":") }, "\(heard)")
    }

    @Test("the database judges an answer in the statement that stores it and names why it refuses one: another's session, not in the session, answered already, not an answer, an id taken, a finished session")
    func refusalsNameTheirReason() throws {
        let fixture = try Fixture()
        let practice = try fixture.session(for: fixture.alice)
        let first = MiniExam.items[0], second = MiniExam.items[1]
        func send(_ item: MiniExam.Item, _ response: AnswerResponse, id: UUID = UUID(), to session: UUID? = nil, as user: UUID? = nil) throws -> AnswerRecorder.Placement? {
            let statement = try AnswerRecorder.submission(
                id: id, sessionID: session ?? practice, questionID: item.id, response: response, userID: user ?? fixture.alice,
                milliseconds: 4000, answeredAt: fixture.now)
            return try fixture.as(user ?? fixture.alice) { try AnswerRecorder.placement($0.query(statement)) }
        }
        func refusal(_ body: () throws -> Any?) -> AnswerRefusal? {
            do { _ = try body() } catch { return AnswerRefusal(error) }
            return nil
        }
        // Stored: where the student stands comes back with it, and the database decided its worth.
        let id = UUID()
        #expect(try send(second, .indexes(second.key), id: id) == AnswerRecorder.Placement(mode: .practice, number: 2, count: MiniExam.items.count, storedNow: true))
        let stored = try fixture.as(fixture.alice) { try $0.query("SELECT correct, score FROM answers WHERE id = \(id)").single() }
        #expect(try stored.decode("correct", as: Bool.self) && stored.decode("score", as: Double.self) == 1)
        // The same answer again (a reload) is stored once; the same id for another answer is not.
        #expect(try send(second, .indexes(second.key), id: id)?.storedNow == false)
        #expect(refusal { try send(second, .indexes(second.wrong), id: id) } == .idTaken)
        // Practice takes one answer a question.
        #expect(refusal { try send(second, .indexes(second.wrong)) } == .notAdmitted(.answered))
        // What is not an answer to the question is refused with the checker's own reason.
        #expect(refusal { try send(first, .indexes([])) } == .notAnAnswer("empty"))
        #expect(refusal { try send(first, .indexes([9])) } == .notAnAnswer("outOfRange"))
        #expect(refusal { try send(first, .text("Ant")) } == .notAnAnswer("wrongShape"))
        // Bob cannot answer in Alice's session, and is not told whose it is.
        #expect(refusal { try send(first, .indexes(first.key), as: fixture.bob) } == .noSuchSession)
        // A question the session does not hold.
        let shorter = try fixture.as(fixture.alice) { connection in
            try StudyStore().create(NewStudySession(
                userID: fixture.alice, examID: fixture.examID, mode: .practice, config: [:], questionIDs: [first.id], startedAt: fixture.now), connection)
        }
        #expect(refusal { try send(second, .indexes(second.key), to: shorter) } == .notAdmitted(.notInSession))
        // A finished session takes nothing more; nothing refused was stored.
        _ = try fixture.as(fixture.alice) { try StudyStore().finish(sessionID: practice, at: fixture.now, $0) }
        #expect(refusal { try send(first, .indexes(first.key)) } == .notAdmitted(.finished))
        #expect(try fixture.as(fixture.alice) { try $0.query("SELECT count(*) AS n FROM answers").single().decode("n", as: Int.self) } == 1)
    }

    @Test("ending a session stores its score by the one rule: wholly right answers over all its questions, a half-right or unanswered one as wrong, passed from the pass mark up", arguments: [
        // MiniExam's pass mark is 60%. Items: 0, 1 single-choice; 2 multi-choice (key 0, 1, 3); 5, 6 single-choice.
        ([0, 1, 2, 5, 6], [0, 1], 2, 40.0, false),
        ([0, 1, 2, 5, 6], [0, 1, 5], 3, 60.0, true),
        ([0, 1, 2, 5, 6], [0, 1, 2, 5, 6], 5, 100.0, true),
        ([0, 1, 2, 3, 4, 5, 6], [0, 1, 5, 6], 4, 57.14, false),
    ])
    func storedScore(_ asked: [Int], _ rightOnes: [Int], _ correct: Int, _ percent: Double, _ passed: Bool) throws {
        let fixture = try Fixture()
        let items = asked.map { MiniExam.items[$0] }
        let session = try fixture.as(fixture.alice) { connection in
            try StudyStore().create(NewStudySession(
                userID: fixture.alice, examID: fixture.examID, mode: .practice, config: [:], questionIDs: items.map(\.id), startedAt: fixture.now), connection)
        }
        try fixture.as(fixture.alice) { connection in
            for (position, item) in items.enumerated() where position % 4 != 3 || rightOnes.contains(asked[position]) {
                // The multi-choice item, when not right, is answered half right; one in four others is left unanswered.
                let response = rightOnes.contains(asked[position]) ? item.key : item.kind == "multi-choice" ? Array(item.key.prefix(2)) : item.wrong
                _ = try AnswerRecorder().record(fixture.answer(session, item, response: response), userID: fixture.alice, connection)
            }
            #expect(try StudyStore().finish(sessionID: session, at: fixture.now, connection))
        }
        let row = try fixture.as(fixture.alice) { try $0.query("SELECT score_correct, score_percent::float8 AS p, passed FROM study_sessions WHERE id = \(session)").single() }
        #expect(try row.decode("score_correct", as: Int.self) == correct)
        #expect(try row.decode("p", as: Double.self) == percent)
        #expect(try row.decode("passed", as: Bool.self) == passed)
        let halfRight = try fixture.as(fixture.alice) { try $0.query("SELECT count(*) AS n FROM answers WHERE question_id = \(MiniExam.items[2].id) AND score > 0 AND score < 1 AND NOT correct").single().decode("n", as: Int.self) }
        #expect(halfRight == (rightOnes.contains(2) || !asked.contains(2) ? 0 : 1), "the multi-choice answer was half right and counted as wrong")
    }

    @Test("a student's chosen retention spaces their reviews: changing it reschedules their cards from their history, and only they can change it")
    func desiredRetention() throws {
        let fixture = try Fixture()
        let practice = try fixture.session(for: fixture.alice)
        let item = MiniExam.items[0]
        // Right twice, a quarter of an hour apart: the card leaves its learning steps for review,
        // where the interval is the retention's to decide.
        try fixture.database.setClock(fixture.now)
        try fixture.as(fixture.alice) { connection in
            _ = try AnswerRecorder().record(fixture.answer(practice, item, at: fixture.now), userID: fixture.alice, connection)
        }
        let later = fixture.now.addingTimeInterval(900)
        try fixture.database.setClock(later)
        let again = try fixture.session(for: fixture.alice)
        try fixture.as(fixture.alice) { connection in
            _ = try AnswerRecorder().record(fixture.answer(again, item, at: later), userID: fixture.alice, connection)
        }
        #expect(try fixture.as(fixture.alice) { try ReviewCardStore().storedCards($0)[item.id]?.card.state } == .review)
        func due() throws -> Date {
            try fixture.as(fixture.alice) { try ReviewCardStore().storedCards($0)[item.id]?.card.due ?? .distantPast }
        }
        let atDefault = try due()
        try fixture.as(fixture.alice) { try AccountStore().setDesiredRetention(0.97, $0) }
        let atHigh = try due()
        try fixture.as(fixture.alice) { try AccountStore().setDesiredRetention(0.70, $0) }
        let atLow = try due()
        #expect(atHigh < atDefault && atDefault < atLow, "due at 0.97 \(atHigh), 0.90 \(atDefault), 0.70 \(atLow)")
        #expect(try fixture.as(fixture.alice) { try ReviewCardStore().rebuild($0).differing } == 0)
        #expect(try fixture.as(fixture.alice) { try StudentSchedule.of(nil, $0).desiredRetention } == 0.70)
        // Out of FSRS's range: refused by the table itself.
        let refused = #expect(throws: PostgresError.self) {
            try fixture.as(fixture.alice) { try AccountStore().setDesiredRetention(0.5, $0) }
        }
        #expect(refused?.isCheckViolation == true)
        // Nobody sets another student's.
        let changed = try fixture.as(fixture.bob) { try $0.execute("UPDATE users SET desired_retention = 0.97 WHERE id = \(fixture.alice)") }
        #expect(changed == 0)
        #expect(try fixture.as(fixture.alice) { try StudentSchedule.of(nil, $0).desiredRetention } == 0.70)
    }

    @Test("above 90%, a higher retention asks for more reviews of the same cards (below, lapses cost about what longer intervals save)")
    func retentionCostsReviews() {
        let now = Date(timeIntervalSince1970: 1_780_000_000)
        let cards = (0..<200).map { index -> FSRSCard in
            let scheduler = FSRSScheduler()
            var card = scheduler.review(FSRSCard(due: now), rating: index % 3 == 0 ? .easy : .good, at: now.addingTimeInterval(-Double(index % 20) * 86_400))
            card = scheduler.review(card, rating: .good, at: card.due)
            return card
        }
        let perDay = [0.70, 0.80, 0.90, 0.95, 0.97].map {
            WorkloadSimulator(scheduler: FSRSScheduler(parameters: FSRSParameters(desiredRetention: $0))).run(cards, days: 30, start: now).meanReviews
        }
        #expect(perDay[2] < perDay[3] && perDay[3] < perDay[4], "\(perDay)")
        #expect(perDay[4] > 2 * max(perDay[0], perDay[1]), "\(perDay)")
    }
}
