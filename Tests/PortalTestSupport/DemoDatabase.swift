import PortalApp
import TestSupport

extension TestDatabase {
    /// A database holding the demo catalogue as `portal seed` loads it: a copy of the one this
    /// run seeds once (seeding takes seconds, a copy a tenth of one).
    public static func demoCatalogue() throws -> TestDatabase {
        try TestDatabase(seeded: "demo") { _ = try DemoSeeder.seed($0) }
    }
}
