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
        /// A reminder's link that turns reminders off (`MailDraft.linkMark`), and its words.
        var unsubscribe: String?
        var unsubscribeLabel: String?
    }

    /// Where the site's own address goes in a body (the sender knows it: `PUBLIC_URL`).
    static let siteMark = "{site}"

    /// A reminder of the reviews due: how many, about how long, one link to start, one to stop
    /// the reminders.
    func digest(_ due: MailDigests.Due) throws -> MailDraft {
        let locale = due.locale
        let minutes = max(1, (due.reviews * due.secondsPerReview + 59) / 60)
        let count = ["count": String(due.reviews), "minutes": String(minutes)]
        func text(_ key: String, _ arguments: [String: String] = [:], plural: Bool = false) -> String {
            pages.message("mail." + key, locale: locale, arguments, count: plural ? Double(due.reviews) : nil)
        }
        let message = Message(
            subject: text(due.weekly ? "digest_subject_week" : "digest_subject_day", count, plural: true),
            greeting: text("digest_greeting", ["name": due.displayName]),
            paragraphs: [text(due.weekly ? "digest_body_week" : "digest_body_day", count, plural: true), text("digest_why")],
            buttonLabel: text("digest_button"), link: Self.siteMark + "/me", afterword: text("digest_afterword"), footer: text("footer"),
            unsubscribe: MailDraft.linkMark, unsubscribeLabel: text("digest_unsubscribe"))
        let html = try pages.render("mail/message", message, locale: locale)
        return MailDraft(locale: locale, subject: message.subject, text: Self.plainText(message), html: String(decoding: html, as: UTF8.self))
    }

    /// An admin's decision on a request to teach: approved, with the way to the teaching area;
    /// refused, with the way to ask again.
    func teaching(approved: Bool, name: String, locale: String) throws -> MailDraft {
        func text(_ key: String) -> String { pages.message("mail.teaching_" + (approved ? "approved_" : "refused_") + key, locale: locale) }
        let message = Message(
            subject: text("subject"), greeting: pages.message("mail.digest_greeting", locale: locale, ["name": name]), paragraphs: [text("body")],
            buttonLabel: text("button"), link: Self.siteMark + (approved ? "/teach" : "/me/teaching"),
            afterword: pages.message("mail.teaching_afterword", locale: locale), footer: pages.message("mail.footer", locale: locale))
        let html = try pages.render("mail/message", message, locale: locale)
        return MailDraft(locale: locale, subject: message.subject, text: Self.plainText(message), html: String(decoding: html, as: UTF8.self))
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
        if let unsubscribe = message.unsubscribe, let label = message.unsubscribeLabel { blocks.append(label + ": " + unsubscribe) }
        return blocks.joined(separator: "\n\n") + "\n"
    }
}
