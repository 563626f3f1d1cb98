import Foundation
import Interop
import PostgresClient
import QuestionEngine

/// What an import did.
public struct ImportSummary: Sendable, Equatable {
    public var regions = 0
    public var exams = 0
    public var domains = 0
    public var questionsAdded = 0
    public var questionsChanged = 0
    public var questionsUnchanged = 0
    /// Images stored that were not stored before.
    public var imagesAdded = 0
    /// Per exam the import wrote to, the keys of the questions it added and changed: an import
    /// never touches another exam's questions, and the report says which exam each was in.
    public var changes: [ExamChanges] = []

    /// What an import did to one exam's questions.
    public struct ExamChanges: Sendable, Equatable {
        /// `region/exam`.
        public var exam: String
        public var title: String
        public var added: [String] = []
        public var changed: [String] = []

        public init(exam: String, title: String, added: [String] = [], changed: [String] = []) {
            self.exam = exam
            self.title = title
            self.added = added
            self.changed = changed
        }
    }
}

/// Importing and exporting content documents. Everything is validated first, with a report
/// naming each item and field; nothing is written unless everything is valid, and then in the
/// caller's one transaction. Writing runs as an admin (row-level security) or as the owner.
public struct ContentImport: Sendable {
    public init() {}

    static let statuses: Set<String> = ["draft", "published", "retired"]

    /// `^[a-z0-9][a-z0-9-]{0,max-1}$`, as the database's CHECK on codes and slugs.
    static func isKey(_ text: String, maximum: Int) -> Bool {
        let bytes = Array(text.utf8)
        func lowerOrDigit(_ byte: UInt8) -> Bool { (97...122).contains(byte) || (48...57).contains(byte) }
        guard let first = bytes.first, lowerOrDigit(first), bytes.count <= maximum else { return false }
        return bytes.allSatisfy { lowerOrDigit($0) || $0 == 45 }
    }

    /// `^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$`.
    static func isLanguageTag(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard let first = parts.first, (2...3).contains(first.count), first.utf8.allSatisfy({ (97...122).contains($0) }) else { return false }
        return parts.dropFirst().allSatisfy { part in (2...8).contains(part.count) && part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }
    }

    /// How many gaps a cloze question's details hold.
    private static func gapCount(_ details: JSONValue) -> Int {
        if case .object(let fields) = details, case .array(let gaps)? = fields["gaps"] { return gaps.count }
        return 0
    }

    /// `^[a-z0-9+#-]{1,20}$`.
    public static func isCodeLanguage(_ text: String) -> Bool {
        (1...20).contains(text.utf8.count) && text.utf8.allSatisfy { (97...122).contains($0) || (48...57).contains($0) || $0 == 43 || $0 == 35 || $0 == 45 }
    }

