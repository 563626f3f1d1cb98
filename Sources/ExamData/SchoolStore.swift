import Foundation
import PostgresClient
import QuestionEngine

/// Classes, members, share links and what a teacher reads of their students. Everything runs
/// as the app role in the caller's request scope: row-level security shows a teacher only the
/// students in their classes now, and a student only their own rows.
public struct SchoolStore: Sendable {
    public init() {}

    // MARK: Classes

    /// Creates a class for the signed-in teacher (and its school, by name, when new).
    public func createClass(name: String, schoolName: String?, joinCode: String, at date: Date, _ connection: PostgresConnection) throws -> UUID? {
        var schoolID: UUID?
        if let schoolName, !schoolName.isEmpty {
            // The school of that name, made the first time a teacher names it.
            try connection.execute(("INSERT INTO schools (name) VALUES (\(schoolName)) ON CONFLICT DO NOTHING" as SQL).prepared())
            schoolID = try connection.query(("""
                SELECT id FROM schools WHERE lower(btrim(name)) = lower(btrim(\(schoolName)))
                """ as SQL).prepared()).first?.decode("id", as: UUID.self)
        }
        do {
            return try connection.query(("""
                INSERT INTO classes (school_id, teacher_id, name, join_code, created_at)
                VALUES (\(schoolID), (SELECT app_user_id()), \(name), \(joinCode), \(date)) RETURNING id
                """ as SQL).prepared()).single().decode("id", as: UUID.self)
        } catch let error as PostgresError where error.isUniqueViolation {
            return nil
        }
    }

    /// The signed-in teacher's classes, with current member counts, as one statement of a
    /// pipelined read.
    public static let taughtClassesStatement: SQL = ("""
            SELECT c.id, c.name, s.name AS school, c.join_code,
                   (SELECT count(*) FROM class_members m WHERE m.class_id = c.id AND m.left_at IS NULL) AS members
            FROM classes c LEFT JOIN schools s ON s.id = c.school_id
            WHERE c.teacher_id = (SELECT app_user_id())
            ORDER BY c.created_at DESC
            """ as SQL).prepared()

    /// What `taughtClassesStatement` returned.
    public static func taughtClasses(_ result: QueryResult) throws -> [ClassSummary] { try result.rows.map(summary) }

    /// A class the caller teaches, or nil.
    public func taughtClass(id: UUID, _ connection: PostgresConnection) throws -> ClassSummary? {
        try connection.query(ClassReading.summaryStatement(id)).first.map(Self.summary)
    }

    /// The classes the signed-in student belongs to now, newest first (one statement of a
    /// pipelined read).
    public static let memberClassesStatement: SQL = ("""
        SELECT c.id, c.name FROM class_members m JOIN classes c ON c.id = m.class_id
        WHERE m.user_id = (SELECT app_user_id()) AND m.left_at IS NULL ORDER BY m.joined_at DESC
        """ as SQL).prepared()

    /// What `memberClassesStatement` returned: each class's id and name.
    public static func memberClasses(_ result: QueryResult) throws -> [(id: UUID, name: String)] {
        try result.rows.map { (try $0.decode("id", as: UUID.self), try $0.decode("name", as: String.self)) }
    }

    /// A class by its join code: id, name, teacher and school.
    public func classByCode(_ code: String, _ connection: PostgresConnection) throws -> (id: UUID, name: String, teacher: String, school: String?)? {
        guard let row = try connection.query(("SELECT id, name, teacher_name, school_name FROM class_by_code(\(code))" as SQL).prepared()).first else { return nil }
        return (try row.decode("id", as: UUID.self), try row.decode("name", as: String.self), try row.decode("teacher_name", as: String.self),
                try row.decode("school_name", as: String?.self))
    }

    /// Joins the caller to the class with this join code (again, if they had left); the class's
    /// id, or nil for an unknown code. Joining needs the code: nobody is added by class id.
    public func join(code: String, _ connection: PostgresConnection) throws -> UUID? {
        try connection.query(("SELECT join_class(\(code)) AS class_id" as SQL).prepared()).first.flatMap { try $0.decode("class_id", as: UUID?.self) }
    }

    /// Joins the caller to the class of a live share link that joins its class.
    @discardableResult
    public func join(linkID: UUID, _ connection: PostgresConnection) throws -> Bool {
        try connection.query(("SELECT join_class_by_link(\(linkID)) AS joined" as SQL).prepared()).first?.decode("joined", as: Bool.self) ?? false
    }

