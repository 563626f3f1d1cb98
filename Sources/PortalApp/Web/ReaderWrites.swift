import HTTPServer

/// After a signed-in reader's form, their own next page is read afresh: on this instance at
/// once, on the others when this instance's announcement arrives; a teacher's write may change
/// any of their classes' pages.
struct ReaderWrites: Sendable {
    /// Readers' data versions, forgotten for the writer.
    let readers: ReaderVersions
    /// Classes' versions, forgotten after a teacher's write.
    let classes: ClassVersions
    /// Tells the other instances.
    let announcer: ReaderAnnouncer?

    /// Notes that `viewer`'s request is done; only unsafe requests of signed-in readers write.
    func requestEnded(_ method: HTTPMethod, viewer: Viewer) {
        guard method.isUnsafe, let user = viewer.user else { return }
        readers.forget(user.userID)
        announcer?.announce(user.userID)
        if user.role.teaches { classes.forgetAll() }
    }
}
