import ExamData
import Foundation
import HTTPServer
import Identifiers
import QuestionEngine
import RedisClient

/// This instance's live-event streams. Phase changes (a question opening, closing, the end)
/// follow from each event's start time, so every instance announces them on its own clock to
/// its own listeners, and all see the same question at the same moment; score changes and the
/// start arrive from whichever instance took them, through Redis pub/sub.
final class LiveHub: @unchecked Sendable {
    private struct Watch {
        var event: LiveEvent
        var streams: [ObjectIdentifier: EventStream] = [:]
        var lastPhase: LiveSchedule.Phase?
    }

    private let clock: @Sendable () -> Date
    /// Writes an ended event's results; false when the database does not see it ended yet.
    private let finish: @Sendable (LiveEvent) -> Bool
    /// Ended events whose results are not written yet, with when to try again (the database's
    /// clock may trail this server's by a moment).
    private var unfinished: [String: (event: LiveEvent, retryAt: Date, attempts: Int)] = [:]
    private let endpoint: RedisEndpoint?
    private var subscriber: RedisSubscriber?
    private let lock = NSLock()
    private var watches: [String: Watch] = [:]
    private var stopped = false
    /// Whether Redis answered the last probe (every few seconds, on a connection of its own).
    private var redisAnswered = true
    private var lastProbe = Date.distantPast

    init(endpoint: RedisEndpoint?, clock: @escaping @Sendable () -> Date, finish: @escaping @Sendable (LiveEvent) -> Bool) {
        self.clock = clock
        self.finish = finish
        self.endpoint = endpoint
    }

    /// Starts listening to Redis and the clock.
    func start() {
        if let endpoint {
            let subscriber = RedisSubscriber(endpoint, pattern: "live:*") { [weak self] channel, message in
                self?.received(channel: channel, message: message)
            }
            lock.withLock { self.subscriber = subscriber }
            subscriber.start()
        }
        let thread = Thread { [self] in
            while !lock.withLock({ stopped }) {
                tick()
                probe()
                Thread.sleep(forTimeInterval: 0.05)
            }
        }
        thread.name = "live-clock"
        thread.start()
    }

    /// Whether live events are degraded now: Redis is configured but did not answer its last
    /// probe, or the subscription that fans out scores is not in place (`/readyz` says so).
    var isDegraded: Bool {
        guard endpoint != nil else { return false }
        return lock.withLock { !redisAnswered || !(subscriber?.isSubscribed ?? false) }
    }

    /// A PING every five seconds with a short timeout: a Redis that is down or frozen is noticed
    /// even while no one is playing.
    private func probe() {
        guard let endpoint, Date().timeIntervalSince(lock.withLock({ lastProbe })) >= 5 else { return }
        lock.withLock { lastProbe = Date() }
        let answered = (try? RedisConnection(endpoint, timeout: .milliseconds(500)).command(["PING"]))?.text == "PONG"
        lock.withLock { redisAnswered = answered }
    }

    func stop() {
        let subscriber = lock.withLock { () -> RedisSubscriber? in
            stopped = true
            return self.subscriber
        }
        subscriber?.stop()
        let streams = lock.withLock { watches.values.flatMap { $0.streams.values } }
        streams.forEach { $0.close() }
    }

    /// Whether this instance hears other instances' score changes now.
    var isListening: Bool { lock.withLock { subscriber }?.isSubscribed ?? false }

    /// Adds a listener for an event; it hears the current phase at once and every change after.
    func attach(_ event: LiveEvent, stream: EventStream, scores: String?) {
        let id = ObjectIdentifier(stream)
        let phase = event.schedule?.phase(at: clock())
        lock.withLock {
            var watch = watches[event.code] ?? Watch(event: event)
            if watch.event.startsAt == nil { watch.event = event }
            watch.streams[id] = stream
            if watch.lastPhase == nil { watch.lastPhase = phase }
            watches[event.code] = watch
        }
        stream.onClose { [weak self] in
            self?.lock.withLock {
                self?.watches[event.code]?.streams[id] = nil
                if self?.watches[event.code]?.streams.isEmpty == true { self?.watches[event.code] = nil }
            }
        }
        stream.send(event: "phase", data: Self.phaseMessage(event, phase))
        if let scores { stream.send(event: "scores", data: scores) }
    }

    /// Learns that an event started (from this instance or, through Redis, another).
    func started(_ event: LiveEvent) {
        lock.withLock { watches[event.code]?.event = event }
    }

    private func received(channel: String, message: String) {
        let code = String(channel.dropFirst("live:".count))
        if message.hasPrefix("{\"type\":\"started\"") {
            // Another instance started it: read the start time from the message.
            if let data = message.data(using: .utf8), let started = try? JSONDecoder().decode(StartedMessage.self, from: data) {
                lock.withLock { watches[code]?.event.startsAt = Date(timeIntervalSince1970: started.startsAt) }
            }
            return
        }
        let streams = lock.withLock { watches[code].map { Array($0.streams.values) } ?? [] }
        for stream in streams { stream.send(event: "scores", data: message) }
    }

    struct StartedMessage: Codable {
        var type = "started"
        var startsAt: TimeInterval
    }

    private func tick() {
        let now = clock()
        var announcements: [(streams: [EventStream], message: String)] = []
        var ended: [LiveEvent] = []
        lock.withLock {
            for (code, watch) in watches {
                guard let schedule = watch.event.schedule else { continue }
                let phase = schedule.phase(at: now)
                guard phase != watch.lastPhase else { continue }
                watches[code]?.lastPhase = phase
                announcements.append((Array(watch.streams.values), Self.phaseMessage(watch.event, phase)))
                if phase == .ended { ended.append(watch.event) }
            }
        }
        // Results first, so a listener told "ended" finds them; tried again for a while if the
        // database's clock had not reached the end yet.
        for event in ended where !finish(event) {
            lock.withLock { unfinished[event.code] = (event, Date().addingTimeInterval(0.2), 1) }
        }
        let due = lock.withLock { unfinished.values.filter { $0.retryAt <= Date() } }
        for retry in due {
            let done = finish(retry.event)
            lock.withLock {
                unfinished[retry.event.code] = done || retry.attempts >= 50 ? nil
                    : (retry.event, Date().addingTimeInterval(0.2), retry.attempts + 1)
            }
        }
        for announcement in announcements {
            for stream in announcement.streams { stream.send(event: "phase", data: announcement.message) }
        }
    }

    /// `{"phase":"open","index":2,"questionId":"…","secondsLeft":17}`.
    static func phaseMessage(_ event: LiveEvent, _ phase: LiveSchedule.Phase?) -> String {
        struct Message: Encodable {
            var phase: String
            var index: Int?
            var questionId: String?
            var until: TimeInterval?
        }
        let message: Message = switch phase {
        case nil, .waiting?: Message(phase: "waiting", until: event.startsAt?.timeIntervalSince1970)
        case .open(let index, _, let closes)?:
            Message(phase: "open", index: index, questionId: event.questionIDs[index].lowercasedText, until: closes.timeIntervalSince1970)
        case .reveal(let index, let next)?:
            Message(phase: "reveal", index: index, questionId: event.questionIDs[index].lowercasedText, until: next.timeIntervalSince1970)
        case .ended?: Message(phase: "ended")
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return (try? String(decoding: encoder.encode(message), as: UTF8.self)) ?? "{}"
    }
}
