import Foundation
import Synchronization

/// Every template and message catalogue of a folder, parsed once at start.
///
///     let templates = try TemplateSet(directory: "Templates", mode: .production)
///     let html = try templates.render("exams/show", page, locale: "en", now: Date())
///
/// Template names are paths without `.html` (`layout`, `exams/show`, `partials/nav`);
/// catalogues are `i18n/{locale}.json`. A syntax error, a partial or layout that does not
/// exist, or a catalogue missing keys that English has, stops start-up with the place named.
public final class TemplateSet: Sendable {
    /// How forgiving rendering is.
    public enum Mode: Sendable {
        /// A missing variable or message renders as nothing (or the key).
        case production
        /// A missing variable or message is an error, and changed files are re-read.
        case development
        /// Errors like development, no re-reading.
        case strict
    }

    struct Compiled: Sendable {
        var templates: [String: [TemplateNode]]
        var catalogs: [String: MessageCatalog]
        var signature: [String: Date]
        var locales: [String] { catalogs.keys.sorted() }
    }

    public let mode: Mode
    private let directory: String?
    /// What production and strict modes render from: never replaced, so read without a lock
    /// by every worker at once.
    private let fixed: Compiled?
    /// What development mode renders from: replaced when a file changes.
    private let compiled: Mutex<Compiled>
    private let sortedLocales: [String]
    /// The fallback language, and the one every other catalogue is checked against.
    public static let defaultLocale = "en"

    public init(directory: String, mode: Mode) throws {
        self.directory = directory
        self.mode = mode
        let loaded = try mode == .development ? Self.load(directory) : Self.loadOnce(directory)
        compiled = Mutex(loaded)
        fixed = mode == .development ? nil : loaded
        sortedLocales = loaded.locales
    }

    /// Templates and catalogues from memory (tests).
    public init(templates: [String: String], catalogs: [MessageCatalog], mode: Mode = .strict) throws {
        directory = nil
        self.mode = mode
        var parsed: [String: [TemplateNode]] = [:]
        for (name, source) in templates { parsed[name] = try TemplateParser.parse(source, name: name) }
        try Self.checkReferences(parsed)
        let loaded = Compiled(templates: parsed, catalogs: Dictionary(uniqueKeysWithValues: catalogs.map { ($0.locale, $0) }), signature: [:])
        compiled = Mutex(loaded)
        fixed = mode == .development ? nil : loaded
        sortedLocales = loaded.locales
    }

    private var current: Compiled { fixed ?? compiled.withLock { $0 } }

    /// The locales with a catalogue.
    public var locales: [String] { fixed == nil ? compiled.withLock { $0.locales } : sortedLocales }

    /// The catalogue for a locale (falling back to English).
    public func catalog(for locale: String) -> MessageCatalog? {
        let state = current
        return state.catalogs[locale] ?? state.catalogs[Self.defaultLocale]
    }

    /// Renders a template with an `Encodable` page struct.
    public func render<Page: Encodable>(_ name: String, _ page: Page, locale: String, now: Date) throws -> [UInt8] {
        try render(name, value: TemplateValue(encoding: page), locale: locale, now: now)
    }

    /// Renders a template with a value tree. `fragments` are the template's `{{%name}}`
    /// sections, each kept in `store` under its key.
    public func render(
        _ name: String, value: TemplateValue, locale: String, now: Date, fragments: [String: Fragment] = [:], store: (any FragmentStore)? = nil
    ) throws -> [UInt8] {
        if mode == .development { try reloadIfChanged() }
        let state = current
        guard let catalog = state.catalogs[locale] ?? state.catalogs[Self.defaultLocale] ?? state.catalogs.values.first else {
            throw CatalogError("no message catalogue is loaded")
        }
        let reads = FragmentReads()
        do {
            return try Renderer(
                templates: state.templates, catalog: catalog, now: now, strict: mode != .production, fragments: fragments, store: store,
                reads: reads
            ).render(name, value)
        } catch {
            // A fragment's data could not be read: the reader gets that error, not a template's.
            if let cause = reads.error { throw cause }
            throw error
        }
    }

