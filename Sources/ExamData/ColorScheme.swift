/// The colour scheme an account's pages use, as `users.color_scheme` stores it.
public enum ColorScheme: String, Sendable, Equatable, CaseIterable {
    /// As the device prefers (light or dark), the default.
    case device
    case light
    case dark
}
