import Foundation
import Interop
import QuestionEngine

/// The demo catalogue (`DemoCorpus`) as one format-1 document, with the pictures its hotspot
/// questions show: what `portal seed` hands to the importer like any other content.
public enum DemoCatalog {
    /// The whole demo catalogue as a format-1 document.
    public static var document: ContentDocument {
        var images: [ContentImage] = [], stored = Set<String>()
        let regions = DemoCorpus.regions.map { region in
            ContentDocument.Region(code: region.code, name: region.name, exams: region.exams.map { exam in
                ContentDocument.Exam(
                    slug: exam.slug, title: exam.title, description: exam.description, language: exam.language, passMark: exam.passMark,
                    timeLimitSeconds: exam.timeLimitSeconds, questionCount: exam.questionCount,
                    domains: exam.domains.map { domain in
                        let questions = DemoCorpus.questions(exam: exam, domain: domain)
                        for image in questions.flatMap(\.images) where stored.insert(image.path).inserted { images.append(image) }
                        return ContentDocument.Domain(slug: domain.slug, title: domain.title, weight: domain.weight, questions: questions.map(\.document))
                    })
            })
        }
        return ContentDocument(regions: regions, images: images.isEmpty ? nil : images)
    }
}
