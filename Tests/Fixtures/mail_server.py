"""A mail server on loopback for the tests (aiosmtpd, from Debian's python3-aiosmtpd).

Usage: mail_server.py PORT_FILE MAILDIR CERT KEY USER PASSWORD [--login-only] [--no-starttls]

STARTTLS with the given certificate is required before anything else, and AUTH (PLAIN and LOGIN,
or LOGIN only) with USER and PASSWORD before MAIL. Each accepted message is written to MAILDIR
as N.json: {"from", "to", "data", "tls", "user"}. A recipient whose address starts with
"refuse" gets 550, with "later" 451.
"""

import asyncio
import json
import os
import socket
import ssl
import sys

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult


class Keeper:
    def __init__(self, folder):
        self.folder = folder
        self.count = 0

    async def handle_RCPT(self, server, session, envelope, address, options):
        if address.startswith("refuse"):
            return "550 5.1.1 no such mailbox"
        if address.startswith("later"):
            return "451 4.3.0 try again later"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        self.count += 1
        record = {
            "from": envelope.mail_from,
            "to": envelope.rcpt_tos,
            "data": envelope.content.decode("utf-8", "replace"),
            "tls": session.ssl is not None,
            "user": getattr(session, "auth_data", None) and session.auth_data.login.decode(),
        }
        path = os.path.join(self.folder, "%d.json" % self.count)
        with open(path + ".tmp", "w") as handle:
            json.dump(record, handle)
        os.rename(path + ".tmp", path)
        return "250 2.0.0 kept"


def main():
    port_file, folder, cert, key, user, password = sys.argv[1:7]
    flags = sys.argv[7:]
    context = None
    if "--no-starttls" not in flags:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(cert, key)

    def authenticator(server, session, envelope, mechanism, data):
        ok = data is not None and data.login == user.encode() and data.password == password.encode()
        return AuthResult(success=ok, handled=False, auth_data=data)

    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()
    controller = Controller(
        Keeper(folder), hostname="127.0.0.1", port=port, tls_context=context, require_starttls=context is not None,
        auth_required=context is not None, authenticator=authenticator,
        auth_exclude_mechanism=["PLAIN"] if "--login-only" in flags else None)
    controller.start()
    with open(port_file + ".tmp", "w") as handle:
        handle.write(str(port))
    os.rename(port_file + ".tmp", port_file)
    try:
        asyncio.new_event_loop().run_until_complete(asyncio.Event().wait())
    finally:
        controller.stop()


if __name__ == "__main__":
    main()
