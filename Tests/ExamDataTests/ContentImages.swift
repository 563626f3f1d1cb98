import ContentPackage
import ExamData
import Foundation
import Interop
import PostgresClient
import QuestionEngine
import TestSupport
import Testing

/// The smallest pictures the content tests store.
enum ContentImages {
    static let ring = Array(#"<svg xmlns="http://www.w3.org/2000/svg" width="8" height="6"><circle cx="4" cy="3" r="2"/></svg>"#.utf8)
}
