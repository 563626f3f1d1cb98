/// `GET /teach/classes/{id}/members/{user}/remove`: the teacher is asked before a student
/// leaves their class.
struct RemovalPage: Encodable {
    var name: String
    var className: String
    var classHref: String
    var action: String
    var csrfToken: String
}
