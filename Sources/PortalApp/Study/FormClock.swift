import ExamData
import Foundation
import Identifiers
import Synchronization

/// The time a question was shown, signed by the server: the answer form carries it back, and
/// the time spent is the server's measure (shown → answer received), never the browser's
/// claim. The key comes from the database, so every instance signs and checks alike; it is
/// read once, on the asking request's own connection (a request never waits for a second
/// connection while holding one: with every connection held that would wait for ever).
final class FormClock: Sendable {
    private let key = Mutex<[UInt8]?>(nil)

    init() {}

    /// A stamp for question `question` of session `session` shown at `date`.
    func stamp(session: UUID, question: UUID, at date: Date, _ database: RequestDatabase) throws -> String {
        Self.stamp(session: session, question: question, at: date, key: try signingKey(database))
    }

    /// The same stamp when the key has been read already (nil before: nothing is read).
    func knownStamp(session: UUID, question: UUID, at date: Date) -> String? {
        key.withLock { $0 }.map { Self.stamp(session: session, question: question, at: date, key: $0) }
    }

    private static func stamp(session: UUID, question: UUID, at date: Date, key: [UInt8]) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        return "\(milliseconds)." + Crypto.hex(signature(session: session, question: question, milliseconds: milliseconds, key: key))
    }

    /// When the question was shown, if `stamp` is one this server made for it.
    func shownAt(_ stamp: String, session: UUID, question: UUID, _ database: RequestDatabase) throws -> Date? {
        let parts = stamp.split(separator: ".", maxSplits: 1)
        guard parts.count == 2, let milliseconds = Int64(parts[0]), parts[1].utf8.count == 64 else { return nil }
        let expected = Crypto.hex(Self.signature(session: session, question: question, milliseconds: milliseconds, key: try signingKey(database)))
        guard Crypto.constantTimeEqual(Array(parts[1].utf8), Array(expected.utf8)) else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(milliseconds) / 1000)
    }

    private static func signature(session: UUID, question: UUID, milliseconds: Int64, key: [UInt8]) -> [UInt8] {
        let message = "\(session.lowercasedText)|\(question.lowercasedText)|\(milliseconds)"
        return Crypto.hmacSHA256(key: key, message: Array(message.utf8))
    }

    private func signingKey(_ database: RequestDatabase) throws -> [UInt8] {
        if let known = key.withLock({ $0 }) { return known }
        let fetched = try database.run { connection in
            try StudyStore.formKey(connection)
        }
        key.withLock { $0 = fetched }
        return fetched
    }
}
