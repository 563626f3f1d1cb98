import ExamData
import Foundation
import HTTPServer
import Identifiers
import QRCode
import TemplateEngine

/// Schools: `/teach` (a teacher's classes), `/teach/classes/{id}` (members, assignments and
/// progress), share links `/s/{token}`, joining a class `/join/{code}`, `/me/classes`: each job
/// in a file of its own (`TeachingPages`, `ShareLinkPages`, `JoiningPages`), what they share here.
struct SchoolPages: Sendable {
    let pages: PageRenderer
    let clock: @Sendable () -> Date
    let starter: SessionStart
    let site: SiteAddress
    /// Kept class pages.
    let keeper: PageKeeper

    /// Unknown join codes tried per client address in ten minutes.
    static let codeMissesPerTenMinutes = 20
}