    /// Ends a membership: the student's own (leaving) or, for the teacher, removing a student.
    public func leave(classID: UUID, userID: UUID, at date: Date, _ connection: PostgresConnection) throws -> Bool {
        try connection.execute(("""
            UPDATE class_members SET left_at = \(date) WHERE class_id = \(classID) AND user_id = \(userID) AND left_at IS NULL
            """ as SQL).prepared()) == 1
    }

    /// A class's current members (the teacher's view).
    public func members(classID: UUID, collation: Collation = .of(locale: "en"), _ connection: PostgresConnection) throws -> [ClassMember] {
        try Self.members(connection.query(Self.membersStatement(classID: classID, collation: collation)))
    }

    /// `members` as one statement of a pipelined read.
    public static func membersStatement(classID: UUID, collation: Collation) -> SQL {
        ("""
            SELECT m.user_id, u.display_name, u.username, m.joined_at, a.time_multiplier::float8 AS multiplier, a.extra_minutes, a.extra_attempts,
                   a.reads_aloud
            FROM class_members m JOIN users u ON u.id = m.user_id LEFT JOIN accommodations a ON a.student_id = m.user_id
            WHERE m.class_id = \(classID) AND m.left_at IS NULL ORDER BY u.display_name \(fragment: collation.sql), m.user_id
            """ as SQL).prepared()
    }

    /// What `membersStatement` returned.
    static func members(_ result: QueryResult) throws -> [ClassMember] {
        try result.rows.map {
            ClassMember(userID: try $0.decode("user_id", as: UUID.self), displayName: try $0.decode("display_name", as: String.self),
                        username: try $0.decode("username", as: String.self), joinedAt: try $0.decode("joined_at", as: Date.self), accommodation: try Self.accommodation($0))
        }
    }

    // MARK: Accommodations

    /// Sets a student's accommodation (`Accommodation(multiplier: 1, extraMinutes: 0)` removes
    /// it, with no extra attempts), audited; only a teacher of a class the student is in now, or an admin (refused with
    /// `insufficient_privilege` otherwise). False for an unknown student.
    public func setAccommodation(student: UUID, _ accommodation: Accommodation, _ connection: PostgresConnection) throws -> Bool {
        try connection.query(("""
            SELECT set_accommodation(\(student), \(accommodation.multiplier)::numeric, \(accommodation.extraMinutes),
                                     \(accommodation.extraAttempts), \(accommodation.readsAloud)) AS known
            """ as SQL).prepared()).single().decode("known", as: Bool.self)
    }

    /// The signed-in student's own accommodation, if they have one.
    public static let ownAccommodationStatement: SQL = ("""
        SELECT time_multiplier::float8 AS multiplier, extra_minutes, extra_attempts, reads_aloud FROM accommodations WHERE student_id = (SELECT app_user_id())
        """ as SQL).prepared()

    /// The accommodation in the rows of `ownAccommodationStatement`.
    public static func ownAccommodation(_ result: QueryResult) throws -> Accommodation? {
        try result.first.flatMap(accommodation)
    }

    /// The accommodation of a row with `multiplier` (float8), `extra_minutes`, `extra_attempts` and `reads_aloud`, if any.
    static func accommodation(_ row: PostgresRow) throws -> Accommodation? {
        guard let multiplier = try row.decode("multiplier", as: Double?.self) else { return nil }
        return Accommodation(
            multiplier: multiplier, extraMinutes: try row.decode("extra_minutes", as: Int.self), extraAttempts: try row.decode("extra_attempts", as: Int.self),
            readsAloud: try row.decode("reads_aloud", as: Bool?.self) ?? false)
    }

    // MARK: Share links

    public func createShareLink(_ link: NewShareLink, at date: Date, _ connection: PostgresConnection) throws -> UUID {
        try connection.query(("""
            INSERT INTO share_links (token_hash, created_by, exam_id, class_id, title, mode, domains, difficulty_from, difficulty_to,
                                     question_count, joins_class, due_at, expires_at, created_at, attempts, quiz_id, time_limit_minutes)
            VALUES (decode(\(AccountStore.hex(link.tokenHash)), 'hex'), (SELECT app_user_id()), \(link.examID), \(link.classID), \(link.title),
                    \(link.mode.rawValue), \(link.domains)::text[], \(link.difficulty.lowerBound), \(link.difficulty.upperBound),
                    \(link.questionCount), \(link.joinsClass), \(link.dueAt), \(link.expiresAt), \(date), \(link.attempts), \(link.quizID), \(link.timeLimitMinutes))
            RETURNING id
            """ as SQL).prepared()).single().decode("id", as: UUID.self)
    }

