import ExamData
import Foundation
import Interop
import PortalApp
import PortalTestSupport
import PostgresClient
import QuestionEngine
import TestSupport
import Testing

/// An exam of the newer question kinds (matching, fill-in, hotspot), installed as content is.
enum QuestionKindsExam {
    static let region = "kinds", exam = "all-kinds"

    static let matchingStem = "Match each service with its port.", fillInStem = "In what year was the first Ordnance Survey map printed?"

    /// An exam of one domain with a question of each newer kind, imported as any content is.
    static func install(_ site: PortalSite) throws {
        let document = """
            {"format": 1, "regions": [{"code": "\(region)", "name": "Kinds", "exams": [{"slug": "\(exam)", "title": "All kinds", "language": "en",
             "passMark": 60, "timeLimitSeconds": 600, "questionCount": 3, "domains": [{"slug": "mixed", "title": "Mixed", "weight": 100, "questions": [
              {"key": "k/match", "type": "matching", "stem": "\(matchingStem)", "difficulty": 2, "explanation": "SSH 22, DNS 53, HTTPS 443.",
               "options": [{"id": "p1", "text": "SSH"}, {"id": "p2", "text": "DNS"}, {"id": "p3", "text": "HTTPS"}],
               "targets": [{"id": "t1", "text": "443"}, {"id": "t2", "text": "22"}, {"id": "t3", "text": "25"}, {"id": "t4", "text": "53"}],
               "correct": [1, 3, 0]},
              {"key": "k/fill", "type": "fill-in", "stem": "\(fillInStem)", "difficulty": 3, "explanation": "1801, give or take a year.",
               "options": [], "accepted": ["1801"], "match": "numeric", "tolerance": 1, "partial": [{"answer": "1790", "share": 0.5, "tolerance": 10}]},
              {"key": "k/hot", "type": "hotspot", "stem": "\(hotspotStem)", "difficulty": 1, "explanation": "The router is the circle.",
               "imageUrl": "/images/diagrams/network-a.svg",
               "options": [{"id": "r", "text": "Device A", "region": {"shape": "circle", "coords": [100, 100, 40]}},
                           {"id": "s", "text": "Device B", "region": {"shape": "rect", "coords": [200, 60, 300, 140]}}],
               "correct": [0]}]}]}]}]}
            """
        let parsed = try ContentDocument.decode(Data(document.utf8))
        #expect(ContentImport().problems(parsed).isEmpty)
        _ = try site.admin { try ContentImport().apply(parsed, $0) }
    }

    static let hotspotStem = "Click the router."
}
