/// A one-time code for a forgotten password, as a teacher or an admin hands it over: twelve
/// letters and digits a person can read aloud and type (`Crypto.code`'s alphabet, about 60
/// bits), shown in groups of four. Only its hash is stored.
struct ResetCode: Sendable, Equatable {
    static let length = 12

    /// The code's characters, upper case, without separators.
    let text: String

    /// A new random code.
    static func random() -> ResetCode { ResetCode(text: Crypto.code(length: length)) }

    private init(text: String) { self.text = text }

    /// A code as typed: case, spaces and dashes do not matter; nil when it cannot be a code.
    init?(typed: String) {
        let kept = typed.uppercased().filter { !$0.isWhitespace && $0 != "-" }
        guard kept.count == Self.length, kept.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else { return nil }
        text = kept
    }

    /// `ABCD-EFGH-JKLM`: easier to read out and to copy.
    var grouped: String {
        stride(from: 0, to: text.count, by: 4).map { start in
            String(text.dropFirst(start).prefix(4))
        }.joined(separator: "-")
    }

    /// The reset form at `address` (`…/reset`) filled in with this code for `username`, as the
    /// card's QR code opens it; `first` for a start code's first sign-in.
    func formURL(address: String, username: String, first: Bool = false) -> String {
        address + (first ? "?first=1&" : "?") + "user=" + LocalPath.escaped(username) + "&code=" + text
    }

    /// What the database keeps and compares.
    var hash: [UInt8] { Crypto.sha256(Array(text.utf8)) }
}
