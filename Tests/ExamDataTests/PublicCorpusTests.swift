import ExamData
import Foundation
import Interop
import QuestionEngine
import TestSupport
import Testing

/// Other projects' real files (`../shared/corpus/interop/`, beside the repository when it is
/// there; the test skips itself when it is not): every file is read or refused whole, and every
/// question's texts are ones the validator and the tree's rules accept, its trees rendered. The
/// counts it prints are the figures of how much of the corpus comes in as trees.
@Suite("Public question banks", .onTestThreads)
struct PublicCorpusTests {
    static let folder = URL(fileURLWithPath: TestPaths.repository).deletingLastPathComponent().appendingPathComponent("shared/corpus/interop")

    static var files: [URL] {
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return [] }
        return walker.compactMap { $0 as? URL }.filter { ["xml", "txt", "gift", "zip"].contains($0.pathExtension.lowercased()) }.sorted { $0.path < $1.path }
    }

    @Test("every public file is read or refused whole, and the texts it gives are ones the validator and the tree's rules accept",
          .enabled(if: FileManager.default.fileExists(atPath: folder.path)))
    func everyFile() throws {
        var read = 0, refused = 0, questions = 0, withTrees = 0, tables = 0, formulas = 0, exhibits = 0
        for file in Self.files {
            let data = try Data(contentsOf: file)
            guard let format = ForeignImport.detect(data) else { refused += 1; continue }
            let content: ForeignContent
            do { content = try ForeignImport().read(data, format: format, language: "en") } catch { refused += 1; continue }
            read += 1
            for question in content.questions {
                questions += 1
                guard question.hasTrees else { continue }
                withTrees += 1
                let trees = [question.richStem, question.richFeedback].compactMap { $0 } + question.options.flatMap { [$0.richText, $0.richFeedback].compactMap { $0 } }
                for tree in trees {
                    #expect(throws: Never.self, "\(file.lastPathComponent) \(question.position)") { try RichTextCheck.check(tree) }
                    let html = RichTextHTML.render(tree)
                    if html.contains("<table>") { tables += 1 }
                    if html.contains("<math") { formulas += 1 }
                    if html.contains("class=\"exhibit\"") { exhibits += 1 }
                }
            }
            // Its texts are storable as format 1, whatever the file held (keys and option counts
            // are the importer's other rules, not the texts').
            let exam = ContentDocument.Exam(slug: "corpus", title: "Corpus", description: "", language: "en", passMark: 70, timeLimitSeconds: 600,
                                            questionCount: 10, domains: [ContentDocument.Domain(slug: "all", title: "All", weight: 100, questions: [])])
            let into = ContentDocument(regions: [ContentDocument.Region(code: "corpus", name: "Corpus", exams: [exam])])
            let document = try ForeignImport().document(content, into: into, domain: "all")
            let problems = ContentImport().problems(document).filter { ["stem", "explanation", "markup"].contains($0.field) || $0.field.hasSuffix(".text") || $0.field.hasSuffix(".explanation") }
            #expect(problems.isEmpty, "\(file.lastPathComponent): \(problems.prefix(3))")
        }
        print("public corpus: \(Self.files.count) files, \(read) read, \(refused) refused; \(questions) questions, \(withTrees) with trees (texts with a table \(tables), a formula \(formulas), an exhibit \(exhibits))")
        #expect(read > 0)
    }
}
