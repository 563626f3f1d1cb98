import HTTPClient
import HTTPServer

/// Who may read `/metrics`: a request with `Authorization: Bearer <METRICS_TOKEN>`, or from a
/// client address in `METRICS_ALLOW` (loopback by default). Behind a trusted proxy the client is
/// the forwarded address, so the proxy's own loopback connection opens nothing.
struct MonitoringAccess: Sendable {
    var token: String?
    var allowed: [AddressRange]
    let site: SiteAddress

    func admit(_ request: Request) throws {
        if let token, let sent = request.headers["Authorization"], sent.hasPrefix("Bearer "),
           Crypto.constantTimeEqual(Array(sent.dropFirst(7).utf8), Array(token.utf8)) {
            return
        }
        if let address = AddressRange.parseAddress(site.clientAddress(of: request)), allowed.contains(where: { $0.contains(address) }) {
            return
        }
        throw HTTPError(.forbidden, "Metrics are for monitoring: send the METRICS_TOKEN as a bearer token, or ask from an allowed address.")
    }
}
