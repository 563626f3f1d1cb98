/// A link's token as the database makes it (`mail_token`): 64 lowercase hexadecimal digits.
/// Anything else in a link's path is not a token and is answered 404 without a look-up.
enum MailToken {
    static func isWellFormed(_ token: String) -> Bool {
        token.utf8.count == 64 && token.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}
