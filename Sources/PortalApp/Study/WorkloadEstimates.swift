import ExamData
import Foundation
import QuestionEngine

/// What each retention choice would ask of a student, before they choose: their own cards
/// simulated with their own weights and calendar (`WorkloadSimulator`, the expected student)
/// over 30, 90 and 365 days — reviews a day, minutes a day at their own pace, how much they
/// would remember — with one choice recommended and why. The simulation runs in the background
/// (`drain`, a loop in a served portal), never in a request: the page reads what was kept for
/// the same cards, schedule, calendar and day, and says the estimate is being worked out until
/// it is. Deterministic, so the same inputs always give the same figures.
final class WorkloadEstimates: @unchecked Sendable {  // the queue and the kept results are guarded by `lock`
    /// The horizons shown, in days.
    static let horizons = [30, 90, 365]
    /// A choice is recommended while its time a day stays within this of the lightest choice's.
    static let recommendedCostLimit = 1.5
    /// Cards a student holds before a retention is recommended: from fewer, the estimate says
    /// too little (ten cards suggested 97%, at a few seconds a day whatever the choice).
    static let recommendationCards = 50
    /// Results kept at most (a student's newest replaces their older one).
    static let capacity = 5_000

    /// One choice's figures.
    struct Figures: Sendable {
        var retention: Double
        /// Per horizon: reviews a day, minutes a day, mean recall.
        var reviews: [Double]
        var minutes: [Double]
        var recall: [Double]
    }

    /// What the student's week does, at their own retention over 90 days: reviews on a normal
    /// day and on the busiest, as set and with every day normal.
    struct Week: Sendable {
        var normalDay: Double
        var busiest: Double
        var plainNormalDay: Double
        var plainBusiest: Double
        /// The week has lighter days or days off (else the two are the same).
        var hasEasyDays: Bool
    }

    /// Everything worked out for one student's inputs.
    struct Estimate: Sendable {
        var figures: [Figures]
        var week: Week
    }

    private let pages: PageRenderer
    private let lock = NSLock()
    private var waiting: [(user: UUID, key: String, inputs: WorkloadInputs)] = []
    private var kept: [UUID: (key: String, estimate: Estimate)] = [:]
    private var loop: BackgroundLoop?

    init(pages: PageRenderer) {
        self.pages = pages
    }

    /// The estimates on the page for `user` from `inputs` (read with the page): what was kept
    /// for them, or queued.
    func view(for user: SessionUser, inputs: WorkloadInputs, locale: String) -> View {
        guard !inputs.cards.isEmpty else { return View(empty: true) }
        let key = Self.key(inputs)
        let found: Estimate? = lock.withLock {
            if let kept = kept[user.userID], kept.key == key { return kept.estimate }
            if !waiting.contains(where: { $0.user == user.userID && $0.key == key }) {
                waiting.removeAll { $0.user == user.userID }
                waiting.append((user.userID, key, inputs))
            }
            return nil
        }
        guard let found else {
            loop?.wake()
            return View(working: true)
        }
        return View(found.figures, week: found.week, current: inputs.schedule.desiredRetention, cards: inputs.cards.count, pages: pages, locale: locale)
    }

    /// Works out every queued estimate now; returns how many (tests call this).
    @discardableResult
    func drain() -> Int {
        var done = 0
        while let job = lock.withLock({ waiting.isEmpty ? nil : waiting.removeFirst() }) {
            let estimate = Estimate(figures: Self.estimate(job.inputs), week: Self.week(job.inputs))
            lock.withLock {
                if kept.count >= Self.capacity, kept[job.user] == nil { kept.removeAll() }
                kept[job.user] = (job.key, estimate)
            }
            done += 1
        }
        return done
    }

    func start() {
        let loop = BackgroundLoop(name: "workload", interval: 30) { [self] in drain() }
        self.loop = loop
        loop.start()
    }

    func stop() { loop?.stop() }

    /// Every retention choice simulated from the student's today.
    static func estimate(_ inputs: WorkloadInputs) -> [Figures] {
        let longest = horizons.max() ?? 365
        return AccountStore.retentionChoices.map { retention in
            let scheduler = StudentSchedule(desiredRetention: retention, weights: inputs.schedule.weights).scheduler
            let outcome = WorkloadSimulator(scheduler: scheduler, calendar: inputs.calendar, recall: .expected)
                .run(inputs.cards, days: longest, start: inputs.todayStart)
            let spans = horizons.map { outcome.prefix($0) }
            return Figures(
                retention: retention, reviews: spans.map(\.reviews),
                minutes: spans.map { $0.reviews * Double(inputs.secondsPerReview) / 60 }, recall: spans.map(\.recall))
        }
    }

    /// The student's week at their own retention, as set and with every day normal.
    static func week(_ inputs: WorkloadInputs) -> Week {
        let scheduler = inputs.schedule.scheduler, calendar = inputs.calendar, days = 90
        func run(_ calendar: StudyCalendar) -> (normal: Double, busiest: Double) {
            let perDay = WorkloadSimulator(scheduler: scheduler, calendar: calendar, recall: .expected)
                .run(inputs.cards, days: days, start: inputs.todayStart).reviewsPerDay
            let normal = perDay.indices.filter { calendar.capacity($0) == 1 }.map { perDay[$0] }
            return (normal.isEmpty ? 0 : normal.reduce(0, +) / Double(normal.count), perDay.max() ?? 0)
        }
        var plain = calendar
        plain.week = Array(repeating: .normal, count: 7)
        plain.holidays = []
        let set = run(calendar), everyDay = run(plain)
        return Week(
            normalDay: set.normal, busiest: set.busiest, plainNormalDay: everyDay.normal, plainBusiest: everyDay.busiest,
            hasEasyDays: calendar.week.contains { $0 != .normal })
    }

