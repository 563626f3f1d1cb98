import ContentPackage
import ExamData
import Foundation
import Interop
import PostgresClient
import QuestionEngine
import TestSupport
import Testing

/// Pictures that come with content: kept with the options that show them, stored once under
/// their bytes' digest, and refused by name when they cannot be kept.
@Suite("Pictures in imported content", .onTestThreads)
struct ContentImageTests {
    static let png = TestPictures.png

    @Test("an image is told by its bytes, not its name, named by its SHA-256, and refused when empty, too large or not a picture")
    func identification() throws {
        let dot = try ContentImage(bytes: Self.png)
        #expect(dot.mediaType == "image/png")
        #expect(dot.path == "/content-images/" + ContentDigest.sha256(Self.png) + ".png")
        #expect(ContentDigest.sha256(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(try ContentImage(bytes: ContentImages.ring).mediaType == "image/svg+xml")
        let declared = Array("<?xml version=\"1.0\"?>\n<!-- drawn by hand -->\n<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" \"x.dtd\">\n<svg/>".utf8)
        #expect(try ContentImage(bytes: declared).mediaType == "image/svg+xml")
        #expect(ContentImage.mediaType(of: [0xFF, 0xD8, 0xFF, 0xE0]) == "image/jpeg")
        #expect(ContentImage.mediaType(of: Array("GIF89a....".utf8)) == "image/gif")
        #expect(ContentImage.mediaType(of: Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8)) == "image/webp")
        #expect(throws: ImageRefusal.empty) { try ContentImage(bytes: []) }
        #expect(throws: ImageRefusal.notAnImage) { try ContentImage(bytes: Array("<html><svg/></html>".utf8)) }
        #expect(throws: ImageRefusal.notAnImage) { try ContentImage(bytes: Array("#!/bin/sh\n".utf8)) }
        #expect(throws: ImageRefusal.tooLarge(ContentImage.maximumBytes + 1)) { try ContentImage(bytes: Self.png + [UInt8](repeating: 0, count: ContentImage.maximumBytes + 1 - Self.png.count)) }
        #expect(ContentImage.digest(inFileName: String(repeating: "a", count: 64) + ".svg") == String(repeating: "a", count: 64))
        for name in [String(repeating: "a", count: 64) + ".exe", String(repeating: "A", count: 64) + ".png", "../" + String(repeating: "a", count: 61) + ".png", "x.png"] {
            #expect(ContentImage.digest(inFileName: name) == nil, "\(name)")
        }
    }

