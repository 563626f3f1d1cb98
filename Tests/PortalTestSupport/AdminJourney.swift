import Foundation
import TestSupport

/// Sends a document to the admin's import page as its form does; when the file is good, reads the
/// dry run it leads to and imports it from there — published, or its new questions as drafts.
/// The page the admin read: the refusal, or the dry run's report of what the import would do.
@discardableResult
public func importThroughCheck(_ admin: Browser, _ fields: [String: String], drafts: Bool = false) throws -> RawHTTPClient.Response {
    let sent = try admin.submit("/admin/import", to: "/admin/import", fields)
    guard sent.status == 303, let location = sent.header("Location"), location.hasPrefix("/admin/import/") else { return sent }
    let check = try admin.request("GET", location)
    guard check.status == 200, let form = PageForm.all(in: check.bodyText, action: location).first else { return check }
    let imported = try admin.request("POST", location, pairs: form.filled(["publish": drafts ? "0" : "1"]))
    guard imported.status == 303 else { throw TestEnvironmentError("the checked import answered \(imported.status): \(imported.bodyText.prefix(300))") }
    return check
}
