import Interop
import QuestionEngine

/// A small network diagram for hotspot questions, drawn here as SVG: five devices (a router, a
/// switch, a firewall, a server and a wireless access point) in shuffled places, each marked
/// with a letter, linked as a real network is (internet → firewall → router → switch → server
/// and access point). Each device's place is a region of the picture, in its own pixels.
struct NetworkDiagram {
    enum Device: Int, CaseIterable {
        case router, switchDevice, firewall, server, accessPoint
    }

    static let width = 480.0, height = 300.0
    /// The five places (centres) a device can take, and the half-size of each one's region.
    static let places: [(x: Double, y: Double)] = [(90, 90), (240, 90), (390, 90), (150, 220), (330, 220)]
    static let half = 42.0

    /// Which device stands at each place (index: place).
    let devices: [Device]

    init(using random: inout SeededGenerator) {
        devices = Device.allCases.shuffled(using: &random)
    }

    /// The letter shown at a place: A for the first.
    static func letter(_ place: Int) -> String { String(UnicodeScalar(UInt8(65 + place))) }

    /// The region of a place, in the picture's pixels.
    static func region(_ place: Int) -> HotspotRegion {
        let centre = places[place]
        return HotspotRegion(shape: .rect, coords: [centre.x - half, centre.y - half, centre.x + half, centre.y + half])
    }

    /// The picture as stored content.
    var image: ContentImage {
        // The bytes are drawn here: an SVG of a few kilobytes, a picture by construction.
        guard let image = try? ContentImage(bytes: Array(svg.utf8)) else { preconditionFailure("a drawn diagram is always a storable SVG") }
        return image
    }

    var svg: String {
        func place(of device: Device) -> (x: Double, y: Double) { Self.places[devices.firstIndex(of: device)!] }
        func line(_ from: (x: Double, y: Double), _ to: (x: Double, y: Double)) -> String {
            "<line x1=\"\(Int(from.x))\" y1=\"\(Int(from.y))\" x2=\"\(Int(to.x))\" y2=\"\(Int(to.y))\"/>"
        }
        let internet = (x: 30.0, y: 270.0)
        var body = "<g stroke=\"#5a6472\" stroke-width=\"3\">"
        body += line(internet, place(of: .firewall)) + line(place(of: .firewall), place(of: .router)) + line(place(of: .router), place(of: .switchDevice))
        body += line(place(of: .switchDevice), place(of: .server)) + line(place(of: .switchDevice), place(of: .accessPoint)) + "</g>"
        body += "<g><ellipse cx=\"30\" cy=\"270\" rx=\"26\" ry=\"16\" fill=\"#e8eef5\" stroke=\"#5a6472\" stroke-width=\"2\"/>"
        body += "<text x=\"30\" y=\"275\" font-size=\"12\" text-anchor=\"middle\" fill=\"#222\">WAN</text></g>"
        for (index, device) in devices.enumerated() {
            let (x, y) = Self.places[index]
            body += "<g transform=\"translate(\(Int(x)) \(Int(y)))\">" + Self.icon(device)
            body += "<text x=\"0\" y=\"38\" font-size=\"16\" font-weight=\"bold\" text-anchor=\"middle\" fill=\"#222\">\(Self.letter(index))</text></g>"
        }
        return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(Self.width))\" height=\"\(Int(Self.height))\" viewBox=\"0 0 \(Int(Self.width)) \(Int(Self.height))\">"
            + "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>" + body + "</svg>\n"
    }

    /// Each device's usual symbol, centred on the origin, about 60 pixels wide.
    static func icon(_ device: Device) -> String {
        let style = "fill=\"#dfe9f5\" stroke=\"#1f3b5a\" stroke-width=\"2\""
        switch device {
        case .router:
            return "<circle r=\"22\" \(style)/><path d=\"M-12 -6 L12 -6 M6 -12 L12 -6 L6 0 M12 6 L-12 6 M-6 0 L-12 6 L-6 12\" fill=\"none\" stroke=\"#1f3b5a\" stroke-width=\"2\"/>"
        case .switchDevice:
            return "<rect x=\"-30\" y=\"-14\" width=\"60\" height=\"28\" \(style)/><path d=\"M-18 -5 L18 -5 M12 -10 L18 -5 L12 0 M18 5 L-18 5 M-12 0 L-18 5 L-12 10\" fill=\"none\" stroke=\"#1f3b5a\" stroke-width=\"2\"/>"
        case .firewall:
            return "<rect x=\"-26\" y=\"-20\" width=\"52\" height=\"40\" fill=\"#f6dfd6\" stroke=\"#7a2e12\" stroke-width=\"2\"/>"
                + "<path d=\"M-26 -7 L26 -7 M-26 7 L26 7 M-9 -20 L-9 -7 M9 -20 L9 -7 M0 -7 L0 7 M-17 7 L-17 20 M17 7 L17 20\" fill=\"none\" stroke=\"#7a2e12\" stroke-width=\"2\"/>"
        case .server:
            return "<rect x=\"-16\" y=\"-26\" width=\"32\" height=\"52\" \(style)/><path d=\"M-10 -14 L10 -14 M-10 -4 L10 -4 M-10 6 L10 6\" stroke=\"#1f3b5a\" stroke-width=\"2\"/>"
        case .accessPoint:
            return "<rect x=\"-20\" y=\"0\" width=\"40\" height=\"16\" \(style)/><path d=\"M-10 -6 Q0 -16 10 -6 M-16 -12 Q0 -28 16 -12\" fill=\"none\" stroke=\"#1f3b5a\" stroke-width=\"2\"/>"
        }
    }
}