    /// Every problem with the document, in document order; empty when it can be imported.
    /// `blueprint`: each exam's domain weights must add up to 100 (a document that states whole
    /// exams; a file of another format read into an exam carries only the domains it touches).
    public func problems(_ document: ContentDocument, blueprint: Bool = true) -> [ImportProblem] {
        var problems: [ImportProblem] = []
        func check(_ ok: Bool, _ item: String, _ field: String, _ problem: String) {
            if !ok { problems.append(ImportProblem(item: item, field: field, problem: problem)) }
        }
        func trimmedLength(_ text: String) -> Int { text.trimmingCharacters(in: .whitespacesAndNewlines).count }
        check(document.format == 1, "document", "format", "must be 1")
        var regionCodes = Set<String>()
        for (r, region) in document.regions.enumerated() {
            let regionItem = "regions[\(r)] (\(region.code))"
            check(Self.isKey(region.code, maximum: 40), regionItem, "code", "must be lower-case letters, digits and hyphens, at most 40")
            check(regionCodes.insert(region.code).inserted, regionItem, "code", "appears twice in the document")
            check((1...200).contains(trimmedLength(region.name)), regionItem, "name", "must have 1 to 200 characters")
            var examSlugs = Set<String>()
            for (e, exam) in region.exams.enumerated() {
                let examItem = "\(regionItem).exams[\(e)] (\(exam.slug))"
                check(Self.isKey(exam.slug, maximum: 80), examItem, "slug", "must be lower-case letters, digits and hyphens, at most 80")
                check(examSlugs.insert(exam.slug).inserted, examItem, "slug", "appears twice in this region")
                check((1...300).contains(trimmedLength(exam.title)), examItem, "title", "must have 1 to 300 characters")
                check(Self.isLanguageTag(exam.language), examItem, "language", "must be a language tag such as en, it or ja")
                check((1...100).contains(exam.passMark), examItem, "passMark", "must be from 1 to 100")
                check((60...86_400).contains(exam.timeLimitSeconds), examItem, "timeLimitSeconds", "must be from 60 to 86400")
                check((1...500).contains(exam.questionCount), examItem, "questionCount", "must be from 1 to 500")
                if let problem = exam.scaledScore?.problem { check(false, examItem, "scaledScore", problem) }
                check(exam.markup.map(ContentDocument.Question.markups.contains) ?? true, examItem, "markup", "must be markdown or plain")
                if blueprint, let problem = Blueprint.problem(exam.domains.map(\.weight)) {
                    problems.append(ImportProblem(item: examItem, field: "domains", problem: problem))
                }
                var domainSlugs = Set<String>(), questionKeys = Set<String>()
                for (d, domain) in exam.domains.enumerated() {
                    let domainItem = "\(examItem).domains[\(d)] (\(domain.slug))"
                    check(Self.isKey(domain.slug, maximum: 80), domainItem, "slug", "must be lower-case letters, digits and hyphens, at most 80")
                    check(domainSlugs.insert(domain.slug).inserted, domainItem, "slug", "appears twice in this exam")
                    check((1...300).contains(trimmedLength(domain.title)), domainItem, "title", "must have 1 to 300 characters")
                    check((1...100).contains(domain.weight), domainItem, "weight", "must be from 1 to 100")
                    for (q, question) in domain.questions.enumerated() {
                        let item = "\(domainItem).questions[\(q)] (\(question.key))"
                        check(questionKeys.insert(question.key).inserted, item, "key", "appears twice in this exam")
                        problems += self.problems(question, examMarkup: exam.markup).map { ImportProblem(item: item, field: $0.field, problem: $0.problem) }
                    }
                }
            }
        }
        // Each image must be what its address says: the address is the bytes' own digest.
        var imagePaths = Set<String>()
        for (i, image) in (document.images ?? []).enumerated() {
            let item = "images[\(i)] (\(image.path.prefix(100)))"
            check(imagePaths.insert(image.path).inserted, item, "path", "appears twice in the document")
            do throws(ImageRefusal) {
                let read = try ContentImage(bytes: [UInt8](image.data))
                check(read.path == image.path, item, "path", "must be \(read.path), the address its bytes make")
                check(read.mediaType == image.mediaType, item, "mediaType", "must be \(read.mediaType), as its bytes are")
            } catch {
                problems.append(ImportProblem(item: item, field: "data", problem: error.description))
            }
        }
        return problems
    }

    /// The problems of one question on its own (its key's uniqueness is the exam's to check), as
    /// field and problem: what `problems` reports for it, and what an import of another format
    /// names by the question's line or item.
    public func problems(_ question: ContentDocument.Question, examMarkup: String?) -> [(field: String, problem: String)] {
        var problems: [(field: String, problem: String)] = []
        func check(_ ok: Bool, _ field: String, _ problem: String) { if !ok { problems.append((field, problem)) } }
        func trimmedLength(_ text: String) -> Int { text.trimmingCharacters(in: .whitespacesAndNewlines).count }
        check(!question.key.isEmpty && question.key.count <= 200, "key", "must have 1 to 200 characters")
        check((1...20_000).contains(trimmedLength(question.stem)), "stem", "must have 1 to 20000 characters")
        check((1...5).contains(question.difficulty), "difficulty", "must be from 1 to 5")
        check(question.status.map(Self.statuses.contains) ?? true, "status", "must be draft, published or retired")
        if let language = question.codeLanguage { check(Self.isCodeLanguage(language), "codeLanguage", "must be a short language name such as python") }
        check(question.markup.map(ContentDocument.Question.markups.contains) ?? true, "markup", "must be markdown or plain")
        if let shape = QuestionValidator.problem(type: question.type, options: question.options, correct: question.correct, details: question.details) {
            problems.append(("options", shape))
            return problems
        }
        // Markdown is read here, so a malformed text is named with its field and line; what
        // remains as plain text must still make the question.
        do throws(QuestionTexts.Problem) {
            let plain = try question.stored(examMarkup: examMarkup).question
            check((1...20_000).contains(trimmedLength(plain.stem)), "stem", "must have some text besides markup")
            if let shape = QuestionValidator.problem(type: plain.type, options: plain.options, correct: plain.correct, details: plain.details) {
                problems.append(("options", shape))
            } else if plain.type == QuestionKind.cloze.rawValue, let marks = ClozeText.problem(plain.stem, gaps: Self.gapCount(plain.details)) {
                // A cloze question's text must mark each of its gaps once.
                problems.append(("stem", marks))
            }
        } catch {
            problems.append((error.field, error.message))
        }
        return problems
    }

