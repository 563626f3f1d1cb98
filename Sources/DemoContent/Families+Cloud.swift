import Foundation
import QuestionEngine

/// The cloud exam: availability, cost, capacity and time, computed.
extension Families {
    static func format(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : format2(value)
    }

    static func format2(_ value: Double) -> String {
        let scaled = (value * 100).rounded() / 100
        return scaled == scaled.rounded() ? String(Int(scaled)) : String(scaled)
    }

    static func availability(_ key: String, _ index: Int, _ r: inout Random) -> NewQuestion {
        let targets = [99.0, 99.5, 99.9, 99.95, 99.99, 99.999]
        let target = targets[index % targets.count]
        let days = [30, 365][index / targets.count % 2]
        let minutes = Double(days) * 24 * 60 * (100 - target) / 100
        let period = days == 30 ? "a 30-day month" : "a 365-day year"
        return QuestionBuilder.single(
            key: key, stem: "An SLA promises \(format(target))% availability. How many minutes of downtime does it allow in \(period)? (to two decimals)",
            answer: Choice(text: format2(minutes), explanation: ""),
            distractors: [
                Choice(text: format2(minutes * 10), explanation: "That is one nine fewer."),
                Choice(text: format2(minutes / 10), explanation: "That is one nine more."),
                Choice(text: format2(minutes / 60), explanation: "That is the figure in hours."),
                Choice(text: format2(minutes * (days == 30 ? 365.0 / 30 : 30.0 / 365)), explanation: "That uses the other period."),
            ],
            explanation: "\(days) days × 1,440 minutes × \(format(100 - target))% = \(format2(minutes)) minutes.",
            difficulty: target >= 99.99 ? 4 : target >= 99.9 ? 3 : 2, using: &r)
    }

    static func computeCost(_ key: String, _ index: Int, _ r: inout Random) -> NewQuestion {
        let cents = Int.random(in: 2...90, using: &r)
        let instances = Int.random(in: 1...12, using: &r)
        let hours = [8, 12, 24][index % 3]
        let days = Int.random(in: 5...30, using: &r)
        let total = Double(cents * instances * hours * days) / 100
        return QuestionBuilder.single(
            key: key, stem: "\(instances) virtual machines cost $\(format2(Double(cents) / 100)) per hour each and run \(hours) hours a day for \(days) days. What is the total cost in dollars?",
            answer: Choice(text: format2(total), explanation: ""),
            distractors: [
                Choice(text: format2(total / Double(instances)), explanation: "That is the cost of one machine."),
                Choice(text: format2(Double(cents * instances * 24 * days) / 100), explanation: "That assumes they run all day."),
                Choice(text: format2(total * 10), explanation: "Check the hourly price: it is in dollars, not dimes."),
                Choice(text: format2(Double(cents * instances * hours) / 100), explanation: "That is one day's cost."),
            ],
            explanation: "\(instances) × $\(format2(Double(cents) / 100)) × \(hours) h × \(days) days = $\(format2(total)).",
            difficulty: DemoCorpus.difficulty(index), using: &r)
    }

    static func storageUnits(_ key: String, _ index: Int, _ r: inout Random) -> NewQuestion {
        let amount = Int.random(in: 1...50, using: &r)
        let bytesInGB = 1_000_000_000.0, bytesInGiB = 1_073_741_824.0
        let gib = Double(amount) * bytesInGB / bytesInGiB
        return QuestionBuilder.single(
            key: key, stem: "A provider sells a \(amount) GB volume (decimal gigabytes). About how many GiB is that? (to two decimals)",
            answer: Choice(text: format2(gib), explanation: ""),
            distractors: [
                Choice(text: format2(Double(amount)), explanation: "GB and GiB differ by about 7%."),
                Choice(text: format2(Double(amount) * bytesInGiB / bytesInGB), explanation: "That converts in the wrong direction."),
                Choice(text: format2(Double(amount) * 8), explanation: "That converts bytes to bits."),
            ],
            explanation: "\(amount) × 10⁹ bytes ÷ 2³⁰ bytes per GiB ≈ \(format2(gib)) GiB.",
            difficulty: amount < 10 ? 2 : 3, using: &r)
    }

