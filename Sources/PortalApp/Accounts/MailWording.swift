import ExamData
import Foundation

/// The portal's messages worded in the reader's language: a subject, a plain-text body and an
/// HTML one (`Templates/mail/message.html`) from the catalogue's `mail.*` strings. A message
/// with a link carries `MailDraft.linkMark` where the sender puts it: the database makes the
/// link's token, and only the sender ever reads it.
struct MailWording: Sendable {
    let pages: PageRenderer

    /// What a message is for.
    enum Purpose {
        /// A link to choose a new password (an hour).
        case passwordReset
        /// A link that proves an address (a day).
        case addressCheck
        /// To an address no longer the account's.
        case addressReplaced
    }

    /// What the HTML template shows.
    struct Message: Encodable {
        var subject: String
        var greeting: String
        var paragraphs: [String]
        var buttonLabel: String?
        var link: String?
        var afterword: String
        var footer: String
    }

    func draft(_ purpose: Purpose, locale: String) throws -> MailDraft {
        func text(_ key: String) -> String { pages.message("mail." + key, locale: locale) }
        let message: Message
        switch purpose {
        case .passwordReset:
            message = Message(
                subject: text("reset_subject"), greeting: text("greeting"), paragraphs: [text("reset_body")], buttonLabel: text("reset_button"),
                link: MailDraft.linkMark, afterword: text("reset_ignore"), footer: text("footer"))
        case .addressCheck:
            message = Message(
                subject: text("verify_subject"), greeting: text("greeting"), paragraphs: [text("verify_body")], buttonLabel: text("verify_button"),
                link: MailDraft.linkMark, afterword: text("verify_ignore"), footer: text("footer"))
        case .addressReplaced:
            message = Message(
                subject: text("changed_subject"), greeting: text("greeting"), paragraphs: [text("changed_body")], buttonLabel: nil, link: nil,
                afterword: text("changed_advice"), footer: text("footer"))
        }
        let html = try pages.render("mail/message", message, locale: locale)
        return MailDraft(locale: locale, subject: message.subject, text: Self.plainText(message), html: String(decoding: html, as: UTF8.self))
    }

    /// The plain-text body: the same words, the link on a line of its own.
    static func plainText(_ message: Message) -> String {
        var blocks = [message.greeting] + message.paragraphs
        if let link = message.link { blocks.append(link) }
        blocks += [message.afterword, "-- \n" + message.footer]
        return blocks.joined(separator: "\n\n") + "\n"
    }
}
