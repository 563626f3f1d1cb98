import ExamData
import Foundation
import HTTPClient
import HTTPServer
import Identifiers
import Interop
import PostgresClient
import QuestionEngine

/// The question editor: a new question or a new version of one, its form refused field by field.
extension AdminPages {
    func editor(_ request: PortalRequest, _ user: SessionUser, id: UUID?) throws -> Response {
        let locale = pages.locale(for: request)
        let (form, domains) = try request.database.transaction { connection -> (QuestionForm, [(id: Int, label: String)]) in
            let editor = QuestionEditor()
            let domains = try editor.domains(connection)
            guard let id else {
                let blank = EditableQuestion(
                    id: nil, domainID: domains.first?.id ?? 0, type: .singleChoice, stem: "", code: nil, codeLanguage: nil, options: [], correct: [],
                    explanation: "", difficulty: 3, status: "draft", version: 0)
                return (QuestionForm(blank), domains)
            }
            guard let question = try editor.question(id: id, connection) else { throw PageRefusal(.notFound, "school.not_found") }
            return (QuestionForm(question), domains)
        }
        return try pages.privatePage("admin/edit", QuestionEditPage(form, domains: domains, pages: pages, locale: locale), request)
    }

    /// Checks the form by the shared rules and shows what is wrong beside each field; saves
    /// (a new version when anything changed) with its audit entry in one transaction.
    func saveQuestion(_ request: PortalRequest, _ user: SessionUser, id: UUID?) throws -> Response {
        let locale = pages.locale(for: request)
        let (fields, upload) = try Self.editorFields(request)
        let form = QuestionForm(form: fields, id: id) { pages.message($0, locale: locale, $1) }
        do {
            let result = try request.database.transaction { connection -> Response in
                let editor = QuestionEditor()
                let domains = try editor.domains(connection)
                var form = form
                if !domains.contains(where: { $0.id == form.question.domainID }) { form.errors["domain"] = pages.message("admin.edit.bad_domain", locale: locale) }
                if let id, try editor.question(id: id, connection) == nil { throw PageRefusal(.notFound, "school.not_found") }
                if form.addsRow {
                    // Only a row more: nothing is checked or saved until "save".
                    form.errors = [:]
                    return try pages.privatePage("admin/edit", QuestionEditPage(form, domains: domains, pages: pages, locale: locale), request)
                }
                if fields["add_picture"] != nil {
                    return try addPicture(request, form, alt: fields["picture_alt"] ?? "", upload: upload, domains: domains, connection)
                }
                guard form.errors.isEmpty else {
                    return try pages.privatePage("admin/edit", QuestionEditPage(form, domains: domains, pages: pages, locale: locale), request, status: .unprocessableContent)
                }
                if fields["preview"] != nil {
                    // The question as students would see it, beside the form; nothing is saved.
                    var page = QuestionEditPage(form, domains: domains, pages: pages, locale: locale)
                    page.preview = try? QuestionPreview(form.question.shown())
                    return try pages.privatePage("admin/edit", page, request)
                }
                // Saved once per showing of the form: sent again, it leads to what the first saved.
                let location = try SentOnce.send(request, form: fields) { connection -> String in
                    guard let saved = try editor.save(form.question, connection) else {
                        throw SavedSince(shown: form.question.version, version: try editor.question(id: id ?? UUID(), connection)?.version ?? form.question.version)
                    }
                    try AdminStore().audit(
                        actorName: user.displayName, action: id == nil ? "question.create" : "question.edit", target: saved.id.lowercasedText,
                        details: ["version": String(saved.version), "status": form.question.status], at: clock(), connection)
                    return "/admin/questions/\(saved.id.lowercasedText)?saved=1"
                }?.location
                guard let location else {
                    var page = QuestionEditPage(form, domains: domains, pages: pages, locale: locale)
                    page.savedSince = pages.message("error.form_resent", locale: locale)
                    return try pages.privatePage("admin/edit", page, request, status: .conflict)
                }
                return .redirect(to: location)
            }
            return result
        } catch let since as SavedSince {
            return try savedSinceShown(request, form, since, id: id)
        }
    }