    /// The caller's share links for a class (nil: those for no class), newest first.
    public func shareLinks(classID: UUID?, _ connection: PostgresConnection) throws -> [ShareLinkSummary] {
        try connection.query(Self.shareLinksStatement(classID: classID)).rows.map(Self.shareLink)
    }

    /// `shareLinks` as one statement of a pipelined read (its rows: `shareLink`).
    public static func shareLinksStatement(classID: UUID?) -> SQL {
        ("""
            SELECT l.id, l.title, e.title AS exam_title, l.mode, l.question_count, l.due_at, l.expires_at, l.revoked_at, l.joins_class, l.attempts,
                   l.time_limit_minutes
            FROM share_links l JOIN exams e ON e.id = l.exam_id
            WHERE l.created_by = (SELECT app_user_id()) AND l.class_id IS NOT DISTINCT FROM \(classID)
            ORDER BY l.created_at DESC, l.id
            """ as SQL).prepared()
    }

    /// The signed-in student's attempts at a link: how many they may make (nil: no limit, or
    /// nobody signed in) and how many they have started.
    public func attempts(linkID: UUID, _ connection: PostgresConnection) throws -> (allowed: Int?, used: Int) {
        guard let row = try connection.query(("SELECT allowed, used FROM share_link_attempts(\(linkID))" as SQL).prepared()).first else {
            return (nil, 0)
        }
        return (try row.decode("allowed", as: Int?.self), try row.decode("used", as: Int.self))
    }

    /// One of the caller's links, revoked or not, with the name of its class (nil for a link of
    /// no class); nil when there is no such link of theirs.
    public func ownShareLink(id: UUID, _ connection: PostgresConnection) throws -> (link: ShareLinkSummary, classID: UUID?, className: String?)? {
        guard let row = try connection.query(("""
            SELECT l.id, l.title, e.title AS exam_title, l.mode, l.question_count, l.due_at, l.expires_at, l.revoked_at, l.joins_class, l.attempts,
                   l.time_limit_minutes, l.class_id, c.name AS class_name
            FROM share_links l JOIN exams e ON e.id = l.exam_id LEFT JOIN classes c ON c.id = l.class_id
            WHERE l.id = \(id) AND l.created_by = (SELECT app_user_id())
            """ as SQL).prepared()).first else { return nil }
        return (try Self.shareLink(row), try row.decode("class_id", as: UUID?.self), try row.decode("class_name", as: String?.self))
    }

    public static func shareLink(_ row: PostgresRow) throws -> ShareLinkSummary {
        ShareLinkSummary(
            id: try row.decode("id", as: UUID.self), title: try row.decode("title", as: String.self),
            examTitle: try row.decode("exam_title", as: String.self), mode: try row.decode("mode", as: String.self),
            questionCount: try row.decode("question_count", as: Int.self), dueAt: try row.decode("due_at", as: Date?.self),
            expiresAt: try row.decode("expires_at", as: Date?.self), revokedAt: try row.decode("revoked_at", as: Date?.self),
            joinsClass: try row.decode("joins_class", as: Bool.self), attempts: try row.decode("attempts", as: Int?.self),
            timeLimitMinutes: try row.decode("time_limit_minutes", as: Int?.self))
    }

    /// Revokes one of the caller's links; false when there is no such live link of theirs.
    public func revoke(linkID: UUID, at date: Date, _ connection: PostgresConnection) throws -> Bool {
        try connection.execute(("""
            UPDATE share_links SET revoked_at = \(date) WHERE id = \(linkID) AND created_by = (SELECT app_user_id()) AND revoked_at IS NULL
            """ as SQL).prepared()) == 1
    }

    /// What a link offers, by its token's hash; nil when unknown, revoked or expired at `now`.
    public func sharedExam(tokenHash: [UInt8], now: Date, _ connection: PostgresConnection) throws -> SharedExam? {
        try connection.query(("""
            SELECT \(fragment: Self.sharedExamColumns) FROM share_link_by_token(decode(\(AccountStore.hex(tokenHash)), 'hex'), \(now))
            """ as SQL).prepared()).first.map(Self.sharedExam)
    }

    /// What an assignment of one of the signed-in pupil's classes offers, by its id (a pupil who
    /// lost the link); nil when it is no live assignment of a class they are in now.
    public func sharedExam(assignment id: UUID, now: Date, _ connection: PostgresConnection) throws -> SharedExam? {
        try connection.query(("""
            SELECT \(fragment: Self.sharedExamColumns) FROM share_link_of_my_class(\(id), \(now))
            """ as SQL).prepared()).first.map(Self.sharedExam)
    }

