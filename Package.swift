// swift-tools-version:6.0
import PackageDescription

/// Study Portal: a server-rendered exam-study portal.
/// Every target lives in this repository; C libraries come from the operating system.
let package = Package(
    name: "StudyPortal",
    products: [
        .executable(name: "portal", targets: ["portal"]),
    ],
    targets: [
        // C libraries from Debian, wrapped as system-library targets.
        .systemLibrary(
            name: "CLibPQ",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"])]
        ),
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        .systemLibrary(
            name: "CSodium",
            pkgConfig: "libsodium",
            providers: [.apt(["libsodium-dev"])]
        ),
        .systemLibrary(
            name: "CHiredis",
            pkgConfig: "hiredis",
            providers: [.apt(["libhiredis-dev"])]
        ),
        .systemLibrary(
            name: "COpenSSL",
            pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"])]
        ),
        // Kernel interfaces (epoll, eventfd, signals) that Glibc does not export.
        .target(name: "CSystem"),

        // Reusable layers that know nothing of exams.
        // Identifiers as text (a UUID in the lowercase form PostgreSQL prints), for the driver and the pages.
        .target(name: "Identifiers"),
        .target(name: "HTTPServer", dependencies: ["CSystem", "CZlib"]),
        .target(name: "PostgresClient", dependencies: ["CLibPQ", "Identifiers"]),
        .target(name: "TemplateEngine"),
        .target(name: "RedisClient", dependencies: ["CHiredis"]),
        .target(name: "HTTPClient", dependencies: ["COpenSSL"]),
        // Outbound mail: SMTP submission over HTTPClient's TLS channels, messages as MIME.
        .target(name: "MailClient", dependencies: ["HTTPClient"]),

        // Pure logic: no I/O, no clock, no unseeded randomness.
        .target(name: "QuestionEngine"),

        // RS256 signatures, JSON Web Keys and Tokens (LTI, single sign-on): general purpose; JSON
        // values from QuestionEngine's JSONValue, the one JSON model of the package.
        .target(name: "WebToken", dependencies: ["COpenSSL", "QuestionEngine"]),
        // Web Push (RFC 8291 message encryption, RFC 8292 VAPID): general purpose.
        .target(name: "WebPush", dependencies: ["COpenSSL", "WebToken"]),
        // QR codes drawn as SVG (share links, class cards, calendar links).
        .target(name: "QRCode"),

        // Zip archives for content packages (QTI): zlib's raw deflate and inflate.
        .target(name: "ContentPackage", dependencies: ["CZlib", "CSodium"]),
        // Other systems' formats (QTI, Moodle XML, GIFT, Aiken) read and written; pure.
        .target(name: "Interop", dependencies: ["QuestionEngine", "ContentPackage"]),
        // The stored model and every SQL query.
        .target(name: "ExamData", dependencies: ["QuestionEngine", "PostgresClient", "Interop", "Identifiers"]),

        // The demo catalogue as a format-1 document (`portal seed` writes it).
        .target(name: "DemoContent", dependencies: ["QuestionEngine", "Interop"]),

        // Static JSON bundles of exams and their change feeds, for offline study.
        .target(name: "OfflineBundle", dependencies: ["ExamData", "PostgresClient", "QuestionEngine", "Identifiers"]),

        // The application.
        .target(name: "PortalApp", dependencies: ["HTTPServer", "PostgresClient", "TemplateEngine", "QuestionEngine", "ExamData", "Interop", "OfflineBundle", "RedisClient", "HTTPClient", "MailClient", "WebToken", "WebPush", "QRCode", "DemoContent", "Identifiers", "ContentPackage", "CSodium", "COpenSSL", "CZlib"]),
        .executableTarget(name: "portal", dependencies: ["PortalApp"]),

        // Shared by the tests: throwaway databases and a raw-socket HTTP client.
        .target(name: "TestSupport", dependencies: ["PostgresClient", "QuestionEngine", "Identifiers"], path: "Tests/TestSupport"),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer", "TestSupport"]),
        .testTarget(name: "PostgresClientTests", dependencies: ["PostgresClient", "TestSupport"]),
        .testTarget(name: "TemplateEngineTests", dependencies: ["TemplateEngine"]),
        .testTarget(name: "QuestionEngineTests", dependencies: ["QuestionEngine", "TestSupport"]),
        .testTarget(name: "ExamDataTests", dependencies: ["ExamData", "Interop", "QuestionEngine", "PostgresClient", "ContentPackage", "DemoContent", "TestSupport"]),
        .testTarget(name: "RedisClientTests", dependencies: ["RedisClient", "TestSupport"]),
        .testTarget(name: "HTTPClientTests", dependencies: ["HTTPClient", "TestSupport"]),
        .testTarget(name: "MailClientTests", dependencies: ["MailClient", "TestSupport"]),
        .testTarget(name: "WebPushTests", dependencies: ["WebPush", "WebToken"]),
        // The page tests' harness: a running portal on a test database, and a browser of sorts.
        .target(name: "PortalTestSupport", dependencies: ["PortalApp", "HTTPServer", "PostgresClient", "TestSupport"], path: "Tests/PortalTestSupport"),
        .testTarget(name: "PortalAppTests", dependencies: ["PortalTestSupport", "PortalApp", "HTTPServer", "PostgresClient", "RedisClient", "ExamData", "Interop", "QuestionEngine", "OfflineBundle", "WebToken", "QRCode", "DemoContent", "Identifiers", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
