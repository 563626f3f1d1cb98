/// An admin is asked before an account is disabled: the same change, sent again with `confirm`.
struct DisablingPage: Encodable {
    var id: String
    var username: String
    /// The role the form asked for, kept as it was.
    var role: String
    /// The search to come back to.
    var query: String
    var filterRole: String
    var back: String
    var csrfToken: String
}