    private func reloadIfChanged() throws {
        guard let directory else { return }
        let current = Self.signature(directory)
        if compiled.withLock({ $0.signature != current }) {
            let fresh = try Self.load(directory)
            compiled.withLock { $0 = fresh }
        }
    }

    private static func signature(_ directory: String) -> [String: Date] {
        var result: [String: Date] = [:]
        let manager = FileManager.default
        guard let enumerator = manager.enumerator(atPath: directory) else { return result }
        while let relative = enumerator.nextObject() as? String {
            guard relative.hasSuffix(".html") || relative.hasSuffix(".json") else { continue }
            result[relative] = (try? manager.attributesOfItem(atPath: directory + "/" + relative))?[.modificationDate] as? Date
        }
        return result
    }

    /// The folders parsed so far by sets that never re-read them, by path.
    private static let parsedFolders = Mutex<[String: Compiled]>([:])

    /// A folder's templates parsed once per process for every set that never re-reads them
    /// (a server and its mail agent, or the many servers a test run starts: parsing every
    /// template and catalogue took a fifth of the Swift tests' time).
    private static func loadOnce(_ directory: String) throws -> Compiled {
        if let parsed = parsedFolders.withLock({ $0[directory] }) { return parsed }
        let loaded = try load(directory)
        parsedFolders.withLock { $0[directory] = loaded }
        return loaded
    }

    private static func load(_ directory: String) throws -> Compiled {
        var templates: [String: [TemplateNode]] = [:]
        var catalogs: [String: MessageCatalog] = [:]
        let manager = FileManager.default
        guard let enumerator = manager.enumerator(atPath: directory) else {
            throw CatalogError("the template folder \(directory) does not exist")
        }
        while let relative = enumerator.nextObject() as? String {
            let path = directory + "/" + relative
            if relative.hasSuffix(".html") {
                let name = String(relative.dropLast(5))
                templates[name] = try TemplateParser.parse(try String(contentsOfFile: path, encoding: .utf8), name: relative)
            } else if relative.hasPrefix("i18n/"), relative.hasSuffix(".json") {
                let locale = String(relative.dropFirst(5).dropLast(5))
                catalogs[locale] = try MessageCatalog(locale: locale, json: try Data(contentsOf: URL(fileURLWithPath: path)))
            }
        }
        try checkReferences(templates)
        if let english = catalogs[defaultLocale] {
            for (locale, catalog) in catalogs where locale != defaultLocale {
                let missing = english.keys.subtracting(catalog.keys)
                if !missing.isEmpty {
                    throw CatalogError("i18n/\(locale).json lacks \(missing.sorted().prefix(5).joined(separator: ", "))\(missing.count > 5 ? " and \(missing.count - 5) more" : "")")
                }
            }
        }
        return Compiled(templates: templates, catalogs: catalogs, signature: signature(directory))
    }

    /// Every partial and layout named must exist, so a typo fails at start-up, not on a page.
    private static func checkReferences(_ templates: [String: [TemplateNode]]) throws {
        func check(_ nodes: [TemplateNode], in template: String) throws {
            for node in nodes {
                switch node {
                case .partial(let name, let position), .parent(let name, _, let position):
                    if templates[name] == nil {
                        throw TemplateError(template: template, line: position.line, column: position.column, message: "no template named \(name)")
                    }
                    if case .parent(_, let blocks, _) = node { try blocks.values.forEach { try check($0, in: template) } }
                case .section(_, _, let children, _), .block(_, let children), .fragment(_, let children, _):
                    try check(children, in: template)
                default:
                    break
                }
            }
        }
        for (name, nodes) in templates { try check(nodes, in: name) }
    }
}
