/// What a new password must be: 8 characters at least, up to 1 KiB (longer is refused before
/// any hashing), no composition rules, and not one of the passwords everyone tries first.
enum PasswordPolicy {
    static let minimumCharacters = 8
    static let maximumBytes = 1024

    /// The catalogue key of what is wrong, or nil when the password may be used.
    static func problem(_ password: String, username: String) -> String? {
        if password.utf8.count > maximumBytes { return "account.password_too_long" }
        if password.count < minimumCharacters { return "account.password_too_short" }
        let lowered = password.lowercased()
        if common.contains(lowered) || lowered == username.lowercased() { return "account.password_common" }
        return nil
    }

    /// Passwords that appear at the top of every breach list, and their obvious variants.
    static let common: Set<String> = [
        "password", "password1", "password12", "password123", "passw0rd", "p@ssw0rd", "p@ssword", "12345678",
        "123456789", "1234567890", "12345678910", "87654321", "11111111", "00000000", "88888888", "12341234",
        "qwertyui", "qwerty123", "qwertyuiop", "1q2w3e4r", "1qaz2wsx", "zaq12wsx", "asdfghjk", "asdfasdf",
        "iloveyou", "iloveyou1", "sunshine", "princess", "football", "baseball", "superman", "batman123",
        "letmein1", "welcome1", "welcome123", "trustno1", "whatever", "starwars", "dragon123", "monkey123",
        "abc12345", "abcd1234", "aa123456", "a1234567", "changeme", "computer", "internet", "michelle",
        "jennifer", "jordan23", "liverpool", "chocolate", "passpass", "testtest", "test1234", "student1",
        "studyportal", "portal123", "exam1234", "secret123", "admin123", "administrator", "qwerty12",
    ]
}
