import ContentPackage
import ExamData
import Foundation
import Interop
import QuestionEngine
import TestSupport
import Testing

/// GIFT and Aiken files read into the portal's kinds, each from a fixture written by hand from
/// the formats' documentation.
@Suite("Importing GIFT and Aiken", .onTestThreads)
struct ForeignFormatTests {

    @Test("the format is told from the content, not the name")
    func detection() throws {
        #expect(ForeignImport.detect(try ForeignFiles.fixture("networking.gift")) == .gift)
        #expect(ForeignImport.detect(try ForeignFiles.fixture("networking.aiken.txt")) == .aiken)
        #expect(ForeignImport.detect(Data(#"{"format": 1, "regions": []}"#.utf8)) == .portalJSON)
        #expect(ForeignImport.detect(Data("<?xml version=\"1.0\"?><quiz></quiz>".utf8)) == .moodleXML)
        #expect(ForeignImport.detect(Data(#"<qti-assessment-item xmlns="http://www.imsglobal.org/xsd/imsqtiasi_v3p0">"#.utf8)) == .qti3)
        #expect(ForeignImport.detect(Data(#"<assessmentItem xmlns="http://www.imsglobal.org/xsd/imsqti_v2p1">"#.utf8)) == .qti21)
        #expect(ForeignImport.detect(Data([0x50, 0x4B, 0x03, 0x04, 0, 0])) == .contentPackage)
        #expect(ForeignImport.detect(Data("Just some notes.\nNothing to import.".utf8)) == nil)
        // UTF-16 with a byte-order mark is read; Latin-1 is refused by name.
        var utf16 = Data([0xFF, 0xFE])
        utf16.append("Q?\nA. x\nB. y\nANSWER: A\n".data(using: .utf16LittleEndian)!)
        #expect(ForeignImport.detect(utf16) == .aiken)
        let latin1 = Data([0x43, 0x61, 0x66, 0xE9, 0x3F, 0x0A])
        let refused = #expect(throws: FormatError.self) { _ = try ForeignImport.text(latin1) }
        #expect(refused?.problem.contains("UTF-8") == true)
    }

    @Test("files their users write are told and read: Aiken with Windows line ends, GIFT of true/false with feedback, essays or numbers only, GIFT opening with a brace, ~= as Moodle reads it")
    func realFiles() throws {
        let aiken = "Which port does HTTPS use?\r\nA. 80\r\nB. 443\r\nANSWER: B\r\n"
        #expect(ForeignImport.detect(Data(aiken.utf8)) == .aiken)
        #expect(try ForeignImport().read(Data(aiken.utf8), format: .aiken, language: "en").questions.map(\.correct) == [[1]])
        let trueFalse = "::Sky:: The sky is green. {F#No: it is blue.#Right.}\n"
        #expect(ForeignImport.detect(Data(trueFalse.utf8)) == .gift)
        #expect(ForeignImport.detect(Data("::Essay:: Describe your network. {}\n".utf8)) == .gift)
        #expect(ForeignImport.detect(Data("What is 2 + 2? {#4}\n".utf8)) == .gift)
        #expect(ForeignImport.detect(Data("{=yes ~no} is the answer to this.\n".utf8)) == .gift, "not JSON, for all its opening brace")
        #expect(ForeignImport.detect(Data("A function() {} in notes.\nA. x\nB. y\nANSWER: A\n".utf8)) == .aiken, "empty braces alone are not an essay")
        // `{T` with its feedback on the next lines; a wrong answer that says "->" keeps the question a choice.
        let gift = """
            ::Loop:: A ring is a closed loop. {T
            #Wrong: a ring closes on itself.
            #Right.}

            ::Arrow:: Which is the right arrow? {=→ ~-> (two characters) ~<-}

            ::Tilde:: Moodle reads ~= as a right answer. {~=right ~wrong}
            """
        let content = try ForeignImport().read(Data(gift.utf8), format: .gift, language: "en")
        #expect(content.skipped.isEmpty, "\(content.skipped)")
        #expect(content.questions.map(\.key) == ["gift:Loop", "gift:Arrow", "gift:Tilde"])
        #expect(content.questions.last?.options.map(\.text) == ["right", "wrong"] && content.questions.last?.correct == [0])
        #expect(content.questions.first?.options.map(\.feedback) == ["Right.", "Wrong: a ring closes on itself."])
        #expect(content.questions[1].options.map(\.text) == ["→", "-> (two characters)", "<-"] && content.questions[1].answering == .choosing)
    }