    /// The editor's fields and the picture it carries, if any: the form comes as multipart when
    /// it carries a picture to add to the question's text.
    private static func editorFields(_ request: PortalRequest) throws -> (FormFields, MultipartPart?) {
        guard let type = request.headers["Content-Type"], type.lowercased().hasPrefix("multipart/form-data") else {
            return (FormFields(body: request.body), nil)
        }
        let parts = try Multipart.parse(body: request.body, contentType: type)
        return (FormFields(fields: parts.filter { $0.name != "picture" }.map { ($0.name, String(decoding: $0.data, as: UTF8.self)) }),
                parts.first { $0.name == "picture" && $0.filename != nil && !$0.data.isEmpty })
    }

    /// A picture stored and written into the question's text as markdown (the question itself is
    /// saved with "save"), or the editor again with what is wrong with the picture.
    private func addPicture(
        _ request: PortalRequest, _ form: QuestionForm, alt typed: String, upload: MultipartPart?, domains: [(id: Int, label: String)],
        _ connection: PostgresConnection
    ) throws -> Response {
        let locale = pages.locale(for: request)
        var form = form
        form.errors = [:]
        let alt = typed.trimmingCharacters(in: .whitespacesAndNewlines)
        var added: ContentImage?
        if let upload {
            do throws(ImageRefusal) { added = try ContentImage(bytes: upload.data) } catch {
                form.errors["picture"] = switch error {
                case .notAnImage: pages.message("admin.edit.picture_not_image", locale: locale)
                case .tooLarge(let size):
                    pages.message("admin.edit.picture_too_large", locale: locale, ["size": String(size / 1024), "limit": String(ContentImage.maximumBytes / 1024 / 1024)])
                case .tooManyPixels(let size): pages.message("admin.edit.picture_too_many_pixels", locale: locale, ["size": "\(size)"])
                case .empty, .sizeUnreadable: pages.message("admin.edit.picture_unreadable", locale: locale)
                }
            }
        } else {
            form.errors["picture"] = pages.message("admin.edit.picture_missing", locale: locale)
        }
        if alt.isEmpty, form.errors["picture"] == nil { form.errors["picture"] = pages.message("admin.edit.picture_no_alt", locale: locale) }
        var page = QuestionEditPage(form, domains: domains, pages: pages, locale: locale)
        guard let added, form.errors.isEmpty else {
            page.pictureAlt = alt
            return try pages.privatePage("admin/edit", page, request, status: .unprocessableContent)
        }
        _ = try ContentImageStore().save([added], connection)
        let written = MarkdownWriter.write(RichText([.picture(RichText.Picture(source: added.path, alt: alt))]))
        page.stem = page.stem.isEmpty ? written : page.stem + "\n\n" + written
        page.markdown = true
        page.pictureAdded = pages.message("admin.edit.picture_added", locale: locale)
        return try pages.privatePage("admin/edit", page, request)
    }

    /// Another admin saved the question after this form was shown: nothing is overwritten. The
    /// edits come back with the newer version and what the other save changed, so saving again
    /// is a choice made knowingly.
    private func savedSinceShown(_ request: PortalRequest, _ form: QuestionForm, _ since: SavedSince, id: UUID?) throws -> Response {
        let locale = pages.locale(for: request)
        var form = form
        form.question.version = since.version
        let (domains, versions) = try request.database.run { connection in
            (try QuestionEditor().domains(connection), try id.map { try AdminStore().versions(questionID: $0, connection) } ?? [])
        }
        var page = QuestionEditPage(form, domains: domains, pages: pages, locale: locale)
        page.savedSince = pages.message("admin.edit.saved_since", locale: locale, ["version": String(since.version)])
        // What the other save changed: the version this form was opened on against the current one.
        if let shown = versions.first(where: { $0.version == since.shown }), let current = versions.first(where: { $0.version == since.version }) {
            page.changedSince = LineDiff.changes(shown.snapshot, current.snapshot) ?? []
            page.hasChangedSince = !page.changedSince.isEmpty
        }
        return try pages.privatePage("admin/edit", page, request, status: .conflict)
    }

    /// The question was saved by someone else since the form was shown (at version `shown`;
    /// now at `version`).
    private struct SavedSince: Error {
        var shown: Int
        var version: Int
    }
}
