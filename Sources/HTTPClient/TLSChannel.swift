internal import COpenSSL
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// TLS 1.2 or later over a connected socket, through OpenSSL: the peer's chain verified against
/// the system's authorities (or the configured ones), the certificate checked against the host
/// name (or IP address) asked for, SNI sent for names.
package final class TLSChannel: Channel {
    let socket: Int32
    let deadline: Date
    private let context: OpaquePointer
    private let ssl: OpaquePointer

    package init(socket: Int32, host: String, trusted: String?, deadline: Date) throws(ClientError.Cause) {
        self.socket = socket
        self.deadline = deadline
        guard let context = SSL_CTX_new(TLS_client_method()) else { throw .tls(Self.lastError()) }
        self.context = context
        _ = portal_ssl_ctx_set_min_tls12(context)
        // Servers that close without close_notify are common; a cut-short body is caught by its
        // Content-Length or chunking instead.
        portal_ssl_ctx_ignore_unexpected_eof(context)
        SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
        let loaded = trusted.map { SSL_CTX_load_verify_locations(context, $0, nil) } ?? SSL_CTX_set_default_verify_paths(context)
        guard loaded == 1, let ssl = SSL_new(context) else {
            SSL_CTX_free(context)
            throw .tls("the trusted certificates cannot be loaded: " + Self.lastError())
        }
        self.ssl = ssl
        // The certificate must name what was asked for: a host name, or an IP address.
        let isAddress = host.contains(":") || host.split(separator: ".").allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isNumber) }
        if isAddress {
            X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), host)
        } else {
            SSL_set1_host(ssl, host)
            _ = portal_ssl_set_server_name(ssl, host)
        }
        SSL_set_fd(ssl, socket)
        do throws(ClientError.Cause) {
            try Self.limit(socket, to: deadline)
        } catch {
            close()
            throw error
        }
        guard SSL_connect(ssl) == 1 else {
            let verification = SSL_get_verify_result(ssl)
            let reason = verification != X509_V_OK ? String(cString: X509_verify_cert_error_string(verification)) : Self.lastError()
            let timedOut = deadline.timeIntervalSinceNow <= 0
            close()
            throw timedOut ? .timedOut : .tls(reason)
        }
    }

    package func write(_ bytes: [UInt8]) throws(ClientError.Cause) {
        var sent = 0
        while sent < bytes.count {
            try Self.limit(socket, to: deadline)
            let count = bytes[sent...].withUnsafeBytes { SSL_write(ssl, $0.baseAddress, Int32($0.count)) }
            guard count > 0 else { throw deadline.timeIntervalSinceNow <= 0 ? .timedOut : .connectionLost }
            sent += Int(count)
        }
    }

    package func read() throws(ClientError.Cause) -> [UInt8]? {
        try Self.limit(socket, to: deadline)
        var buffer = [UInt8](repeating: 0, count: 16_384)
        let count = buffer.withUnsafeMutableBytes { SSL_read(ssl, $0.baseAddress, Int32($0.count)) }
        if count > 0 { return Array(buffer.prefix(Int(count))) }
        switch SSL_get_error(ssl, count) {
        case SSL_ERROR_ZERO_RETURN: return nil
        default: throw deadline.timeIntervalSinceNow <= 0 ? .timedOut : .connectionLost
        }
    }

    package func close() {
        SSL_shutdown(ssl)
        SSL_free(ssl)
        SSL_CTX_free(context)
        _ = Glibc.close(socket)
    }

    /// OpenSSL's latest error, in words.
    static func lastError() -> String {
        let code = ERR_get_error()
        guard code != 0 else { return "unknown error" }
        var buffer = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(code, &buffer, buffer.count)
        return String(cString: buffer)
    }
}