    /// What the inputs are, in a few bytes: the same key, the same figures.
    static func key(_ inputs: WorkloadInputs) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ value: UInt64) { hash = (hash ^ value) &* 0x100_0000_01b3 }
        for card in inputs.cards.sorted(by: { ($0.due, $0.stability ?? 0) < ($1.due, $1.stability ?? 0) }) {
            mix(UInt64(bitPattern: Int64(card.due.timeIntervalSince1970)))
            mix((card.stability ?? 0).bitPattern)
            mix((card.difficulty ?? 0).bitPattern)
        }
        for weight in inputs.schedule.weights ?? [] { mix(weight.bitPattern) }
        mix(inputs.schedule.desiredRetention.bitPattern)
        mix(UInt64(inputs.secondsPerReview))
        let calendar = inputs.calendar
        return "\(inputs.rhythm.today)|\(calendar.balance)|\(String(calendar.week.map(\.letter)))|\(calendar.holidays.sorted())|\(hash)"
    }

    /// The estimates as the page shows them.
    struct View: Encodable {
        struct Row: Encodable {
            var percent: String
            var cells: [String]
            var current: Bool
            var recommended: Bool
            /// The curve is flat here: no lighter than the next choice up.
            var flat: String?
        }
        var empty = false
        var working = false
        var ready = false
        var headers: [String] = []
        var rows: [Row] = []
        var chart: String = ""
        var recommendation: String?
        /// What the student's week does to their days.
        var week: [String] = []

        init(empty: Bool = false, working: Bool = false) {
            self.empty = empty
            self.working = working
        }

        init(_ figures: [Figures], week: Week, current: Double, cards: Int, pages: PageRenderer, locale: String) {
            ready = true
            let quarter = 1 // the 90-day horizon: what the chart and the recommendation use
            let lightest = figures.map { $0.minutes[quarter] }.min() ?? 0
            let recommended = cards < WorkloadEstimates.recommendationCards
                ? nil : figures.last { $0.minutes[quarter] <= lightest * WorkloadEstimates.recommendedCostLimit + 0.5 }
            func percent(_ value: Double) -> String { Percentages.format(value, locale: locale) }
            func number(_ value: Double) -> String {
                let formatter = NumberFormatter()
                formatter.locale = Locale(identifier: locale)
                formatter.maximumFractionDigits = value < 10 ? 1 : 0
                formatter.minimumFractionDigits = 0
                // A few seconds a day is not "0 minutes": under a tenth, "<0.1".
                if value > 0 && value < 0.05 { return "<" + (formatter.string(from: 0.1) ?? "0.1") }
                return formatter.string(from: NSNumber(value: value)) ?? String(value)
            }
            headers = [pages.message("rhythm.estimate_retention", locale: locale)] + WorkloadEstimates.horizons.map {
                pages.message("rhythm.estimate_horizon", locale: locale, ["days": String($0)])
            } + [pages.message("rhythm.estimate_recall", locale: locale)]
            rows = figures.enumerated().map { index, figure in
                let next = index + 1 < figures.count ? figures[index + 1] : nil
                return Row(
                    percent: percent(figure.retention),
                    cells: WorkloadEstimates.horizons.indices.map { span in
                        pages.message("rhythm.estimate_cell", locale: locale, [
                            "reviews": number(figure.reviews[span]), "minutes": number(figure.minutes[span]),
                        ])
                    } + [percent(figure.recall[quarter])],
                    current: abs(figure.retention - current) < 0.001, recommended: figure.retention == recommended?.retention,
                    flat: next.flatMap { next in
                        figure.minutes[quarter] >= next.minutes[quarter] * 0.98
                            ? pages.message("rhythm.estimate_flat", locale: locale, ["next": percent(next.retention)]) : nil
                    })
            }
            if let recommended {
                recommendation = pages.message("rhythm.estimate_recommended", locale: locale, [
                    "percent": percent(recommended.retention), "minutes": number(recommended.minutes[quarter]),
                    "recall": percent(recommended.recall[quarter]),
                ])
            } else {
                recommendation = pages.message("rhythm.estimate_too_few", locale: locale, ["count": String(WorkloadEstimates.recommendationCards)])
            }
            self.week = [pages.message("rhythm.week_estimate", locale: locale, [
                "normal": number(week.normalDay), "busiest": number(week.busiest.rounded()),
            ])] + (week.hasEasyDays ? [pages.message("rhythm.week_estimate_plain", locale: locale, [
                "normal": number(week.plainNormalDay), "busiest": number(week.plainBusiest.rounded()),
            ])] : [])
            chart = BarChartSVG.svg(
                bars: figures.map {
                    BarChartSVG.Bar(
                        label: percent($0.retention), value: $0.minutes[quarter], marked: $0.retention == recommended?.retention,
                        figure: number($0.minutes[quarter]))
                },
                title: pages.message("rhythm.chart_title", locale: locale),
                description: pages.message("rhythm.chart_description", locale: locale),
                unit: pages.message("rhythm.chart_unit", locale: locale), id: "workload-chart")
        }
    }
}
