import ExamData
import Foundation
import Identifiers
import QuestionEngine
import RedisClient

/// The running scoreboard of live events, in Redis: a sorted set of points per event, kept by
/// one atomic script per answer (no read-modify-write in the server), and a channel per event
/// on which every server instance hears about changes. An event's keys share a hash tag
/// (`live:{CODE}:…`), so a Redis Cluster keeps them on one node and its scripts run. A board
/// Redis lost (a restart without persistence) is put back from the stored answers.
struct LiveScoreboard: Sendable {
    let redis: RedisPool

    /// Keys expire a day after the last write: the lasting record is in PostgreSQL.
    static let lifetimeSeconds = 86_400

    /// Records one answer, once: adds its base points plus the bonus for the run of right answers
    /// over consecutive questions it ends, taken from the bonuses the database gave with the stored
    /// answer (ARGV[6] onwards, by the run's length; the last one for any longer run). Returns the
    /// points awarded, or -1 when this participant had already answered this question.
    static let scoreScript = """
        if redis.call('SADD', KEYS[1], ARGV[1]) == 0 then return -1 end
        local points = 0
        if ARGV[3] == '1' then
          local streak = 1
          local last = redis.call('HGET', KEYS[3], ARGV[1])
          if last and tonumber(last) == tonumber(ARGV[2]) - 1 then
            streak = tonumber(redis.call('HGET', KEYS[2], ARGV[1]) or '0') + 1
          end
          redis.call('HSET', KEYS[2], ARGV[1], streak)
          redis.call('HSET', KEYS[3], ARGV[1], ARGV[2])
          points = tonumber(ARGV[4]) + tonumber(ARGV[math.min(5 + streak, #ARGV)] or '0')
        else
          redis.call('HSET', KEYS[2], ARGV[1], 0)
        end
        redis.call('ZINCRBY', KEYS[4], points, ARGV[1])
        for i = 1, 4 do redis.call('EXPIRE', KEYS[i], ARGV[5]) end
        return points
        """

    static func channel(_ code: String) -> String { "live:\(code)" }
    static func key(_ code: String, _ name: String) -> String { "live:{\(code)}:\(name)" }

    /// Writes a whole board (names, points, where each run stands) unless the event's names are
    /// still there: whichever instance notices the loss first restores it, once.
    static let restoreScript = """
        if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
        for i = 1, #ARGV - 1, 5 do
          local id = ARGV[i]
          redis.call('HSET', KEYS[1], id, ARGV[i + 1])
          redis.call('ZADD', KEYS[2], ARGV[i + 2], id)
          redis.call('HSET', KEYS[3], id, ARGV[i + 3])
          if ARGV[i + 4] ~= '' then redis.call('HSET', KEYS[4], id, ARGV[i + 4]) end
        end
        for i = 1, 4 do redis.call('EXPIRE', KEYS[i], ARGV[#ARGV]) end
        return 1
        """

    /// Puts the board back from `board()` (the stored answers) when Redis has lost it; the
    /// database is asked only then. True when this call restored it.
    @discardableResult
    func restoreIfLost(code: String, board: () throws -> [LiveBoardEntry]) throws -> Bool {
        guard try redis.command(["EXISTS", Self.key(code, "names")]).number == 0 else { return false }
        let entries = try board()
        guard !entries.isEmpty else { return false }
        var arguments = ["EVAL", Self.restoreScript, "4",
                         Self.key(code, "names"), Self.key(code, "scores"), Self.key(code, "streak"), Self.key(code, "last-right")]
        for entry in entries {
            arguments += [entry.participantID.lowercasedText, entry.nickname, String(entry.points), String(entry.streak),
                          entry.lastRight.map(String.init) ?? ""]
        }
        arguments.append(String(Self.lifetimeSeconds))
        return try redis.command(arguments).number == 1
    }

    /// Puts a participant on the board with no points yet.
    func register(code: String, participant: UUID, nickname: String) throws {
        let id = participant.lowercasedText
        try redis.withConnection { connection in
            try connection.command(["HSET", Self.key(code, "names"), id, nickname])
            try connection.command(["ZADD", Self.key(code, "scores"), "NX", "0", id])
            try connection.command(["EXPIRE", Self.key(code, "names"), String(Self.lifetimeSeconds)])
            try connection.command(["EXPIRE", Self.key(code, "scores"), String(Self.lifetimeSeconds)])
        }
    }

    /// Adds a stored answer to the board with the points the database gave it; nil when the
    /// board already had this participant's answer to that question.
    func score(code: String, _ answer: LiveAnswerRecord) throws -> Int? {
        let reply = try redis.command([
            "EVAL", Self.scoreScript, "4",
            Self.key(code, "answered:\(answer.questionIndex)"), Self.key(code, "streak"), Self.key(code, "last-right"), Self.key(code, "scores"),
            answer.participantID.lowercasedText, String(answer.questionIndex), answer.correct ? "1" : "0", String(answer.basePoints),
            String(Self.lifetimeSeconds),
        ] + answer.runBonuses.map(String.init))
        guard let points = reply.number, points >= 0 else { return nil }
        return points
    }

    /// The best `count` participants with their points.
    func top(code: String, count: Int) throws -> [(nickname: String, points: Int)] {
        try redis.withConnection { connection in
            let flat = try connection.command(["ZREVRANGE", Self.key(code, "scores"), "0", String(count - 1), "WITHSCORES"]).elements
            let ids = stride(from: 0, to: flat.count - 1, by: 2).compactMap { flat[$0].text }
            guard !ids.isEmpty else { return [] }
            let names = try connection.command(["HMGET", Self.key(code, "names")] + ids).elements
            return ids.indices.map { index in (names[index].text ?? "?", flat[index * 2 + 1].number ?? 0) }
        }
    }

    /// Every participant's points, by participant id.
    func allScores(code: String) throws -> [UUID: Int] {
        let flat = try redis.command(["ZRANGE", Self.key(code, "scores"), "0", "-1", "WITHSCORES"]).elements
        var scores: [UUID: Int] = [:]
        for index in stride(from: 0, to: flat.count - 1, by: 2) {
            if let id = flat[index].text.flatMap(UUID.init(uuidString:)) { scores[id] = flat[index + 1].number ?? 0 }
        }
        return scores
    }

    /// A participant's place (1-based) and points.
    func standing(code: String, participant: UUID) throws -> (place: Int, points: Int)? {
        let id = participant.lowercasedText
        return try redis.withConnection { connection in
            guard let rank = try connection.command(["ZREVRANK", Self.key(code, "scores"), id]).number else { return nil }
            return (rank + 1, try connection.command(["ZSCORE", Self.key(code, "scores"), id]).number ?? 0)
        }
    }

    /// How many have joined.
    func size(code: String) throws -> Int {
        try redis.command(["ZCARD", Self.key(code, "scores")]).number ?? 0
    }

    /// Tells every server instance (and so every participant's stream) what changed.
    func publish(code: String, _ message: String) throws {
        try redis.command(["PUBLISH", Self.channel(code), message])
    }
}