    /// Whether the catalogue holds no exam at all (a fresh database, to be seeded).
    public func catalogueIsEmpty(_ connection: PostgresConnection) throws -> Bool {
        try connection.query("SELECT NOT EXISTS (SELECT 1 FROM exams) AS empty").single().decode("empty", as: Bool.self)
    }

    /// Lets the statements of the open transaction run up to five minutes: a whole exam of
    /// thousands of questions may take longer than a page's limit.
    public func allowLongStatements(_ connection: PostgresConnection) throws {
        try connection.execute("SET LOCAL statement_timeout = '5min'")
    }

    /// Writes a valid document: its images, then regions, exams and domains by their natural
    /// keys, questions by key, each added, changed (a new version) or left alone when equal.
    /// What `apply` would do, undone: run inside the caller's transaction and rolled back to
    /// where it began (a dry run: the report of an import before it is made).
    public func dryRun(_ document: ContentDocument, _ connection: PostgresConnection) throws -> ImportSummary {
        try connection.execute("SAVEPOINT import_dry_run")
        do {
            let summary = try apply(document, connection)
            try connection.execute("ROLLBACK TO SAVEPOINT import_dry_run")
            return summary
        } catch {
            try? connection.execute("ROLLBACK TO SAVEPOINT import_dry_run")
            throw error
        }
    }

    /// `drafts`: questions new to their exam come in as drafts, for an admin to review and
    /// publish; questions already there keep their status (their content is updated as usual).
    public func apply(_ document: ContentDocument, drafts: Bool = false, _ connection: PostgresConnection) throws -> ImportSummary {
        var summary = ImportSummary()
        summary.imagesAdded = try ContentImageStore().save(document.images ?? [], connection)
        for (position, region) in document.regions.enumerated() {
            let regionID = try connection.query(("""
                INSERT INTO regions (code, name, position) VALUES (\(region.code), \(region.name), \(position))
                ON CONFLICT (code) DO UPDATE SET name = EXCLUDED.name WHERE regions.name IS DISTINCT FROM EXCLUDED.name
                RETURNING id
                """ as SQL).prepared()).first?.decode("id", as: Int.self)
                ?? connection.query(("SELECT id FROM regions WHERE code = \(region.code)" as SQL).prepared()).single().decode("id", as: Int.self)
            summary.regions += 1
            for exam in region.exams {
                let examID = try connection.query(("""
                    INSERT INTO exams (region_id, slug, title, description, language, pass_mark, time_limit_s, question_count,
                                       scaled_min, scaled_pass, scaled_max)
                    VALUES (\(regionID), \(exam.slug), \(exam.title), \(exam.description ?? ""), \(exam.language), \(exam.passMark),
                            \(exam.timeLimitSeconds), \(exam.questionCount), \(exam.scaledScore?.min), \(exam.scaledScore?.pass), \(exam.scaledScore?.max))
                    ON CONFLICT (region_id, slug) DO UPDATE SET title = EXCLUDED.title, description = EXCLUDED.description,
                        language = EXCLUDED.language, pass_mark = EXCLUDED.pass_mark, time_limit_s = EXCLUDED.time_limit_s,
                        question_count = EXCLUDED.question_count, scaled_min = EXCLUDED.scaled_min, scaled_pass = EXCLUDED.scaled_pass,
                        scaled_max = EXCLUDED.scaled_max
                    WHERE (exams.title, exams.description, exams.language, exams.pass_mark, exams.time_limit_s, exams.question_count,
                           exams.scaled_min, exams.scaled_pass, exams.scaled_max)
                          IS DISTINCT FROM (EXCLUDED.title, EXCLUDED.description, EXCLUDED.language, EXCLUDED.pass_mark,
                                            EXCLUDED.time_limit_s, EXCLUDED.question_count, EXCLUDED.scaled_min, EXCLUDED.scaled_pass,
                                            EXCLUDED.scaled_max)
                    RETURNING id
                    """ as SQL).prepared()).first?.decode("id", as: Int.self)
                    ?? connection.query(("SELECT id FROM exams WHERE region_id = \(regionID) AND slug = \(exam.slug)" as SQL).prepared())
                        .single().decode("id", as: Int.self)
                summary.exams += 1
                var changes = ImportSummary.ExamChanges(exam: region.code + "/" + exam.slug, title: exam.title)
                for domain in exam.domains {
                    let domainID = try connection.query(("""
                        INSERT INTO domains (exam_id, slug, title, weight) VALUES (\(examID), \(domain.slug), \(domain.title), \(domain.weight))
                        ON CONFLICT (exam_id, slug) DO UPDATE SET title = EXCLUDED.title, weight = EXCLUDED.weight
                        WHERE (domains.title, domains.weight) IS DISTINCT FROM (EXCLUDED.title, EXCLUDED.weight)
                        RETURNING id
                        """ as SQL).prepared()).first?.decode("id", as: Int.self)
                        ?? connection.query(("SELECT id FROM domains WHERE exam_id = \(examID) AND slug = \(domain.slug)" as SQL).prepared())
                            .single().decode("id", as: Int.self)
                    summary.domains += 1
                    let outcome = try upsertQuestions(domainID: domainID, domain.questions, examMarkup: exam.markup, drafts: drafts, connection)
                    summary.questionsAdded += outcome.added.count
                    summary.questionsChanged += outcome.changed.count
                    summary.questionsUnchanged += domain.questions.count - outcome.added.count - outcome.changed.count
                    changes.added += outcome.added
                    changes.changed += outcome.changed
                }
                if !changes.added.isEmpty || !changes.changed.isEmpty { summary.changes.append(changes) }
            }
        }
        return summary
    }

