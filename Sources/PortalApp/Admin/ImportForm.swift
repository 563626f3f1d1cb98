import Foundation
import HTTPServer

/// The import form, read once: the document (a file, or text pasted), where it goes and what
/// to do with items of kinds the portal cannot show. It comes as multipart when it carries a
/// file; a multipart body that cannot be read holds no document (the page says so).
struct ImportForm {
    /// The document's bytes; empty when none was sent.
    var bytes: [UInt8] = []
    /// Whether the document came as a file (a refused file is not pasted back into the text box).
    var fromFile = false
    /// `region/exam` for a format that names no exam of its own.
    var into = ""
    /// The domain such items go into.
    var domain = ""
    var skipUnsupported = false
    /// The form's one-time token (`SentOnce`).
    var sentOnceToken: String?

    init(_ request: PortalRequest) {
        var fields: [String: String] = [:]
        if let type = request.headers["Content-Type"], type.lowercased().hasPrefix("multipart/form-data") {
            let parts = (try? Multipart.parse(body: request.body, contentType: type)) ?? []
            for part in parts where part.name != "file" && part.name != "document" { fields[part.name] = String(decoding: part.data, as: UTF8.self) }
            if let file = parts.first(where: { $0.name == "file" && !$0.data.isEmpty }) {
                (bytes, fromFile) = (file.data, true)
            } else if let pasted = parts.first(where: { $0.name == "document" && !$0.data.isEmpty }) {
                bytes = pasted.data
            }
        } else {
            let form = FormFields(body: request.body)
            bytes = Array((form["document"] ?? "").utf8)
            for name in ["into", "domain", "skip_unsupported", SentOnce.field] { fields[name] = form[name] }
        }
        into = fields["into"] ?? ""
        domain = (fields["domain"] ?? "").trimmingCharacters(in: .whitespaces)
        skipUnsupported = fields["skip_unsupported"] == "on"
        sentOnceToken = fields[SentOnce.field]
    }
}