    @Test("Moodle: a question where several may be chosen stays so with one right answer; categories ending alike become two domains")
    func moodleKindsAndCategories() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <quiz>
              <question type="category"><category><text>$course$/Networks/Basics</text></category></question>
              <question type="multichoice"><name><text>Any</text></name><questiontext><text>Which are secure?</text></questiontext>
                <single>false</single><answer fraction="100"><text>SSH</text></answer><answer fraction="0"><text>Telnet</text></answer></question>
              <question type="category"><category><text>$course$/Databases/Basics</text></category></question>
              <question type="multichoice"><name><text>Key</text></name><questiontext><text>Which is a key?</text></questiontext>
                <answer fraction="100"><text>Primary</text></answer><answer fraction="0"><text>Index</text></answer></question>
            </quiz>
            """
        let content = try ForeignImport().read(Data(xml.utf8), format: .moodleXML, language: "en")
        #expect(content.questions.map(\.isMultiple) == [true, false])
        let exam = ContentDocument.Exam(slug: "x", title: "X", description: "", language: "en", passMark: 70, timeLimitSeconds: 600, questionCount: 2, domains: [])
        let document = try ForeignImport().document(content, into: ContentDocument(regions: [ContentDocument.Region(code: "r", name: "R", exams: [exam])]), domain: nil)
        let domains = document.regions[0].exams[0].domains
        #expect(domains.map(\.slug) == ["networks-basics", "databases-basics"] && domains.map(\.title) == ["Networks / Basics", "Databases / Basics"])
        #expect(domains.map { $0.questions.map(\.type) } == [["multi-choice"], ["single-choice"]])
    }

    @Test("Moodle XML text is read as the page renders it: a line break inside a matching answer or an HTML question is one space, a <pre> keeps its lines")
    func moodleWhiteSpace() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <quiz>
              <question type="matching"><name><text>Plays</text></name>
                <questiontext format="html"><text><![CDATA[<p>Match each
            character to the play.</p><pre>line one
            line two</pre>]]></text></questiontext>
                <subquestion format="html"><text>Prospero</text><answer><text>The
            Tempest</text></answer></subquestion>
                <subquestion format="html"><text>Hamlet</text><answer><text>Hamlet</text></answer></subquestion>
              </question>
            </quiz>
            """
        let content = try ForeignImport().read(Data(xml.utf8), format: .moodleXML, language: "en")
        let question = try #require(content.questions.first)
        #expect(question.answering == .matching(targets: ["The Tempest", "Hamlet"]), "\(question.answering)")
        #expect(question.stem.hasPrefix("Match each character to the play."), "\(question.stem)")
        #expect(question.stem.contains("line one\nline two"), "\(question.stem)")
    }

    @Test("QTI 3: an item that points to a shared passage keeps its question and the report names the passage, never dropping it silently")
    func sharedPassageNamed() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <qti-assessment-item xmlns="http://www.imsglobal.org/xsd/imsqtiasi_v3p0" identifier="night" title="Night" adaptive="false" time-dependent="false">
              <qti-response-declaration identifier="RESPONSE" cardinality="single" base-type="identifier">
                <qti-correct-response><qti-value>A</qti-value></qti-correct-response>
              </qti-response-declaration>
              <qti-assessment-stimulus-ref identifier="Stimulus1" href="passages/night.xml"/>
              <qti-item-body>
                <qti-choice-interaction response-identifier="RESPONSE" max-choices="1">
                  <qti-prompt>What is the passage about?</qti-prompt>
                  <qti-simple-choice identifier="A">A night</qti-simple-choice>
                  <qti-simple-choice identifier="B">A day</qti-simple-choice>
                </qti-choice-interaction>
              </qti-item-body>
            </qti-assessment-item>
            """
        let content = try ForeignImport().read(Data(xml.utf8), format: .qti3, language: "en")
        #expect(content.questions.count == 1)
        #expect(content.notes.contains { $0.reason.contains("shared passage passages/night.xml is not imported") }, "\(content.notes)")
    }

    @Test("GIFT: choices, weights, true/false, feedback, HTML and escapes map onto the portal's kinds; the rest is named by line")
    func gift() throws {
        let content = try ForeignImport().read(try ForeignFiles.fixture("networking.gift"), format: .gift, language: "en")
        #expect(content.questions.map(\.key) == [
            "gift:$course$/Networking/Ports/https port", "gift:$course$/Networking/Ports/dns", "gift:$course$/Networking/Ports/secure protocols",
            "gift:$course$/Networking/Addressing/private", "gift:$course$/Networking/Addressing/loopback",
            "gift:$course$/Networking/Addressing/escapes", "gift:$course$/Networking/Addressing/名前解決",
            "gift:$course$/Networking/Addressing/short", "gift:$course$/Networking/Addressing/numeric",
            "gift:$course$/Networking/Addressing/matching", "gift:$course$/Networking/Addressing/year", "gift:$course$/Networking/Addressing/mtu",
        ])
        let https = content.questions[0]
        #expect(https.stem == "What port does HTTPS use by default?")
        #expect(https.options.map(\.text) == ["443", "80", "22", "25"] && https.correct == [0] && !https.isMultiple)
        #expect(https.options[1].feedback == "That is plain HTTP.")
        #expect(https.generalFeedback == "Well-known ports are assigned by IANA.")
        let secure = content.questions[2]
        #expect(secure.isMultiple && secure.correct == [0, 1])
        let privateAddress = content.questions[3]
        #expect(privateAddress.options.map(\.text) == ["True", "False"] && privateAddress.correct == [0])
        #expect(privateAddress.options[0].feedback == "Yes: RFC 1918." && privateAddress.options[1].feedback == "No: 192.168.0.0/16 is reserved for private networks.")
        let loopback = content.questions[4]
        #expect(loopback.stem == "The IPv4 loopback network is 127.0.0.0/8; its usual address is _____ on most systems.")
        #expect(!loopback.stem.contains("<"), "no markup is carried over")
        let escapes = content.questions[5]
        #expect(escapes.stem.hasSuffix("equals sign: {}?"))
        #expect(escapes.options.map(\.text) == [#"\d+="#, #"\d*="#, "d+", #"\D+"#])
        #expect(content.questions[6].options[0].feedback == "正解です。")
        // Typed answers and matching: short answers compared case aside, numbers with their tolerance.
        #expect(content.questions[7].answering == .typing(accepted: ["ip route", "route -n"], match: .caseInsensitive, tolerance: nil))
        #expect(content.questions[8].answering == .typing(accepted: ["32"], match: .numeric, tolerance: 0))
        #expect(content.questions[9].answering == .matching(targets: ["SSH", "DNS", "HTTP"]))
        #expect(content.questions[9].options.map(\.text) == ["22", "53", "80"] && content.questions[9].correct == [0, 1, 2])
        #expect(content.questions[10].answering == .typing(accepted: ["1801"], match: .numeric, tolerance: 5))
        #expect(content.questions[11].answering == .typing(accepted: ["1500"], match: .numeric, tolerance: 100))
        let document = try ForeignImport().document(content, into: try ForeignFiles.exam, domain: "protocols")
        #expect(ContentImport().problems(document, blueprint: false).isEmpty)
        #expect(content.skipped.map(\.description) == [
            "line 33: an essay question (no answers to choose from)",
            "line 41: a weight pattern that is neither all-or-nothing nor even partial credit",
        ])
        // True and false in the exam's language.
        let japanese = try ForeignImport().read(try ForeignFiles.fixture("networking.gift"), format: .gift, language: "ja")
        #expect(japanese.questions[3].options.map(\.text) == ["正しい", "誤り"])
    }

    @Test("Aiken: lettered options and ANSWER; a malformed question is named by its line and left out up to the next blank line, the rest read")
    func aiken() throws {
        let content = try ForeignImport().read(try ForeignFiles.fixture("networking.aiken.txt"), format: .aiken, language: "en")
        #expect(content.questions.count == 3 && content.skipped.isEmpty)
        #expect(content.questions[0].options.map(\.text) == ["Physical", "Data link", "Network", "Transport"] && content.questions[0].correct == [2])
        #expect(content.questions[1].correct == [0] && content.questions[2].correct == [1])
        #expect(content.questions.allSatisfy { $0.key.hasPrefix("aiken:") })
        for (text, problem) in [
            ("Q?\nA. x\nB. y\n", "line 1: the question has no ANSWER: line before the blank line at line 4"),
            ("Q?\nA. x\nB. y\nANSWER: E\n", "line 4: ANSWER: E names no option of the question"),
            ("Q?\nA. x\nC. y\nANSWER: A\n", "line 3: option C is out of order (options go A, B, C, …)"),
            ("Q?\nA. x\nANSWER: A\n", "line 1: a question needs at least two options (A., B., …)"),
        ] {
            let read = try ForeignImport().read(Data((text + "\nGood?\nA. yes\nB. no\nANSWER: A\n").utf8), format: .aiken, language: "en")
            #expect(read.skipped.map(\.description) == [problem], "\(text)")
            #expect(read.questions.map(\.stem) == ["Good?"], "\(text)")
        }
        // Moodle's own fixture of mistakes: the two good questions come in.
        let mistakes = "A question with too few answers\nA) Only answer\nANSWER: A\n\nA) Question not started\n\nANSWER: Question not started\n\nA good question\nA) Correct\nB) Incorrect\nANSWER: A\n\nA question started but not finished\nA) Correct-ish\nB) Incorrect-ish\n\nAnother good one\nA) No\nB) Yes\nANSWER: B\n"
        let read = try ForeignImport().read(Data(mistakes.utf8), format: .aiken, language: "en")
        #expect(read.questions.map(\.stem) == ["A good question", "Another good one"])
        #expect(read.skipped.map(\.position) == ["line 1", "line 5", "line 7", "line 14"], "\(read.skipped)")
        let unfinished = try ForeignImport().read(Data("Good?\nA. yes\nB. no\nANSWER: A\n\nQ?\nA. x\nB. y\n".utf8), format: .aiken, language: "en")
        #expect(unfinished.skipped.map(\.description) == ["line 6: the last question has no ANSWER: line"])
    }

    @Test("a GIFT file with an unclosed brace is refused at its line, nothing read")
    func unclosedBrace() {
        let text = "::a::First?{=x ~y}\n\n::b::Second?{=x ~y\n\n::c::Third?{=x ~y}\n"
        let error = #expect(throws: FormatError.self) { _ = try ForeignImport().read(Data(text.utf8), format: .gift, language: "en") }
        #expect(error?.description == "line 3: the answer block opened here is never closed with }")
    }

    @Test("Moodle XML: categories, single and multiple choice, true/false and ordering map on; the rest is named by line; DOCTYPEs and broken XML are refused")
    func moodleXML() throws {
        let data = try ForeignFiles.fixture("networking.moodle.xml")
        #expect(ForeignImport.detect(data) == .moodleXML)
        let content = try ForeignImport().read(data, format: .moodleXML, language: "en")
        #expect(content.questions.map(\.key) == [
            "moodle:$course$/Networking/Ports/ssh port", "moodle:$course$/Networking/Ports/udp services",
            "moodle:$course$/Networking/Protocols/tcp reliable", "moodle:$course$/Networking/Protocols/handshake",
            "moodle:$course$/Networking/Protocols/名前解決",
        ])
        let ssh = content.questions[0]
        #expect(ssh.stem == "Which port does SSH listen on by default?" && ssh.correct == [0] && !ssh.isMultiple)
        #expect(ssh.options[1].feedback == "That is FTP." && ssh.generalFeedback == "Port 22 is assigned to SSH.")
        #expect(content.questions[1].isMultiple && content.questions[1].correct == [0, 1])
        #expect(content.questions[2].options.map(\.text) == ["True", "False"] && content.questions[2].correct == [0])
        #expect(content.questions[2].options[1].feedback == "It does: that is what makes it reliable.")
        #expect(content.questions[3].isOrdering && content.questions[3].options.map(\.text) == ["SYN", "SYN-ACK", "ACK"])
        #expect(content.skipped.map(\.reason) == [
            "a matching question needs two items and two answers", "an essay question (no answers to choose from)",
            "a weight pattern that is neither all-or-nothing nor even partial credit",
        ])
        #expect(content.skipped.allSatisfy { $0.position.hasPrefix("line ") })
        // Stored as the portal's ordering kind: steps moved on by one, the key in the right order.
        let ordering = try #require(try ForeignImport().document(
            ForeignContent(questions: [content.questions[3]], skipped: []), into: try ForeignFiles.exam, domain: "protocols").regions.first?.exams.first?.domains.first?.questions.first)
        #expect(ordering.type == "ordering")
        #expect(QuestionValidator.problem(type: ordering.type, options: ordering.options, correct: ordering.correct) == nil)
        #expect(ordering.correct == .array([.number(2), .number(0), .number(1)]))

        for (text, problem) in [
            (#"<?xml version="1.0"?><!DOCTYPE quiz [<!ENTITY x SYSTEM "file:///etc/passwd">]><quiz>&x;</quiz>"#, "declares a document type, which is refused"),
            ("<?xml version=\"1.0\"?>\n<quiz>\n<question type=\"multichoice\">\n<name><text>a</text>\n", "ends before <name> (line 4) is closed"),
            ("<?xml version=\"1.0\"?><quizz></quizz>", "the root element is <quizz>, not <quiz>"),
        ] {
            let error = #expect(throws: FormatError.self) { _ = try ForeignImport().read(Data(text.utf8), format: .moodleXML, language: "en") }
            #expect(error?.problem.contains(problem) == true || error?.description.contains(problem) == true, "\(text): \(String(describing: error))")
        }
    }

    @Test("QTI 3.0 and 2.1 items: choice, order, match, text-entry and hotspot interactions map on, feedback kept; a lone hotspot item's missing picture is named")
    func qti() throws {
        let choice = try ForeignFiles.fixture("qti3-choice.xml")
        #expect(ForeignImport.detect(choice) == .qti3)
        let dns = try #require(try ForeignImport().read(choice, format: .qti3, language: "en").questions.first)
        #expect(dns.key == "qti:dns-port")
        #expect(dns.stem == "Name resolution asks a server over the network.\nWhich port does a DNS server listen on?")
        #expect(dns.options.map(\.text) == ["25", "67", "53"] && dns.correct == [2] && !dns.isMultiple)
        #expect(dns.options[0].feedback == "That is SMTP." && dns.generalFeedback == "DNS uses port 53, over UDP and TCP.")

        let order = try #require(try ForeignImport().read(try ForeignFiles.fixture("qti3-order.xml"), format: .qti3, language: "en").questions.first)
        #expect(order.isOrdering && order.options.map(\.text) == ["SYN", "SYN-ACK", "ACK"])

        let multiple = try ForeignFiles.fixture("qti21-multiple.xml")
        #expect(ForeignImport.detect(multiple) == .qti21)
        let udp = try #require(try ForeignImport().read(multiple, format: .qti21, language: "en").questions.first)
        #expect(udp.key == "qti:udp-services" && udp.isMultiple && udp.correct == [0, 2])

        // Matching, typed answers (words case aside; a number with its tolerance) and a hotspot.
        let match = try #require(try ForeignImport().read(try ForeignFiles.fixture("qti3-match.xml"), format: .qti3, language: "en").questions.first)
        #expect(match.stem == "Match each port to its service." && match.options.map(\.text) == ["22", "53", "443"])
        #expect(match.answering == .matching(targets: ["SMTP", "SSH", "DNS", "HTTPS"]) && match.correct == [1, 2, 3])
        let route = try #require(try ForeignImport().read(try ForeignFiles.fixture("qti3-text-entry.xml"), format: .qti3, language: "en").questions.first)
        // A text entry inside its sentence is a gap at its place, not a box after the sentence.
        #expect(route.stem == "On Linux, the command {#1} shows the routing table.")
        #expect(route.answering == .filling(gaps: [ClozeGap(accepted: ["ip route", "route -n"], match: .caseInsensitive)]))
        let mtu = try #require(try ForeignImport().read(try ForeignFiles.fixture("qti21-numeric.xml"), format: .qti21, language: "en").questions.first)
        #expect(mtu.answering == .typing(accepted: ["1500"], match: .numeric, tolerance: 2))
        // A hotspot item alone has no picture: named, with what to do instead.
        let lone = try ForeignImport().read(try ForeignFiles.fixture("qti3-hotspot.xml"), format: .qti3, language: "en")
        #expect(lone.questions.isEmpty)
        #expect(lone.skipped.map(\.description) == ["item find-router: the picture images/network.svg is not in the package (import the whole package, not the item alone)"])
        let packaged = try ForeignImport().read(Data(Zip.archive([
            Zip.Entry(path: "imsmanifest.xml", bytes: Array(#"<manifest><resources><resource identifier="I" type="imsqti_item_xmlv3p0" href="find-router.xml"/></resources></manifest>"#.utf8)),
            Zip.Entry(path: "find-router.xml", bytes: [UInt8](try ForeignFiles.fixture("qti3-hotspot.xml"))),
            Zip.Entry(path: "images/network.svg", bytes: ContentImages.ring),
        ])), format: .contentPackage, language: "en")
        let router = try #require(packaged.questions.first)
        #expect(router.answering == .clicking(image: try ContentImage(bytes: ContentImages.ring)) && router.correct == [0])
        #expect(router.options.map(\.region) == [HotspotRegion(shape: .circle, coords: [90, 90, 40]), HotspotRegion(shape: .rect, coords: [200, 60, 280, 120])])
        #expect(router.options.map(\.text) == ["Device A", "Device B"])
    }

    @Test("QTI: feedback blocks, hints and the scorers' rubric never reach the stem; feedback becomes the explanation, a candidate's rubric stays; a template item is named")
    func qtiNothingGivenAway() throws {
        let item = """
            <?xml version="1.0" encoding="UTF-8"?>
            <assessmentItem xmlns="http://www.imsglobal.org/xsd/imsqti_v2p1" identifier="slope" title="Slope" adaptive="true" timeDependent="false">
              <responseDeclaration identifier="RESPONSE" cardinality="single" baseType="identifier"><correctResponse><value>G</value></correctResponse></responseDeclaration>
              <outcomeDeclaration identifier="FEEDBACK" cardinality="single" baseType="identifier"/>
              <itemBody>
                <rubricBlock view="scorer"><p>Award the mark for gradient or slope.</p></rubricBlock>
                <rubricBlock view="candidate"><p>Answer in one word.</p></rubricBlock>
                <p>What is the rate of change of a line called?</p>
                <choiceInteraction responseIdentifier="RESPONSE" maxChoices="1">
                  <simpleChoice identifier="G">Gradient<feedbackInline outcomeIdentifier="FEEDBACK" identifier="G" showHide="show">Yes.</feedbackInline></simpleChoice>
                  <simpleChoice identifier="I">Intercept</simpleChoice>
                </choiceInteraction>
                <feedbackBlock outcomeIdentifier="FEEDBACK" identifier="I" showHide="show"><p>No, the correct answer is either gradient or slope.</p></feedbackBlock>
                <p><endAttemptInteraction responseIdentifier="HINT" title="Show a hint"/></p>
              </itemBody>
            </assessmentItem>
            """
        let content = try ForeignImport().read(Data(item.utf8), format: .qti21, language: "en")
        let question = try #require(content.questions.first)
        #expect(question.stem == "Answer in one word.\nWhat is the rate of change of a line called?")
        #expect(question.generalFeedback == "No, the correct answer is either gradient or slope.")
        #expect(question.options.map(\.text) == ["Gradient", "Intercept"] && question.options[0].feedback == "Yes.")
        let template = item.replacingOccurrences(of: "<itemBody>", with: "").replacingOccurrences(of: "</itemBody>", with: "")
            .replacingOccurrences(of: #"<outcomeDeclaration identifier="FEEDBACK" cardinality="single" baseType="identifier"/>"#,
                                  with: #"<templateDeclaration identifier="A" cardinality="single" baseType="integer"/><itemBody>"#)
            .replacingOccurrences(of: "</assessmentItem>", with: "</itemBody></assessmentItem>")
        let drawn = try ForeignImport().read(Data(template.utf8), format: .qti21, language: "en")
        #expect(drawn.questions.isEmpty)
        #expect(drawn.skipped.map(\.reason) == ["a template item (its values are drawn each time it is shown), which the portal does not support"])
    }

    @Test("QTI text entry: a mapping's full-mark answers are accepted, one worth nothing is not, and one worth part of the marks is partly right")
    func qtiTextEntryKey() throws {
        func item(_ entries: String) -> Data {
            Data("""
                <?xml version="1.0" encoding="UTF-8"?>
                <assessmentItem xmlns="http://www.imsglobal.org/xsd/imsqti_v2p1" identifier="city" title="City" adaptive="false" timeDependent="false">
                  <responseDeclaration identifier="RESPONSE" cardinality="single" baseType="string">
                    <correctResponse><value>York</value></correctResponse>
                    <mapping defaultValue="0">\(entries)</mapping>
                  </responseDeclaration>
                  <itemBody><p>Richard III was Duke of which city? <textEntryInteraction responseIdentifier="RESPONSE"/></p></itemBody>
                </assessmentItem>
                """.utf8)
        }
        let whole = try ForeignImport().read(item(#"<mapEntry mapKey="York" mappedValue="1"/><mapEntry mapKey="Eboracum" mappedValue="1"/><mapEntry mapKey="London" mappedValue="0"/>"#), format: .qti21, language: "en")
        #expect(whole.questions.first?.answering == .typing(accepted: ["York", "Eboracum"], match: .exact, tolerance: nil))
        let partly = try ForeignImport().read(item(#"<mapEntry mapKey="York" mappedValue="1"/><mapEntry mapKey="york" mappedValue="0.5"/>"#), format: .qti21, language: "en")
        #expect(partly.questions.first?.answering == .typing(accepted: ["York"], match: .exact, tolerance: nil, partial: [PartialAnswer(answer: "york", share: 0.5)]))
    }

    @Test("content packages: a path out of the package, a zip bomb, too many entries, a truncated or tampered archive are refused whole")
    func badPackages() throws {
        let manifest = Zip.Entry(path: "imsmanifest.xml", bytes: Array("<manifest><resources/></manifest>".utf8))
        func refusal(_ archive: [UInt8]) -> String? {
            do {
                _ = try ForeignImport().read(Data(archive), format: .contentPackage, language: "en")
                return nil
            } catch {
                return error.description
            }
        }
        #expect(try ForeignImport().read(Data(Zip.archive([manifest])), format: .contentPackage, language: "en").questions.isEmpty)
        // An item the manifest lists but the package lacks is named, not the end of the package.
        let listing = Zip.Entry(path: "imsmanifest.xml", bytes: Array(#"<manifest><resources><resource identifier="r1" type="imsqti_item_xmlv2p1" href="items/gone.xml"/></resources></manifest>"#.utf8))
        let lacking = try ForeignImport().read(Data(Zip.archive([listing])), format: .contentPackage, language: "en")
        #expect(lacking.skipped.map(\.description) == ["items/gone.xml: is listed in the manifest but not in the package"])
        #expect(refusal(Zip.archive([manifest, Zip.Entry(path: "../evil.xml", bytes: [1])]))?.contains("which leaves the package") == true)
        #expect(refusal(Zip.archive([manifest, Zip.Entry(path: "/etc/passwd", bytes: [1])]))?.contains("which leaves the package") == true)
        #expect(refusal(Zip.archive([manifest, Zip.Entry(path: "items\\x.xml", bytes: [1])]))?.contains("which leaves the package") == true)
        // 21 MiB of zeros deflates to a few kilobytes: refused from its declared size.
        let bomb = Zip.archive([manifest, Zip.Entry(path: "big.bin", bytes: [UInt8](repeating: 0, count: 21 * 1024 * 1024))])
        #expect(bomb.count < 100_000)
        #expect(refusal(bomb)?.contains("unpacks to more than 20 MiB") == true)
        let crowd = Zip.archive((0..<10_001).map { Zip.Entry(path: "f\($0)", bytes: []) })
        #expect(refusal(crowd)?.contains("a package may have at most 10000") == true)
        let whole = Zip.archive([manifest, Zip.Entry(path: "items/a.xml", bytes: Array(repeating: 65, count: 1000))])
        #expect(refusal(Array(whole.prefix(whole.count / 2)))?.contains("is not a zip archive") == true)
        var tampered = whole
        tampered[50] ^= 0xFF  // inside the manifest's bytes (after its 30-byte header and 15-byte name)
        #expect(refusal(tampered) != nil)
        #expect(refusal(Zip.archive([Zip.Entry(path: "items/a.xml", bytes: [1])]))?.contains("has no imsmanifest.xml") == true)
        // Within limits given by the caller too.
        let small = #expect(throws: ZipError.self) { _ = try Zip.entries(whole, limits: Zip.Limits(totalBytes: 100, entries: 10)) }
        #expect(small?.problem.contains("unpacks to more than") == true)
    }

}
