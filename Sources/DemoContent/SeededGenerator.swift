import QuestionEngine

/// The demo corpus draws its parameters from the engine's seeded generator, so it is the same
/// on every machine and every run.
typealias SeededGenerator = SplitMix64

extension SplitMix64 {
    /// A generator seeded from a text key (FNV-1a): each question's parameters follow from its key.
    init(key: String) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        self.init(seed: hash)
    }
}