    static func transferTime(_ key: String, _ index: Int, _ r: inout Random) -> NewQuestion {
        let gigabytes = Int.random(in: 1...500, using: &r)
        let megabits = [10, 50, 100, 200, 500, 1000][index % 6]
        let seconds = Double(gigabytes) * 8000 / Double(megabits)
        return QuestionBuilder.single(
            key: key, stem: "How many minutes does it take to move \(gigabytes) GB over a \(megabits) Mbit/s link at full speed? (to two decimals)",
            answer: Choice(text: format2(seconds / 60), explanation: ""),
            distractors: [
                Choice(text: format2(seconds / 60 / 8), explanation: "Bytes and bits differ by a factor of 8."),
                Choice(text: format2(seconds), explanation: "That is the figure in seconds."),
                Choice(text: format2(seconds / 3600), explanation: "That is the figure in hours."),
            ],
            explanation: "\(gigabytes) GB = \(gigabytes * 8000) Mbit; ÷ \(megabits) Mbit/s = \(format2(seconds)) s = \(format2(seconds / 60)) minutes.",
            difficulty: DemoCorpus.difficulty(index), using: &r)
    }

    static func scaling(_ key: String, _ index: Int, _ r: inout Random) -> NewQuestion {
        let perInstance = Int.random(in: 50...400, using: &r)
        let peak = Int.random(in: 1000...20000, using: &r)
        let headroom = [0, 20, 25, 50][index % 4]
        let needed = Int((Double(peak) * (1 + Double(headroom) / 100) / Double(perInstance)).rounded(.up))
        return QuestionBuilder.single(
            key: key, stem: "One instance serves \(perInstance) requests per second. Peak load is \(peak) requests per second and you keep \(headroom)% headroom. How many instances do you need at least?",
            answer: Choice(text: "\(needed)", explanation: ""),
            distractors: [
                Choice(text: "\(Int((Double(peak) / Double(perInstance)).rounded(.up)))", explanation: "That ignores the headroom."),
                Choice(text: "\(max(1, needed - 1))", explanation: "Round up: a fraction of an instance is a whole instance."),
                Choice(text: "\(needed * 2)", explanation: "That doubles capacity needlessly."),
            ],
            explanation: "\(peak) × \(100 + headroom)% ÷ \(perInstance) = \(format2(Double(peak) * (1 + Double(headroom) / 100) / Double(perInstance))), rounded up to \(needed).",
            difficulty: headroom == 0 ? 2 : 3, using: &r)
    }

    static let incidentPhases = ["Detect and triage the alert", "Contain the impact", "Find and fix the cause", "Recover the service", "Write the post-incident review"]

    static func incidentSteps(_ key: String, _ index: Int, _ r: inout Random) -> NewQuestion {
        let count = 3 + index % 3
        let start = Int.random(in: 0...(incidentPhases.count - count), using: &r)
        let steps = Array(incidentPhases[start..<start + count])
        return QuestionBuilder.ordering(
            key: key, stem: "Put these incident-response steps in order.",
            steps: steps.map { Choice(text: $0, explanation: "") },
            explanation: "Detect, contain, fix, recover, then learn: " + steps.joined(separator: " → ") + ".",
            difficulty: count - 1, using: &r)
    }

    static func redundancy(_ key: String, _ index: Int, _ r: inout Random) -> NewQuestion {
        let single = [90.0, 95.0, 98.0, 99.0, 99.5][index % 5]
        let copies = 2 + index / 5 % 2
        let failure = pow(1 - single / 100, Double(copies))
        let combined = (1 - failure) * 100
        return QuestionBuilder.single(
            key: key, stem: "Each of \(copies) independent replicas is available \(format(single))% of the time. What is the availability of the service if any one replica is enough? (percent, to four decimals)",
            answer: Choice(text: format4(combined), explanation: ""),
            distractors: [
                Choice(text: format4(pow(single / 100, Double(copies)) * 100), explanation: "That is the chance that all replicas are up at once."),
                Choice(text: format4(single), explanation: "Replicas improve on a single one."),
                Choice(text: format4(min(99.9999, single * Double(copies))), explanation: "Availabilities do not add."),
            ],
            explanation: "The service fails only if all \(copies) fail: (1 − \(format(single / 100)))^\(copies) = \(failure); availability = \(format4(combined))%.",
            difficulty: copies == 2 ? 3 : 4, using: &r)
    }

    static func format4(_ value: Double) -> String {
        let scaled = (value * 10000).rounded() / 10000
        return scaled == scaled.rounded() ? String(Int(scaled)) : String(scaled)
    }
}
