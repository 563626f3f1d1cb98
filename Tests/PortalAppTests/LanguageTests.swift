import ExamData
import Foundation
import HTTPServer
import PortalTestSupport
import TemplateEngine
import TestSupport
import Testing

/// The portal in its students' languages: the catalogues, how a language is chosen, how dates
/// and numbers read, and every page valid in every language.
@Suite("Languages", .onTestThreads)
struct LanguageTests {
    static let languages = ["de", "es", "it", "ja", "th", "zh"]

    /// A catalogue as dotted keys; a plural message is its forms by category.
    static func catalogue(_ locale: String) throws -> [String: [String: String]] {
        let data = try Data(contentsOf: URL(fileURLWithPath: TestPaths.repository + "/Templates/i18n/\(locale).json"))
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        var flat: [String: [String: String]] = [:]
        let categories: Set<String> = ["zero", "one", "two", "few", "many", "other"]
        func walk(_ value: Any, _ prefix: String) {
            if let text = value as? String {
                flat[prefix] = ["": text]
            } else if let object = value as? [String: Any] {
                if Set(object.keys).isSubset(of: categories), let forms = object as? [String: String] {
                    flat[prefix] = forms
                } else {
                    for (key, child) in object { walk(child, prefix.isEmpty ? key : prefix + "." + key) }
                }
            }
        }
        walk(root, "")
        return flat
    }