    @Test("Moodle XML: an answer's embedded picture is kept with its option; a picture in the question without alt text, at an outside address, missing or not a picture is named")
    func moodlePictures() throws {
        let content = try ForeignImport().read(try ForeignFiles.fixture("topology.moodle.xml"), format: .moodleXML, language: "en")
        let star = try #require(content.questions.first)
        #expect(content.questions.count == 1)
        #expect(star.options.map(\.text) == ["A star", "A ring of four nodes", "A single dot"])
        #expect(star.options.map { $0.image?.mediaType } == ["image/svg+xml", "image/svg+xml", "image/png"])
        #expect(star.options[2].image == (try ContentImage(bytes: Self.png)))
        #expect(star.options[0].feedback == "Every link goes through the hub.")
        #expect(content.skipped.map(\.reason) == [
            "the picture star.svg in the question text has no alt text: give it one",
            "answer 1: a picture at an outside address (https://example.org/ring.png), which the portal does not load: embed it in the file",
            "answer 1: the picture bus.png is not embedded in the file",
            "answer 1: the picture mesh.png is not a PNG, JPEG, GIF, WebP or SVG image, nor an MP3, Ogg, MP4 or WebM recording",
        ])
        // In the document: each option's address is its picture's, each picture carried once.
        let document = try ForeignImport().document(content, into: try ForeignFiles.exam, domain: nil)
        #expect(document.images?.count == 3)
        #expect(document.imagePaths == document.images?.map(\.path))
        #expect(ContentImport().problems(document, blueprint: false).isEmpty)
    }

    @Test("GIFT: a picture in an [html] question is named (the file cannot carry it), the rest imports")
    func giftPicture() throws {
        let gift = """
            ::ring::[html]<p>Which layout is this? <img src="https://example.org/ring.png" alt=""></p> {=Ring ~Star}

            ::bus::Which layout shares one line? {=Bus ~Ring}
            """
        let content = try ForeignImport().read(Data(gift.utf8), format: .gift, language: "en")
        #expect(content.questions.map(\.key) == ["gift:bus"])
        #expect(content.skipped.map(\.description) == [
            "line 1: a picture at an outside address (https://example.org/ring.png), which the portal does not load: import it as Moodle XML or a package that carries it",
        ])
    }

    @Test("a QTI package: pictures come from the package's files, a choice's as its image, the question text's as an exhibit; one without alt text or missing is named")
    func qtiPictures() throws {
        func item(_ identifier: String, lead: String = "", ringSource: String) -> Zip.Entry {
            Zip.Entry(path: "items/\(identifier).xml", bytes: Array("""
                <?xml version="1.0" encoding="UTF-8"?>
                <qti-assessment-item xmlns="http://www.imsglobal.org/xsd/imsqtiasi_v3p0" identifier="\(identifier)" title="Layout" adaptive="false" time-dependent="false">
                  <qti-response-declaration identifier="RESPONSE" cardinality="single" base-type="identifier">
                    <qti-correct-response><qti-value>RING</qti-value></qti-correct-response>
                  </qti-response-declaration>
                  <qti-item-body>
                    <p>Which layout is a closed loop?\(lead)</p>
                    <qti-choice-interaction response-identifier="RESPONSE" max-choices="1">
                      <qti-simple-choice identifier="RING"><img src="\(ringSource)" alt="A ring"/></qti-simple-choice>
                      <qti-simple-choice identifier="DOT">A dot <img src="../images/dot.png" alt=""/></qti-simple-choice>
                    </qti-choice-interaction>
                  </qti-item-body>
                </qti-assessment-item>
                """.utf8))
        }
        let manifest = """
            <?xml version="1.0" encoding="UTF-8"?>
            <manifest xmlns="http://www.imsglobal.org/xsd/qti/qtiv3p0/imscp_v1p1" identifier="M"><resources>
              <resource identifier="A" type="imsqti_item_xmlv3p0" href="items/A.xml"><file href="items/A.xml"/></resource>
              <resource identifier="B" type="imsqti_item_xmlv3p0" href="items/B.xml"><file href="items/B.xml"/></resource>
              <resource identifier="C" type="imsqti_item_xmlv3p0" href="items/C.xml"><file href="items/C.xml"/></resource>
              <resource identifier="E" type="imsqti_item_xmlv3p0" href="items/E.xml"><file href="items/E.xml"/></resource>
              <resource identifier="R" type="webcontent" href="media/ring.svg"><file href="media/ring.svg"/></resource>
              <resource identifier="D" type="webcontent" href="images/dot.png"><file href="images/dot.png"/></resource>
            </resources></manifest>
            """
        let package = Zip.archive([
            Zip.Entry(path: "imsmanifest.xml", bytes: Array(manifest.utf8)),
            item("A", ringSource: "../media/./ring.svg"),
            item("B", lead: #" <img src="../media/ring.svg" alt="a diagram"/>"#, ringSource: "../media/ring.svg"),
            item("C", ringSource: "../media/missing.svg"),
            item("E", lead: #" <img src="../media/ring.svg" alt=" "/>"#, ringSource: "../media/ring.svg"),
            Zip.Entry(path: "media/ring.svg", bytes: ContentImages.ring), Zip.Entry(path: "images/dot.png", bytes: Self.png),
        ])
        let content = try ForeignImport().read(Data(package), format: .contentPackage, language: "en")
        let ring = try #require(content.questions.first)
        #expect(content.questions.map(\.key) == ["qti:A", "qti:B"])
        #expect(ring.options.map(\.text) == ["A ring", "A dot"] && ring.correct == [0])
        #expect(ring.options.map(\.image) == [try ContentImage(bytes: ContentImages.ring), try ContentImage(bytes: Self.png)])
        #expect(ring.richStem == nil, "a question of words alone stays plain")
        // B's diagram stands in its text as an exhibit, stored like every picture.
        let exhibit = try ContentImage(bytes: ContentImages.ring)
        #expect(content.questions[1].richStem == RichText([
            .paragraph([.text("Which layout is a closed loop?")]), .picture(RichText.Picture(source: exhibit.path, alt: "a diagram")),
        ]))
        #expect(content.questions[1].shownImages == [exhibit])
        #expect(content.skipped.map(\.description) == [
            "items/C.xml (item C): choice 1: the picture ../media/missing.svg is not in the package (import the whole package, not the item alone)",
            "items/E.xml (item E): the picture ../media/ring.svg in the question text has no alt text: give it one",
        ])
    }

    @Test("stored once by digest with the import, carried by the export; the table refuses bytes under another picture's name, and students cannot add any")
    func storage() throws {
        let database = try TestDatabase(migrated: true)
        let owner = try database.adminConnection()
        let content = try ForeignImport().read(try ForeignFiles.fixture("topology.moodle.xml"), format: .moodleXML, language: "en")
        var exam = try ForeignFiles.exam
        exam.regions[0].exams[0].domains = []
        _ = try ContentImport().apply(exam, owner)
        let document = try ForeignImport().document(content, into: exam, domain: nil)
        #expect(try owner.withTransaction { try ContentImport().apply(document, $0) }.imagesAdded == 3)
        #expect(try owner.withTransaction { try ContentImport().apply(document, $0) }.imagesAdded == 0)
        let exported = try #require(try ContentImport().export(region: "r", exam: "e", owner))
        #expect(exported.images?.map(\.path).sorted() == document.images?.map(\.path).sorted())
        #expect(exported.images?.first { $0.mediaType == "image/png" }?.data == Data(Self.png))

        // Another picture's bytes under the ring's name: refused by the table itself.
        let ring = try ContentImage(bytes: ContentImages.ring)
        let forged = {
            try owner.execute("""
                INSERT INTO content_images (digest, media_type, bytes) VALUES (\(ContentImage.digest(inPath: ring.path)!), 'image/svg+xml', \(PostgresBytes(Self.png)))
                """)
        }
        let error = #expect(throws: PostgresError.self) { try forged() }
        #expect(error?.constraint == "content_images_named_by_digest")
        // A student's connection cannot add a picture; an admin's can; nobody can change one.
        let pool = database.appPool()
        let student = try database.makeAccount("learner"), admin = try database.makeAccount("editor", role: "admin")
        #expect(throws: PostgresError.self) { try pool.asCaller(student) { try ContentImageStore().save([ring], $0) } }
        #expect(try pool.asCaller(admin) { try ContentImageStore().save([ring], $0) } == 1)
        #expect(throws: PostgresError.self) { try pool.asCaller(admin) { try $0.execute("UPDATE content_images SET media_type = 'image/png'") } }
        #expect(try pool.asCaller(nil) { try ContentImageStore().image(digest: ContentImage.digest(inPath: ring.path)!, $0) } == ring)
    }
}
