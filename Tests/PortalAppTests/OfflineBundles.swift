import ExamData
import Foundation
import HTTPServer
import OfflineBundle
import PortalApp
import PortalTestSupport
import PostgresClient
import TestSupport
import Testing

/// The offline manifest's entry for the mini exam, as a device reads it.
enum OfflineBundles {
    static func manifest(_ site: PortalSite) throws -> Manifest.Item {
        let response = try site.browser().request("GET", "/offline/manifest.json")
        #expect(response.status == 200)
        let manifest = try JSONDecoder().decode(Manifest.self, from: Data(response.body))
        #expect(manifest.format == 1)
        return try #require(manifest.exams.first { $0.slug == MiniExam.exam })
    }

    struct Manifest: Decodable {
        struct Item: Decodable { var region: String; var slug: String; var version: String; var questions: Int; var url: String; var bytes: Int }
        var format: Int
        var exams: [Item]
    }
}