    static func placeholders(_ text: String) -> Set<String> {
        var found: Set<String> = []
        var rest = text[...]
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            found.insert(String(rest[open...close]))
            rest = rest[rest.index(after: close)...]
        }
        return found
    }

    /// Messages that are the same in English by nature: the portal's name, a lone placeholder
    /// with a sign, and words the language shares with English.
    static let sameAsEnglish: [String: Set<String>] = [
        "": ["site.name", "exam.pass_mark_value", "exam.weight_value", "results.percent", "leaderboard.accuracy_value", "offline.session_heading",
             "lti.admin_nav", "account.list_separator"],
        "de": ["report.comment_label", "live.code", "admin.import", "admin.export", "admin.problem", "admin.details", "admin.status", "admin.search",
               "admin.version", "admin.edit.code", "lti.roster_name", "rhythm.load_normal"],
        "es": ["exam.total", "error.status", "sessions.duration", "school.no", "lti.admin_client_id", "lti.admin_endpoints", "rhythm.load_normal"],
        "it": ["sessions.duration", "account.password", "school.no", "lti.admin_client_id", "site.tab_account"],
        "th": ["lti.admin_client_id"],
    ]

    @Test("every catalogue has every English message, with the same placeholders, the plural forms its language needs, and its own words")
    func catalogues() throws {
        let english = try Self.catalogue("en")
        for locale in Self.languages {
            let catalogue = try Self.catalogue(locale)
            #expect(Set(catalogue.keys) == Set(english.keys), "\(locale): missing \(Set(english.keys).subtracting(catalogue.keys).sorted().prefix(5)), extra \(Set(catalogue.keys).subtracting(english.keys).sorted().prefix(5))")
            let allowed = Self.sameAsEnglish[""]!.union(Self.sameAsEnglish[locale] ?? [])
            for (key, englishForms) in english {
                guard let forms = catalogue[key] else { continue }
                let wanted = englishForms.keys.contains("") ? [""] : PluralRules.categories(locale: locale)
                #expect(Set(forms.keys) == Set(wanted), "\(locale) \(key): forms \(forms.keys.sorted()), wanted \(wanted.sorted())")
                let englishPlaceholders = englishForms.values.reduce(into: Set<String>()) { $0.formUnion(Self.placeholders($1)) }
                let ownPlaceholders = forms.values.reduce(into: Set<String>()) { $0.formUnion(Self.placeholders($1)) }
                #expect(ownPlaceholders == englishPlaceholders, "\(locale) \(key): \(ownPlaceholders.sorted()) against \(englishPlaceholders.sorted())")
                #expect(forms.values.allSatisfy { !$0.trimmingCharacters(in: .whitespaces).isEmpty }, "\(locale) \(key) is empty")
                if !allowed.contains(key) {
                    #expect(forms != englishForms, "\(locale) \(key) is the English text")
                }
            }
        }
    }

    @Test("every catalogue keeps to the glossary: its words for exam, practice, review, due… appear, and the words kept out do not")
    func glossary() throws {
        let text = try String(contentsOfFile: TestPaths.repository + "/docs/glossary.md", encoding: .utf8)
        let parts = text.components(separatedBy: "Words kept out")
        try #require(parts.count == 2, "the glossary has its table of words kept out")
        func rows(_ table: String) -> [[String]] {
            table.split(separator: "\n").filter { $0.hasPrefix("| ") }.dropFirst()
                .map { $0.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) } }
        }
        let columns = ["en"] + Self.languages
        var texts: [String: String] = [:]
        for locale in columns {
            texts[locale] = try Self.catalogue(locale).values.flatMap(\.values).joined(separator: "\n").lowercased()
        }
        let terms = rows(parts[0])
        #expect(terms.count >= 20, "the glossary names the words of every page")
        for row in terms {
            for (locale, cell) in zip(columns, row) {
                for term in cell.components(separatedBy: " / ") {
                    #expect(texts[locale]!.contains(term.lowercased()), "\(locale) never says the glossary's “\(term)” for “\(row[0])”")
                }
            }
        }
        let keptOut = rows(parts[1])
        #expect(keptOut.count >= 10)
        for row in keptOut {
            let (locale, word) = (row[0], row[1])
            let catalogue = try Self.catalogue(locale)
            for (key, forms) in catalogue {
                for form in forms.values {
                    // A whole word: German's "Ihr" must not match "Ihre", Japanese has no spaces to look for.
                    let found = form.ranges(of: word).contains { range in
                        let before = range.lowerBound == form.startIndex ? nil : form[form.index(before: range.lowerBound)]
                        let after = range.upperBound == form.endIndex ? nil : form[range.upperBound]
                        return word.unicodeScalars.first!.properties.isIdeographic || word.unicodeScalars.first!.value > 0x3000
                            || (!(before?.isLetter ?? false) && !(after?.isLetter ?? false))
                    }
                    #expect(!found, "\(locale) \(key) says “\(word)”, which the glossary keeps out: \(form)")
                }
            }
        }
    }

    @Test("the words native readers stumbled on stay fixed: no doubled word, one word each for signing in and a study session, a greeting for anyone")
    func wording() throws {
        for locale in ["en"] + Self.languages {
            for (key, forms) in try Self.catalogue(locale) {
                for text in forms.values {
                    let words = text.split(separator: " ").map { $0.lowercased() }
                    let doubled = zip(words, words.dropFirst()).first { $0 == $1 && $0.allSatisfy(\.isLetter) }
                    #expect(doubled == nil, "\(locale) \(key) says \(doubled?.0 ?? "") twice: \(text)")
                }
            }
        }
        let japanese = try Self.catalogue("ja").values.flatMap(\.values), chinese = try Self.catalogue("zh").values.flatMap(\.values)
        #expect(!japanese.contains { $0.contains("サインイン") || $0.contains("サインアウト") }, "Japanese signs in with ログイン, as the glossary says")
        #expect(!chinese.contains { $0.contains("会话") || $0.contains("交卷") }, "Chinese studies in 学习 and 练习, not a computing 会话; a practice is not handed in")
        let italian = try Self.catalogue("it")
        #expect(italian["dashboard.greeting"]?[""] == "Ti diamo il bentornato, {name}.", "a greeting that fits every student")
        #expect(italian["sessions.progress"]?[""] == "Risposte: {answered} su {total}", "reads right for 1 answer as for 3")
        let english = try Self.catalogue("en")
        #expect(english["results.show_all"]?["one"] == "Show the question" && english["school.share_description"]?["one"]?.contains("1 question of") == true)
    }

    @Test("plural categories follow CLDR: one thing, many, and the languages without plurals")
    func plurals() {
        #expect(PluralRules.category(for: 1, locale: "de") == "one")
        #expect(PluralRules.category(for: 2, locale: "de") == "other")
        #expect(PluralRules.category(for: 1_000_000, locale: "de") == "other")
        #expect(PluralRules.category(for: 1, locale: "es") == "one")
        #expect(PluralRules.category(for: 1_000_000, locale: "es") == "many")
        #expect(PluralRules.category(for: 2_000_000, locale: "it") == "many")
        #expect(PluralRules.category(for: 1_000_001, locale: "it") == "other")
        #expect(PluralRules.category(for: 0, locale: "es") == "other")
        for locale in ["ja", "zh", "th"] {
            #expect(PluralRules.category(for: 1, locale: locale) == "other")
        }
        #expect(NumberFormatting.grouped(1240, locale: "de") == "1.240")
        #expect(NumberFormatting.grouped(1240, locale: "es") == "1240")
        #expect(NumberFormatting.grouped(12_400, locale: "es") == "12.400")
        #expect(NumberFormatting.grouped(1240, locale: "ja") == "1,240")
    }

    /// The `lang` of the page at `path` for a browser with these headers.
    func pageLanguage(_ browser: Browser, _ path: String = "/", headers: String) throws -> String {
        let body = try browser.request("GET", path, extraHeaders: headers).bodyText
        guard let range = body.range(of: "<html lang=\"") else { return "" }
        return String(body[range.upperBound...].prefix { $0 != "\"" })
    }

    @Test("the language is the account's setting, else the switcher's cookie, else Accept-Language by quality, else English")
    func negotiation() throws {
        let site = try PortalSite()
        let visitor = site.browser()
        let cases: [(String, String)] = [
            ("ja-JP,ja;q=0.9,en;q=0.8", "ja"), ("zh-CN,zh;q=0.9", "zh-Hans"), ("zh-Hans", "zh-Hans"), ("zh-TW", "zh-Hans"),
            ("pt-BR,pt;q=0.9", "en"), ("pt-BR,pt;q=0.9,de;q=0.5", "de"), ("fr;q=0.9, th;q=0.8", "th"), ("en;q=0.5, it", "it"),
            ("es-419", "es"), ("*", "en"), ("", "en"), ("??;q=abc,,;", "en"), ("de;q=0, es;q=0.1", "es"), ("ja;q=2", "ja"),
        ]
        for (header, wanted) in cases {
            #expect(try pageLanguage(visitor, headers: header.isEmpty ? "" : "Accept-Language: \(header)\r\n") == wanted, "\(header)")
        }
        // The switcher: a link on every page, each language named in itself.
        let home = try visitor.request("GET", "/", extraHeaders: "Accept-Language: ja\r\n").bodyText
        #expect(home.contains(#"<a href="/language/th" hreflang="th" lang="th">ไทย</a>"#))
        #expect(home.contains(#"<a href="/language/ja" hreflang="ja" lang="ja" aria-current="true">日本語</a>"#))
        // It keeps the choice in a cookie and goes back to the page it was used on.
        let exam = "/exams/\(MiniExam.region)/\(MiniExam.exam)"
        let switched = try visitor.request("GET", "/language/es", extraHeaders: "Referer: http://127.0.0.1:\(site.server.port)\(exam)\r\n")
        #expect(switched.status == 303)
        #expect(switched.header("Location") == exam)
        #expect(visitor.cookies["portal_lang"] == "es")
        #expect(try pageLanguage(visitor, exam, headers: "Accept-Language: ja\r\n") == "es")
        // The server's own refusals speak the reader's language too.
        let nowhere = try site.browser().request("GET", "/no/such/page", extraHeaders: "Accept-Language: ja\r\n")
        #expect(nowhere.status == 404)
        #expect(nowhere.bodyText.contains("このアドレスには何もありません。"))
        let wrongMethod = try site.browser().request("DELETE", "/", extraHeaders: "Accept-Language: de\r\n")
        #expect(wrongMethod.status == 405)
        #expect(wrongMethod.bodyText.contains("Diese Adresse nimmt kein DELETE an."))
        #expect(wrongMethod.header("Allow") != nil)
        // Back elsewhere: never to another site; an unknown language is a page saying so.
        let away = try visitor.request("GET", "/language/de", extraHeaders: "Referer: https://elsewhere.example/phish\r\n")
        #expect(away.header("Location") == "/")
        let unknown = try visitor.request("GET", "/language/pt")
        #expect(unknown.status == 404)
        #expect(unknown.bodyText.contains("Choose a language from the list at the foot of the page") || unknown.bodyText.contains("Sprache"))

        // A signed-in student's setting comes first, and the switcher sets it.
        let student = site.browser()
        _ = try student.register("ada")
        #expect(try pageLanguage(student, "/me", headers: "Accept-Language: it\r\n") == "it")
        let settings = try student.request("GET", "/me/settings")
        let token = student.csrfToken(from: settings)
        let saved = try student.request("POST", "/me/language", form: ["csrf_token": token, "language": "th"])
        #expect(saved.status == 303, "\(saved.status) \(saved.bodyText.prefix(2000))")
        student.cookies["portal_lang"] = nil
        #expect(try pageLanguage(student, "/me", headers: "Accept-Language: it\r\n") == "th")
        #expect(try site.count("SELECT count(*) AS n FROM users WHERE username = 'ada' AND locale = 'th'") == 1)
        #expect(try student.request("POST", "/me/language", form: ["csrf_token": token, "language": "xx"]).status == 422)
        _ = try student.request("GET", "/language/de")
        student.cookies["portal_lang"] = nil
        #expect(try pageLanguage(student, "/me", headers: "Accept-Language: it\r\n") == "de")
        // Following the browser again.
        #expect(try student.request("POST", "/me/language", form: ["csrf_token": token, "language": ""]).status == 303)
        #expect(try pageLanguage(student, "/me", headers: "Accept-Language: ja\r\n") == "ja")
    }

    @Test("a Japanese student studies in Japanese: the question's own language is marked, dates read 2026年…, Thai shows the Buddhist year")
    func studyingInJapanese() throws {
        let site = try PortalSite()
        let browser = site.browser()
        browser.cookies["portal_lang"] = "ja"
        _ = try browser.register("hanako")
        let (_, path) = try startSession(browser)
        let question = try browser.request("GET", path).bodyText
        #expect(question.contains("<html lang=\"ja\""))
        #expect(question.contains("解答を確認") || question.contains("正しいものを"), "\(question.prefix(3000))")
        #expect(question.contains(#"lang="en""#), "the English question carries its own lang")
        let examPath = "/exams/\(MiniExam.region)/\(MiniExam.exam)"
        let token = browser.csrfToken(from: try browser.request("GET", examPath))
        // The 15th of the month after next, in the site's clock.
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        let later = calendar.dateComponents([.year, .month], from: calendar.date(byAdding: .month, value: 2, to: site.clock.read())!)
        let (year, month) = (later.year!, later.month!)
        let day = String(format: "%04d-%02d-15", year, month)
        #expect(try browser.request("POST", examPath + "/date", form: ["csrf_token": token, "sits_on": day]).status == 303)
        #expect(try browser.request("GET", examPath).bodyText.contains("\(year)年\(month)月15日"))
        browser.cookies["portal_lang"] = "th"
        _ = try browser.request("GET", "/language/th")
        let thaiMonths = ["มกราคม", "กุมภาพันธ์", "มีนาคม", "เมษายน", "พฤษภาคม", "มิถุนายน", "กรกฎาคม", "สิงหาคม", "กันยายน", "ตุลาคม", "พฤศจิกายน", "ธันวาคม"]
        #expect(try browser.request("GET", examPath).bodyText.contains("15 \(thaiMonths[month - 1]) \(year + 543)"))
        browser.cookies["portal_lang"] = "de"
        _ = try browser.request("GET", "/language/de")
        let germanMonths = ["Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober", "November", "Dezember"]
        #expect(try browser.request("GET", examPath).bodyText.contains("15. \(germanMonths[month - 1]) \(year)"))
    }

    @Test("every page a student meets is valid HTML in every language")
    func everyLanguageValid() throws {
        let site = try PortalSite()
        var pages: [(name: String, body: [UInt8])] = []
        for locale in ["en"] + Self.languages {
            let browser = site.browser()
            browser.cookies["portal_lang"] = locale
            pages.append(("home-\(locale)", try browser.request("GET", "/").body))
            pages.append(("login-\(locale)", try browser.request("GET", "/login").body))
            _ = try browser.register("student\(locale)")
            pages.append(("exam-\(locale)", try browser.request("GET", MiniExam.path).body))
            let (_, path) = try startSession(browser, count: "2")
            let page = try browser.request("GET", path)
            pages.append(("question-\(locale)", page.body))
            let form = try QuestionForm(page)
            try browser.request("POST", path + "/answers", pairs: form.pairs(form.item.key))
            pages.append(("answered-\(locale)", try browser.request("GET", path + "?q=1").body))
            _ = try browser.request("POST", path + "/finish", form: ["csrf_token": browser.csrfToken(from: page)])
            pages.append(("results-\(locale)", try browser.request("GET", path + "/results").body))
            pages.append(("dashboard-\(locale)", try browser.request("GET", "/me").body))
            pages.append(("review-\(locale)", try browser.request("GET", "/me/review").body))
            pages.append(("settings-\(locale)", try browser.request("GET", "/me/settings").body))
            pages.append(("missing-\(locale)", try browser.request("GET", "/exams/nowhere/nothing").body))
            // A teacher's and an admin's pages.
            let (teacher, _, csrf) = try site.account("teacher\(locale)", role: "teacher")
            let (admin, _, _) = try site.account("admin\(locale)", role: "admin")
            teacher.cookies["portal_lang"] = locale
            admin.cookies["portal_lang"] = locale
            let (classID, _) = try makeClass(teacher, csrf: csrf)
            _ = try makeLink(teacher, csrf: csrf, classID: classID, extra: [("attempts", "2")])
            for (name, reader, address) in [
                ("teach", teacher, "/teach"), ("class", teacher, "/teach/classes/\(classID)"), ("share form", teacher, MiniExam.path),
                ("live", teacher, "/live/new"), ("admin", admin, "/admin"), ("admin users", admin, "/admin/users"),
                ("admin questions", admin, "/admin/questions"), ("admin import", admin, "/admin/import"),
            ] {
                pages.append(("\(name)-\(locale)", try reader.request("GET", address).body))
            }
        }
        let check = try HTMLChecker.passes(pages)
        #expect(check.passed, "the Nu Html Checker found errors; run it on \(check.folder) to see them")
    }

    /// Runs of three or more ASCII-only words in what a reader sees of `html` (text and the
    /// attributes read aloud), leaving out scripts, code and anything marked as another
    /// language (the exams' own content).
    static func englishRuns(_ html: String, pageLanguage: String) -> [String] {
        var text = html
        func remove(_ pattern: String) {
            text = text.replacingOccurrences(of: pattern, with: " ", options: [.regularExpression, .caseInsensitive])
        }
        remove("<script[\\s\\S]*?</script>")
        remove("<style[\\s\\S]*?</style>")
        remove("<(pre|code|textarea)[^>]*>[\\s\\S]*?</\\1>")
        // Time zones are named by their IANA ids (Europe/Rome), the same in every language.
        remove("<select id=\"time-zone\"[\\s\\S]*?</select>")
        // Content in another language: an element with its own lang, up to its closing tag.
        for tag in ["ol", "ul", "span", "label", "a", "h1", "h2", "h3", "p", "div", "dd", "th", "td", "li", "option", "legend", "strong"] {
            remove("<\(tag)\\b[^>]*\\blang=\"(?!\(pageLanguage))[^\"]*\"[^>]*>[\\s\\S]*?</\(tag)>")
        }
        var spoken: [String] = []
        let attribute = try! NSRegularExpression(pattern: "\\b(?:title|aria-label|placeholder|alt)=\"([^\"]*)\"")
        for match in attribute.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            if let range = Range(match.range(at: 1), in: text) { spoken.append(String(text[range])) }
        }
        remove("<[^>]+>")
        let visible = ([text] + spoken).joined(separator: " \n ")
            .replacingOccurrences(of: "&amp;", with: "&").replacingOccurrences(of: "&#39;", with: "'").replacingOccurrences(of: "&quot;", with: "\"")
        let words = try! NSRegularExpression(pattern: "[A-Za-z][a-z]+(?:'[a-z]+)?(?:[ ,]+[A-Za-z][a-z]+(?:'[a-z]+)?){2,}")
        return words.matches(in: visible, range: NSRange(visible.startIndex..., in: visible)).compactMap { match in
            Range(match.range, in: visible).map { String(visible[$0]) }
        }
    }

    @Test("pages in Japanese carry no English sentence outside code and the exams' own content")
    func noEnglishLeftInJapanese() throws {
        let site = try PortalSite()
        let (teacher, _, csrf) = try site.account("sensei", role: "teacher", displayName: "先生")
        let (admin, _, _) = try site.account("kanri", role: "admin", displayName: "管理者")
        let student = site.browser()
        for browser in [teacher, admin, student] { browser.cookies["portal_lang"] = "ja" }
        _ = try student.register("hanako")
        // What people type is theirs, in whatever language: the names here are Japanese.
        let (classID, code) = try makeClass(teacher, csrf: csrf, name: "ネットワーク基礎 1年", school: "東高校")
        _ = try student.request("POST", "/join/\(code)", form: ["csrf_token": student.csrfToken(from: try student.request("GET", "/join/\(code)"))])
        let (_, path) = try startSession(student, count: "2")
        let question = try student.request("GET", path)
        let form = try QuestionForm(question)
        try student.request("POST", path + "/answers", pairs: form.pairs(form.item.wrong))
        let answered = try student.request("GET", path + "?q=1")
        _ = try student.request("POST", path + "/finish", form: ["csrf_token": student.csrfToken(from: question)])
        var pages: [(String, String)] = []
        for (name, browser, address) in [
            ("home", student, "/"), ("exam", student, MiniExam.path), ("results", student, path + "/results"),
            ("dashboard", student, "/me"), ("review", student, "/me/review"), ("settings", student, "/me/settings"), ("classes", student, "/me/classes"),
            ("leaderboard", student, MiniExam.path + "/leaderboard"), ("offline", student, "/offline/study"),
            ("missing", student, "/exams/nowhere/nothing"), ("login", site.browser(), "/login"), ("register", site.browser(), "/register"),
            ("teach", teacher, "/teach"), ("class", teacher, "/teach/classes/\(classID)"), ("teacher exam", teacher, MiniExam.path),
            ("live", teacher, "/live/new"), ("admin", admin, "/admin"), ("admin users", admin, "/admin/users"), ("admin import", admin, "/admin/import"),
            ("admin questions", admin, "/admin/questions"), ("admin audit", admin, "/admin/audit"), ("admin reports", admin, "/admin/reports"),
        ] {
            browser.cookies["portal_lang"] = "ja"
            pages.append((name, try browser.request("GET", address).bodyText))
        }
        pages.append(("question", question.bodyText))
        pages.append(("answered", answered.bodyText))
        for (name, body) in pages {
            #expect(body.contains("<html lang=\"ja\""), "\(name) is not in Japanese")
            let runs = Self.englishRuns(body, pageLanguage: "ja")
            #expect(runs.isEmpty, "\(name): English left: \(runs.prefix(8))")
        }
    }
}
