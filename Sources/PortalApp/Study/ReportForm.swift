import ExamData

/// The "report this question" form of a question page and of each question on the results
/// (`sessions/_report_form`): where the reader comes back to, their form token and the reasons
/// in their language. The question's id and number come from the page around it.
struct ReportForm: Encodable {
    /// A reason to choose.
    struct Reason: Encodable {
        var value: String
        var label: String
    }

    var returnTo: String
    var csrfToken: String
    var reasons: [Reason]

    init(returnTo: String, csrfToken: String, pages: PageRenderer, locale: String) {
        self.returnTo = returnTo
        self.csrfToken = csrfToken
        reasons = ReportReason.allCases.map { Reason(value: $0.rawValue, label: pages.message("report.reason.\($0.rawValue)", locale: locale)) }
    }
}
