"""A push service on loopback for the tests: it receives Web Push messages as a browser's push
service would, checks their VAPID signature (RFC 8292) and opens them with the subscriber's own
key (RFC 8291, aes128gcm), using Debian's python3-cryptography — an implementation of its own,
not the portal's.

Usage: push_endpoint.py PORT_FILE FOLDER

On start it makes the subscriber's key pair and auth secret and writes FOLDER/subscription.json
({"p256dh", "auth"}, base64url). Each POST to /push/NAME is written to FOLDER/N.json:
{"path", "headers", "vapid": true|false|reason, "message": the decrypted JSON or null, "error"}
and answered 201; a POST to /gone/NAME is answered 410 (the subscription expired).
"""

import base64
import json
import os
import socket
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF


def b64(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def hkdf(salt, ikm, info, length):
    return HKDF(algorithm=hashes.SHA256(), length=length, salt=salt, info=info).derive(ikm)


class Subscriber:
    def __init__(self):
        self.private = ec.generate_private_key(ec.SECP256R1())
        self.public = self.private.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
        self.auth = os.urandom(16)

    def open(self, body):
        salt, record_size, id_length = body[:16], int.from_bytes(body[16:20], "big"), body[20]
        sender = body[21:21 + id_length]
        sealed = body[21 + id_length:]
        if record_size < 18 or len(sealed) > record_size:
            raise ValueError("a single record was expected")
        shared = self.private.exchange(ec.ECDH(), ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), sender))
        ikm = hkdf(self.auth, shared, b"WebPush: info\x00" + self.public + sender, 32)
        key = hkdf(salt, ikm, b"Content-Encoding: aes128gcm\x00", 16)
        nonce = hkdf(salt, ikm, b"Content-Encoding: nonce\x00", 12)
        plain = AESGCM(key).decrypt(nonce, sealed, None).rstrip(b"\x00")
        if not plain.endswith(b"\x02"):
            raise ValueError("the last record's delimiter is missing")
        return json.loads(plain[:-1].decode("utf-8"))


def check_vapid(header, audience, now):
    if not header or not header.startswith("vapid "):
        return "no vapid authorization"
    fields = dict(part.strip().split("=", 1) for part in header[6:].split(","))
    token, key = fields.get("t", ""), fields.get("k", "")
    head, claims, signature = token.split(".")
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(key))
    raw = unb64(signature)
    if len(raw) != 64:
        return "the signature is not r || s"
    try:
        public.verify(encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big")),
                      (head + "." + claims).encode(), ec.ECDSA(hashes.SHA256()))
    except InvalidSignature:
        return "the signature does not verify"
    if json.loads(unb64(head)).get("alg") != "ES256":
        return "not ES256"
    body = json.loads(unb64(claims))
    if body.get("aud") != audience:
        return "aud is %r, not %r" % (body.get("aud"), audience)
    if not now - 60 < body.get("exp", 0) <= now + 24 * 3600 + 60:
        return "exp is not within a day of the sender's clock"
    return True


def sender_now(folder):
    """The time on the sender's clock: a test's clock moved ahead (to a morning of tomorrow)
    is told in the folder's clock-offset file, in seconds."""
    try:
        with open(os.path.join(folder, "clock-offset")) as handle:
            return time.time() + float(handle.read())
    except OSError:
        return time.time()


def main():
    port_file, folder = sys.argv[1:3]
    subscriber = Subscriber()
    with open(os.path.join(folder, "subscription.json"), "w") as handle:
        json.dump({"p256dh": b64(subscriber.public), "auth": b64(subscriber.auth)}, handle)
    count = [0]

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *arguments):
            pass

        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            if self.path.startswith("/gone/"):
                self.send_response(410)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            record = {"path": self.path, "headers": {k.lower(): v for k, v in self.headers.items()}, "message": None, "error": None}
            record["vapid"] = check_vapid(self.headers.get("Authorization"), "http://127.0.0.1:%d" % port, sender_now(folder))
            try:
                if self.headers.get("Content-Encoding") != "aes128gcm":
                    raise ValueError("not aes128gcm")
                record["message"] = subscriber.open(body)
            except Exception as error:  # what could not be opened is the test's to see
                record["error"] = "%s: %s" % (type(error).__name__, error)
            count[0] += 1
            with open(os.path.join(folder, "%d.json.tmp" % count[0]), "w") as handle:
                json.dump(record, handle)
            os.rename(os.path.join(folder, "%d.json.tmp" % count[0]), os.path.join(folder, "%d.json" % count[0]))
            self.send_response(201)
            self.send_header("Content-Length", "0")
            self.end_headers()

    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()
    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    with open(port_file + ".tmp", "w") as handle:
        handle.write(str(port))
    os.rename(port_file + ".tmp", port_file)
    server.serve_forever()


if __name__ == "__main__":
    main()
