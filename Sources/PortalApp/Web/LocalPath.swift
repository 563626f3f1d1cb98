import Foundation

/// Paths on this site to come back to after signing in or sending a form.
enum LocalPath {
    /// Only a path on this site is a place to return to: never another site (`//evil.example`).
    static func validated(_ path: String?) -> String? {
        guard let path, path.hasPrefix("/"), !path.hasPrefix("//"), !path.contains("\\"), path.count < 500 else { return nil }
        return path
    }

    /// `path` escaped for a query value such as `next=`.
    static func escaped(_ path: String) -> String {
        path.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(.init(charactersIn: "/-_"))) ?? "/"
    }

    /// The sign-in page, coming back to `path` afterwards.
    static func signIn(returningTo path: String) -> String { "/login?next=" + escaped(path) }
}