    /// The questions of one domain, matched by key within the domain's exam only (the database's
    /// `UNIQUE (exam_id, source_key)`): the keys added and the keys changed.
    private func upsertQuestions(
        domainID: Int, _ questions: [ContentDocument.Question], examMarkup: String?, drafts: Bool, _ connection: PostgresConnection
    ) throws -> (added: [String], changed: [String]) {
        guard !questions.isEmpty else { return ([], []) }
        struct Row: Encodable {
            var key: String, type: String, stem: String, rich: QuestionTexts?, code: String?, codeLanguage: String?, options: JSONValue, correct: JSONValue
            var details: JSONValue, explanation: String, difficulty: Int, status: String, examOnly: Bool
        }
        let rows = try PostgresJSON(encoding: questions.map { written in
            let (question, texts) = try written.stored(examMarkup: examMarkup)
            return Row(
                key: question.key, type: question.type, stem: question.stem, rich: texts, code: question.code, codeLanguage: question.codeLanguage,
                options: question.options, correct: question.correct, details: question.details, explanation: question.explanation ?? "",
                difficulty: question.difficulty, status: question.status ?? "published", examOnly: question.examOnly ?? false)
        })
        let result = try connection.query(("""
            INSERT INTO questions (domain_id, source_key, type, stem, rich, code, code_language, options, correct, details, explanation, difficulty, status, exam_only)
            SELECT \(domainID), q.key, q.type, q.stem, q.rich, q.code, q."codeLanguage", q.options, q.correct, q.details, q.explanation, q.difficulty,
                   CASE WHEN \(drafts) THEN 'draft' ELSE q.status END, q."examOnly"
            FROM jsonb_to_recordset(\(rows)::jsonb) AS q(key text, type text, stem text, rich jsonb, code text, "codeLanguage" text, options jsonb,
                                                        correct jsonb, details jsonb, explanation text, difficulty integer, status text, "examOnly" boolean)
            ON CONFLICT (exam_id, source_key) DO UPDATE SET domain_id = EXCLUDED.domain_id, type = EXCLUDED.type, stem = EXCLUDED.stem,
                rich = EXCLUDED.rich, code = EXCLUDED.code, code_language = EXCLUDED.code_language, options = EXCLUDED.options, correct = EXCLUDED.correct,
                details = EXCLUDED.details, explanation = EXCLUDED.explanation, difficulty = EXCLUDED.difficulty,
                status = CASE WHEN \(drafts) THEN questions.status ELSE EXCLUDED.status END, exam_only = EXCLUDED.exam_only, deleted_at = NULL
            WHERE (questions.domain_id, questions.type, questions.stem, questions.rich, questions.code, questions.code_language, questions.options,
                   questions.correct, questions.details, questions.explanation, questions.difficulty, questions.status, questions.exam_only, questions.deleted_at)
                  IS DISTINCT FROM
                  (EXCLUDED.domain_id, EXCLUDED.type, EXCLUDED.stem, EXCLUDED.rich, EXCLUDED.code, EXCLUDED.code_language, EXCLUDED.options,
                   EXCLUDED.correct, EXCLUDED.details, EXCLUDED.explanation, EXCLUDED.difficulty,
                   CASE WHEN \(drafts) THEN questions.status ELSE EXCLUDED.status END, EXCLUDED.exam_only, NULL::timestamptz)
            RETURNING source_key, (xmax = 0) AS added
            """ as SQL).prepared()).rows
        var added: [String] = [], changed: [String] = []
        for row in result {
            let key = try row.decode("source_key", as: String.self)
            if try row.decode("added", as: Bool.self) { added.append(key) } else { changed.append(key) }
        }
        return (added.sorted(), changed.sorted())
    }

