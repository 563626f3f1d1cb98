/// Entries kept in memory only while the database's notices arrive (`DatabaseEvents`): what
/// `ViewerCache` and `RememberedValues` hold, with the generation that lets a reading begun
/// before a forgetting be dropped instead of kept.
struct NoticedEntries<Key: Hashable, Entry> {
    var entries: [Key: Entry] = [:]
    /// Bumped by every forgetting: a value read before one is not kept.
    var generation: UInt64 = 0
    /// Whether notices arrive; without them nothing is served.
    var enabled = false

    /// Listening started or stopped: everything forgotten, served again only while listening.
    mutating func reset(listening: Bool) {
        entries.removeAll()
        generation &+= 1
        enabled = listening
    }

    /// Forgets the entries `matching` says must go.
    mutating func forget(where matching: (Key, Entry) -> Bool) {
        generation &+= 1
        entries = entries.filter { !matching($0.key, $0.value) }
    }
}
