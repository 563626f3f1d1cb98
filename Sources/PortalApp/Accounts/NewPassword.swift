import HTTPServer

/// A new password typed twice (registration, a reset by code or by mail link): the policy's
/// problem with it, or that the two differ, said beside the field it concerns.
struct NewPassword: Sendable {
    let password: String
    let confirmation: String

    init(_ form: FormReader) {
        (password, confirmation) = (form.text("password"), form.text("password_confirmation"))
    }

    /// What is wrong with it for the account `username` ("" when not known yet), if anything.
    func problem(username: String) -> FormProblem? {
        if let problem = PasswordPolicy.problem(password, username: username) { return FormProblem("password", problem) }
        if password != confirmation { return FormProblem("password_confirmation", "account.password_mismatch") }
        return nil
    }
}

/// The zone a sign-in or registration form's script filled in from the browser (`browser_zone`):
/// the account's when its zone was never confirmed.
struct BrowserZone: Sendable {
    let zone: String?

    init(_ form: FormReader) {
        let zone = form.text("browser_zone")
        self.zone = zone.isEmpty || zone.utf8.count > 64 ? nil : zone
    }
}