    /// An exam as a document in the import format (every question not deleted, any status).
    public func export(region: String, exam slug: String, _ connection: PostgresConnection) throws -> ContentDocument? {
        guard let row = try connection.query(("""
            SELECT r.code, r.name, e.id, e.slug, e.title, e.description, e.language, e.pass_mark, e.time_limit_s, e.question_count,
                   \(fragment: ScaledScore.columns)
            FROM exams e JOIN regions r ON r.id = e.region_id WHERE r.code = \(region) AND e.slug = \(slug)
            """ as SQL).prepared()).first else { return nil }
        let examID = try row.decode("id", as: Int.self)
        var domains: [ContentDocument.Domain] = []
        for domain in try connection.query(("SELECT id, slug, title, weight FROM domains WHERE exam_id = \(examID) ORDER BY slug" as SQL).prepared()).rows {
            let questions = try connection.query(("""
                SELECT source_key, type, stem, rich, code, code_language, options, correct, details, explanation, difficulty, status, exam_only
                FROM questions WHERE domain_id = \(try domain.decode("id", as: Int.self)) AND deleted_at IS NULL AND source_key IS NOT NULL
                ORDER BY source_key
                """ as SQL).prepared()).rows.map { q in
                let stored = ContentDocument.Question(
                    key: try q.decode("source_key", as: String.self), type: try q.decode("type", as: String.self), stem: try q.decode("stem", as: String.self),
                    code: try q.decode("code", as: String?.self), codeLanguage: try q.decode("code_language", as: String?.self),
                    options: try q.decodeJSON("options", as: JSONValue.self), correct: try q.decodeJSON("correct", as: JSONValue.self),
                    explanation: try q.decode("explanation", as: String.self), difficulty: try q.decode("difficulty", as: Int.self),
                    status: try q.decode("status", as: String.self), examOnly: try q.decode("exam_only", as: Bool.self) ? true : nil,
                    details: try q.decodeJSON("details", as: JSONValue.self))
                // Markdown goes out as markdown, written from the trees.
                return try q.decode("rich", as: PostgresJSON?.self).map { stored.writtenAsMarkdown(try $0.decoded(as: QuestionTexts.self)) } ?? stored
            }
            domains.append(ContentDocument.Domain(
                slug: try domain.decode("slug", as: String.self), title: try domain.decode("title", as: String.self),
                weight: try domain.decode("weight", as: Int.self), questions: questions))
        }
        let exam = ContentDocument.Exam(
            slug: try row.decode("slug", as: String.self), title: try row.decode("title", as: String.self),
            description: try row.decode("description", as: String.self), language: try row.decode("language", as: String.self),
            passMark: try row.decode("pass_mark", as: Int.self), timeLimitSeconds: try row.decode("time_limit_s", as: Int.self),
            questionCount: try row.decode("question_count", as: Int.self), scaledScore: try ScaledScore.read(row), domains: domains)
        var document = ContentDocument(regions: [ContentDocument.Region(code: try row.decode("code", as: String.self), name: try row.decode("name", as: String.self), exams: [exam])])
        let images = try ContentImageStore().images(at: document.imagePaths, connection)
        document.images = images.isEmpty ? nil : images
        return document
    }
}
