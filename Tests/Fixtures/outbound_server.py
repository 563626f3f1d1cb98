"""A small HTTPS (or plain HTTP) server for the outbound client's tests, on a free loopback port.

Usage: outbound_server.py PORT_FILE [CERT KEY]. Writes the port it listens on to PORT_FILE.
Paths: /hello (a short text), /chunked (a chunked body), /big (2 MiB), /slow (answers after
5 seconds), /echo (the request's method, path and body).
"""

import http.server
import ssl
import sys
import time


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *arguments):
        pass

    def reply(self, body, status=200, headers=()):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        if self.path == "/hello":
            self.reply(b"hello", headers=[("Content-Type", "text/plain")])
        elif self.path == "/chunked":
            self.send_response(200)
            self.send_header("Transfer-Encoding", "chunked")
            self.send_header("Connection", "close")
            self.end_headers()
            for part in (b"first ", b"second ", b"third"):
                self.wfile.write(b"%x\r\n%s\r\n" % (len(part), part))
            self.wfile.write(b"0\r\n\r\n")
        elif self.path == "/big":
            self.reply(b"x" * (2 << 20))
        elif self.path == "/slow":
            time.sleep(5)
            self.reply(b"late")
        else:
            self.reply(b"not here", status=404)

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(length)
        self.reply(b"%s %s %s" % (self.command.encode(), self.path.encode(), body))


def main():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    if len(sys.argv) == 4:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(sys.argv[2], sys.argv[3])
        server.socket = context.wrap_socket(server.socket, server_side=True)
    with open(sys.argv[1] + ".tmp", "w") as handle:
        handle.write(str(server.server_address[1]))
    import os
    os.rename(sys.argv[1] + ".tmp", sys.argv[1])
    server.serve_forever()


if __name__ == "__main__":
    main()