    static let sharedExamColumns: SQL = """
        id, title, exam_id, region_code, exam_slug, exam_title, exam_language, class_id, class_name, shared_by, mode, domains,
        difficulty_from, difficulty_to, question_count, joins_class, due_at, expires_at, quiz_id, time_limit_minutes
        """

    static func sharedExam(_ row: PostgresRow) throws -> SharedExam {
        SharedExam(
            id: try row.decode("id", as: UUID.self), title: try row.decode("title", as: String.self), examID: try row.decode("exam_id", as: Int.self),
            regionCode: try row.decode("region_code", as: String.self), examSlug: try row.decode("exam_slug", as: String.self),
            examTitle: try row.decode("exam_title", as: String.self), examLanguage: try row.decode("exam_language", as: String.self),
            classID: try row.decode("class_id", as: UUID?.self), className: try row.decode("class_name", as: String?.self),
            sharedBy: try row.decode("shared_by", as: String.self), mode: StudyMode(rawValue: try row.decode("mode", as: String.self)) ?? .practice,
            domains: try row.decode("domains", as: [String].self),
            difficulty: try row.decode("difficulty_from", as: Int.self)...max(try row.decode("difficulty_from", as: Int.self), try row.decode("difficulty_to", as: Int.self)),
            questionCount: try row.decode("question_count", as: Int.self), joinsClass: try row.decode("joins_class", as: Bool.self),
            dueAt: try row.decode("due_at", as: Date?.self), expiresAt: try row.decode("expires_at", as: Date?.self),
            quizID: try row.decode("quiz_id", as: UUID?.self), timeLimitMinutes: try row.decode("time_limit_minutes", as: Int?.self))
    }

    /// The questions a quiz assignment gives, in order (`quiz_questions_of_link`: for its teacher
    /// or a pupil of its class now; those still published).
    public func quizQuestions(linkID: UUID, _ connection: PostgresConnection) throws -> [UUID] {
        try connection.query(("SELECT question_id FROM quiz_questions_of_link(\(linkID))" as SQL).prepared()).rows.map {
            try $0.decode("question_id", as: UUID.self)
        }
    }

    /// The signed-in pupil's assignments, soonest due first (`my_assignments`). A statement for a
    /// pipelined read.
    public static func myAssignmentsStatement(now: Date) -> SQL {
        ("""
            SELECT id, title, class_id, class_name, exam_title, exam_language, mode, question_count, due_at, allowed, used, finished_at, score_percent
            FROM my_assignments(\(now))
            """ as SQL).prepared()
    }

    /// What `myAssignmentsStatement` returned.
    public static func myAssignments(_ result: QueryResult) throws -> [PupilAssignment] {
        try result.rows.map { row in
            PupilAssignment(
                id: try row.decode("id", as: UUID.self), title: try row.decode("title", as: String.self), classID: try row.decode("class_id", as: UUID.self),
                className: try row.decode("class_name", as: String.self), examTitle: try row.decode("exam_title", as: String.self),
                examLanguage: try row.decode("exam_language", as: String.self),
                mode: StudyMode(rawValue: try row.decode("mode", as: String.self)) ?? .practice, questionCount: try row.decode("question_count", as: Int.self),
                dueAt: try row.decode("due_at", as: Date?.self), allowed: try row.decode("allowed", as: Int?.self), used: try row.decode("used", as: Int.self),
                finishedAt: try row.decode("finished_at", as: Date?.self), scorePercent: try row.decode("score_percent", as: Double?.self))
        }
    }

    /// What a class's page shows changes with this version: its current members' data versions
    /// (every answer, session and card of theirs changes one) and its share links; with the
    /// members, so a notice about any of them can forget it. Nothing for a reader who may not
    /// see the class. A statement for a pipelined read.
    public static func classVersionMembersStatement(classID: UUID) -> SQL {
        ("SELECT version, members FROM class_version_members(\(classID))" as SQL).prepared()
    }

    /// What `classVersionMembersStatement` returned.
    public static func classVersionMembers(_ result: QueryResult) throws -> (version: String, members: [UUID])? {
        guard let row = result.first else { return nil }
        return (try row.decode("version", as: String.self), try row.decode("members", as: [UUID].self))
    }

    static func summary(_ row: PostgresRow) throws -> ClassSummary {
        ClassSummary(
            id: try row.decode("id", as: UUID.self), name: try row.decode("name", as: String.self), schoolName: try row.decode("school", as: String?.self),
            joinCode: try row.decode("join_code", as: String.self), members: try row.decode("members", as: Int.self))
    }
}
