import Interop
import QuestionEngine

/// Routing-table questions written in markdown: an exhibit of the router and its neighbours
/// (drawn per question), the routing table as a table, and the router's own output as a
/// listing. The routes overlap, so the answer follows from the longest matching prefix.
extension Families {
    static func routingTables(_ key: String, _ index: Int, _ r: inout Random) -> NewQuestion {
        let base = UInt32(10) << 24 | UInt32.random(in: 0...255, using: &r) << 16
        let site = base | UInt32.random(in: 0...255, using: &r) << 8
        // A /8 covering all, the /16 of the base, a /24 inside it, and a default route.
        let routes: [(prefix: UInt32, length: Int)] = [(UInt32(10) << 24, 8), (base, 16), (site, 24), (0, 0)]
        let hops = ["192.0.2.1", "192.0.2.5", "192.0.2.9", "198.51.100.1"].shuffled(using: &r)
        let metrics = [20, 110, 90, 1]
        // The address asked about falls in one of the four routes' most specific reach.
        let target = index % 4
        let address: UInt32
        switch target {
        case 2: address = site | UInt32.random(in: 1...254, using: &r)
        case 1: address = base | ((site >> 8 & 255) ^ 1) << 8 | UInt32.random(in: 1...254, using: &r)
        case 0: address = (UInt32(10) << 24) | (((base >> 16 & 255) ^ 2) << 16) | UInt32.random(in: 1...0xFFFE, using: &r)
        default: address = UInt32(172) << 24 | 16 << 16 | UInt32.random(in: 1...0xFFFE, using: &r)
        }
        func cidr(_ route: (prefix: UInt32, length: Int)) -> String { route.length == 0 ? "0.0.0.0/0" : "\(ip(route.prefix))/\(route.length)" }
        let order = Array(routes.indices).shuffled(using: &r)
        let rows = order.map { "| \(cidr(routes[$0])) | \(hops[$0]) | \(metrics[$0]) |" }.joined(separator: "\n")
        let listing = order.map { route in
            let code = routes[route].length == 0 ? "S*" : routes[route].length == 24 ? "C " : "O "
            return "\(code)   \(cidr(routes[route])) [\(metrics[route])] via \(hops[route])"
        }.joined(separator: "\n")
        let diagram = RouterDiagram(hops: hops)
        let stem = """
            Refer to the exhibit. R1 has the routes below. Which next hop does R1 use for a packet to **\(ip(address))**?

            ![R1 in the middle, linked to four neighbours: \(hops.joined(separator: ", "))](\(diagram.image.path) "Exhibit: R1 and its neighbours")

            | Destination | Next hop | Metric |
            | :-- | :-- | --: |
            \(rows)

            Table: Routing table of R1

            ```text
            R1# show ip route
            \(listing)
            ```
            """
        let names = ["the /8 route", "the /16 route", "the /24 route", "the default route"]
        let why = target == 3
            ? "No other route covers \(ip(address)), so the default route (0.0.0.0/0) is used."
            : "\(cidr(routes[target])) is the longest prefix that contains \(ip(address))."
        var question = QuestionBuilder.single(
            key: key, stem: stem,
            answer: Choice(text: "`\(hops[target])`, by \(names[target])", explanation: why),
            distractors: routes.indices.filter { $0 != target }.map { other in
                Choice(text: "`\(hops[other])`, by \(names[other])", explanation: other == 3
                    ? "The default route is used only when nothing more specific matches."
                    : covers(routes[other], address)
                        ? "\(cidr(routes[other])) matches too, but a longer prefix does as well: the **longest** match wins, whatever the metric."
                        : "\(cidr(routes[other])) does not contain \(ip(address)).")
            },
            explanation: """
                A router forwards by the **longest matching prefix**:

                1. keep the routes whose prefix contains \(ip(address));
                2. take the one with the longest prefix (the metric only decides between routes to the *same* prefix).

                \(why)
                """,
            difficulty: DemoCorpus.difficulty(index), using: &r)
        question.markup = "markdown"
        question.images = [diagram.image]
        return question
    }

    private static func covers(_ route: (prefix: UInt32, length: Int), _ address: UInt32) -> Bool {
        route.length == 0 || address >> UInt32(32 - route.length) == route.prefix >> UInt32(32 - route.length)
    }
}

/// The exhibit of a routing question: R1 in the middle, its four neighbours around it, each
/// link labelled with the neighbour's address.
struct RouterDiagram {
    let hops: [String]

    var image: ContentImage {
        guard let image = try? ContentImage(bytes: Array(svg.utf8)) else { preconditionFailure("a drawn diagram is always a storable SVG") }
        return image
    }

    var svg: String {
        let places = [(80, 60), (400, 60), (80, 220), (400, 220)]
        var body = "<g stroke=\"#5a6472\" stroke-width=\"3\">" + places.map { "<line x1=\"240\" y1=\"140\" x2=\"\($0.0)\" y2=\"\($0.1)\"/>" }.joined() + "</g>"
        body += "<g><circle cx=\"240\" cy=\"140\" r=\"34\" fill=\"#1f3a5f\"/><text x=\"240\" y=\"146\" font-size=\"18\" font-weight=\"bold\" text-anchor=\"middle\" fill=\"#ffffff\">R1</text></g>"
        for (place, hop) in zip(places, hops) {
            body += "<g><rect x=\"\(place.0 - 56)\" y=\"\(place.1 - 18)\" width=\"112\" height=\"36\" rx=\"6\" fill=\"#e8eef5\" stroke=\"#5a6472\" stroke-width=\"2\"/>"
            body += "<text x=\"\(place.0)\" y=\"\(place.1 + 5)\" font-size=\"14\" text-anchor=\"middle\" fill=\"#222\">\(hop)</text></g>"
        }
        return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"480\" height=\"280\" viewBox=\"0 0 480 280\"><rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>"
            + body + "</svg>\n"
    }
}
