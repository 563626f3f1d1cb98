/// `GET /teach/links/{id}/revoke`: the teacher is asked before a share link stops working.
struct RevocationPage: Encodable {
    var title: String
    var examTitle: String
    /// The link's class, when it has one.
    var className: String?
    /// Where the link is listed (its class's page, or the teaching area).
    var backHref: String
    var action: String
    var csrfToken: String
}
