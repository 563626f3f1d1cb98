"""A test LMS (an LTI 1.3 platform) and a test OpenID Connect identity provider on one loopback port.

Usage: lti_platform.py PORT_FILE. Writes the port it listens on to PORT_FILE. Needs PyJWT and
cryptography (Debian's python3-jwt and python3-cryptography).

The platform, issuer http://127.0.0.1:PORT/lms:
  GET  /lms/jwks                 its key set (POST /control/rotate replaces the key)
  GET  /lms/auth                 the OIDC authorisation endpoint of an LTI launch: checks the
                                 tool's request and answers a page that posts the id_token and
                                 state to the redirect_uri; the claims come from the scenario the
                                 lti_message_hint names (POST /control/scenario)
  GET  /lms/start/NAME           a page that begins scenario NAME's launch at the tool (a browser's
                                 click in the course); /lms/framed/NAME opens it in a frame, and
                                 with ?storage=1 offers the platform's postMessage storage
                                 (lti_storage_target, the frame /lms/storage)
  GET  /lms/storage              1EdTech's client-side postMessage storage: lti.put_data and
                                 lti.get_data for the origins that ask
  POST /lms/token                client-credentials grant with a JWT client assertion, checked
                                 against the tool's key set
  POST /lms/lineitems/ID/lineitem/scores   a score (needs the token); refused with 503 while down
  GET  /lms/memberships/CONTEXT  the course's roster (Names and Role Provisioning Services)
  POST /lms/deep-link-return     the tool's LtiDeepLinkingResponse (form field JWT), checked
The identity provider, issuer http://127.0.0.1:PORT/idp:
  GET  /idp/.well-known/openid-configuration, /idp/jwks
  GET  /idp/authorize            authorisation code + PKCE for the user set by POST /control/user
  POST /idp/token                the code exchanged (client secret and code_verifier checked)
Control (JSON): POST /control/config {tool_jwks_url, client_id, idp_client_id, idp_client_secret, idp_signer},
  POST /control/scenario {name, claims, sign_with, kid}, POST /control/down {down},
  POST /control/user {claims}, POST /control/rotate, GET /control/log (what arrived).
"""

import base64
import hashlib
import html
import json
import secrets
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

LTI = "https://purl.imsglobal.org/spec/lti/claim/"
AGS = "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint"
NRPS = "https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice"
DL = "https://purl.imsglobal.org/spec/lti-dl/claim/"


def new_key():
    private = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    pem = private.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    return {"kid": secrets.token_urlsafe(8), "pem": pem, "public": private.public_key()}


def jwk(key):
    entry = json.loads(jwt.algorithms.RSAAlgorithm.to_jwk(key["public"]))
    entry.update({"kid": key["kid"], "use": "sig", "alg": "RS256"})
    return entry


class State:
    def __init__(self):
        self.lock = threading.Lock()
        self.keys = {"lms": new_key(), "idp": new_key(), "stranger": new_key()}
        self.config = {"client_id": "portal-tool", "idp_client_id": "portal-sso", "idp_client_secret": "sso-secret"}
        self.scenarios = {}
        self.user = {"sub": "idp-user-1", "name": "Ada Lovelace", "email": "ada@school.example"}
        self.codes = {}
        self.tokens = set()
        self.down = False
        self.log = {"scores": [], "token_requests": [], "deep_links": [], "refused": []}


STATE = State()

# The platform's storage frame: keeps values per origin that put them, answers that origin only.
STORAGE_PAGE = """<!DOCTYPE html><html lang="en"><title>Storage</title><script>
const kept = {};
window.addEventListener("message", (event) => {
  const message = event.data || {};
  const space = kept[event.origin] || (kept[event.origin] = {});
  if (message.subject === "lti.put_data") {
    space[message.key] = message.value;
    event.source.postMessage({subject: "lti.put_data.response", message_id: message.message_id, key: message.key, value: message.value}, event.origin);
  } else if (message.subject === "lti.get_data") {
    const answer = {subject: "lti.get_data.response", message_id: message.message_id, key: message.key};
    if (message.key in space) { answer.value = space[message.key]; } else { answer.error = {code: "not_found", message: "nothing stored"}; }
    event.source.postMessage(answer, event.origin);
  }
});
</script></html>"""


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *arguments):
        pass

    @property
    def base(self):
        # As the client named it: a browser test reaches the platform as localhost, another
        # site than the portal's 127.0.0.1, as an LMS is.
        host = self.headers.get("Host", "")
        if not host.startswith(("localhost:", "127.0.0.1:")):
            host = "127.0.0.1:%d" % self.server.server_port
        return "http://" + host

    def reply(self, body, status=200, content_type="application/json", headers=()):
        if isinstance(body, (dict, list)):
            body = json.dumps(body).encode()
        elif isinstance(body, str):
            body = body.encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(body)

    def refuse(self, status, reason):
        with STATE.lock:
            STATE.log["refused"].append({"path": self.path, "reason": reason})
        self.reply({"error": reason}, status=status)

    def body(self):
        length = int(self.headers.get("Content-Length", "0"))
        return self.rfile.read(length)

    def form(self):
        return {k: v[0] for k, v in urllib.parse.parse_qs(self.body().decode(), keep_blank_values=True).items()}

    def query(self):
        return {k: v[0] for k, v in urllib.parse.parse_qs(urllib.parse.urlsplit(self.path).query, keep_blank_values=True).items()}

    def bearer_ok(self):
        header = self.headers.get("Authorization", "")
        with STATE.lock:
            return header.startswith("Bearer ") and header[7:] in STATE.tokens

    def sign(self, claims, signer, kid=None):
        key = STATE.keys[signer]
        return jwt.encode(claims, key["pem"], algorithm="RS256", headers={"kid": kid or key["kid"]})

    def tool_token(self, token, audience):
        """The claims of a token the tool signed, checked against the tool's published key set."""
        client = jwt.PyJWKClient(STATE.config["tool_jwks_url"], cache_keys=False)
        key = client.get_signing_key_from_jwt(token)
        return jwt.decode(token, key.key, algorithms=["RS256"], audience=audience, options={"require": ["exp", "iat"]})

    # -- GET ----------------------------------------------------------------------------------
    def do_GET(self):
        path = urllib.parse.urlsplit(self.path).path
        if path == "/lms/jwks":
            self.reply({"keys": [jwk(STATE.keys["lms"])]})
        elif path == "/idp/jwks":
            self.reply({"keys": [jwk(STATE.keys["idp"])]})
        elif path == "/lms/auth":
            self.lti_auth()
        elif path.startswith("/lms/start/"):
            self.lti_start(path[len("/lms/start/"):])
        elif path.startswith("/lms/framed/"):
            self.lti_start(path[len("/lms/framed/"):], framed=True, storage=self.query().get("storage") == "1")
        elif path == "/lms/storage":
            self.reply(STORAGE_PAGE, content_type="text/html; charset=utf-8")
        elif path.startswith("/lms/memberships/"):
            if not self.bearer_ok():
                return self.refuse(401, "no token")
            self.reply({"id": self.base + path, "context": {"id": path.rsplit("/", 1)[1]}, "members": STATE.config.get("members", [])},
                       content_type="application/vnd.ims.lti-nrps.v2.membershipcontainer+json")
        elif path == "/idp/.well-known/openid-configuration":
            issuer = self.base + "/idp"
            self.reply({"issuer": issuer, "authorization_endpoint": issuer + "/authorize", "token_endpoint": issuer + "/token",
                        "jwks_uri": issuer + "/jwks", "response_types_supported": ["code"], "subject_types_supported": ["public"],
                        "id_token_signing_alg_values_supported": ["RS256"], "code_challenge_methods_supported": ["S256"],
                        "token_endpoint_auth_methods_supported": ["client_secret_post", "client_secret_basic", "private_key_jwt"]})
        elif path == "/idp/authorize":
            self.idp_authorize()
        elif path == "/control/log":
            with STATE.lock:
                self.reply(STATE.log)
        else:
            self.reply({"error": "not here"}, status=404)

    def lti_start(self, name, framed=False, storage=False):
        with STATE.lock:
            scenario = STATE.scenarios.get(name)
        if scenario is None:
            return self.reply({"error": "no such scenario"}, status=404)
        fields = {"iss": self.base + "/lms", "login_hint": scenario["claims"].get("sub", "user"), "lti_message_hint": name,
                  "target_link_uri": scenario["login_target"], "client_id": STATE.config["client_id"]}
        if storage:
            fields["lti_storage_target"] = "lti-storage"
        inputs = "".join('<input type="hidden" name="%s" value="%s">' % (k, html.escape(v)) for k, v in fields.items())
        # Framed: the activity opens inside the course's page, as most LMSs show a tool.
        target = ' target="tool"' if framed else ""
        frame = '<iframe name="tool" title="Activity" width="800" height="500"></iframe>' if framed else ""
        if storage:
            frame += '<iframe name="lti-storage" title="Storage" src="/lms/storage" hidden></iframe>'
        page = ('<!DOCTYPE html><html lang="en"><title>Course</title><form method="post" action="%s"%s>%s'
                '<button type="submit" id="launch">Open the activity</button></form>%s</html>') % (
                    html.escape(STATE.config["tool_login_url"]), target, inputs, frame)
        self.reply(page, content_type="text/html; charset=utf-8")

    def lti_auth(self):
        q = self.query()
        expected = {"scope": "openid", "response_type": "id_token", "response_mode": "form_post", "prompt": "none",
                    "client_id": STATE.config["client_id"]}
        for name, value in expected.items():
            if q.get(name) != value:
                return self.refuse(400, "%s should be %s, not %r" % (name, value, q.get(name)))
        for name in ("redirect_uri", "login_hint", "state", "nonce"):
            if not q.get(name):
                return self.refuse(400, "no " + name)
        with STATE.lock:
            scenario = STATE.scenarios.get(q.get("lti_message_hint", ""))
        if scenario is None:
            return self.refuse(400, "unknown lti_message_hint")
        now = int(time.time())
        claims = {
            "iss": self.base + "/lms", "aud": STATE.config["client_id"], "sub": q["login_hint"], "nonce": q["nonce"],
            "iat": now, "exp": now + 300, "name": "Test Learner",
            LTI + "message_type": "LtiResourceLinkRequest", LTI + "version": "1.3.0",
            LTI + "deployment_id": "deployment-1", LTI + "roles": ["http://purl.imsglobal.org/vocab/lis/v2/membership#Learner"],
            LTI + "resource_link": {"id": "link-1", "title": "Activity"},
            LTI + "context": {"id": "course-1", "label": "NET101", "title": "Networking 101"},
        }
        for name, value in scenario["claims"].items():
            if value is None:
                claims.pop(name, None)
            else:
                claims[name] = value
        token = self.sign(claims, scenario.get("sign_with", "lms"), scenario.get("kid"))
        # A "manual" scenario waits for the Continue button (a test does something in between).
        script = "" if scenario.get("manual") else "<script>document.forms[0].submit()</script>"
        page = ('<!DOCTYPE html><html lang="en"><title>Launching</title><form method="post" action="%s">'
                '<input type="hidden" name="id_token" value="%s"><input type="hidden" name="state" value="%s">'
                '<button type="submit" id="continue">Continue</button></form>%s</html>') % (html.escape(q["redirect_uri"]), token, html.escape(q["state"]), script)
        self.reply(page, content_type="text/html; charset=utf-8")

    def idp_authorize(self):
        q = self.query()
        if q.get("response_type") != "code" or q.get("client_id") != STATE.config["idp_client_id"]:
            return self.refuse(400, "bad authorisation request")
        if q.get("code_challenge_method") != "S256" or not q.get("code_challenge") or not q.get("state") or not q.get("nonce"):
            return self.refuse(400, "PKCE, state and nonce are required")
        code = secrets.token_urlsafe(16)
        with STATE.lock:
            STATE.codes[code] = {"challenge": q["code_challenge"], "redirect_uri": q["redirect_uri"], "nonce": q["nonce"],
                                 "user": dict(STATE.user)}
        separator = "&" if "?" in q["redirect_uri"] else "?"
        location = q["redirect_uri"] + separator + urllib.parse.urlencode({"code": code, "state": q["state"]})
        self.send_response(302)
        self.send_header("Location", location)
        self.send_header("Content-Length", "0")
        self.send_header("Connection", "close")
        self.end_headers()

    # -- POST ---------------------------------------------------------------------------------
    def do_POST(self):
        path = urllib.parse.urlsplit(self.path).path
        if path.startswith("/control/"):
            return self.control(path[len("/control/"):], json.loads(self.body() or b"{}"))
        if path == "/lms/token":
            return self.lms_token()
        if path.startswith("/lms/lineitems/") and path.endswith("/scores"):
            if STATE.down:
                self.body()
                return self.refuse(503, "down for maintenance")
            if not self.bearer_ok():
                return self.refuse(401, "no token")
            if self.headers.get("Content-Type") != "application/vnd.ims.lis.v1.score+json":
                return self.refuse(415, "a score is application/vnd.ims.lis.v1.score+json")
            score = json.loads(self.body())
            with STATE.lock:
                STATE.log["scores"].append({"lineitem": path[:-len("/scores")], "score": score})
            return self.reply(b"", status=204)
        if path == "/lms/deep-link-return":
            return self.deep_link_return()
        if path == "/idp/token":
            return self.idp_token()
        self.reply({"error": "not here"}, status=404)

    def control(self, name, data):
        with STATE.lock:
            if name == "config":
                STATE.config.update(data)
            elif name == "scenario":
                STATE.scenarios[data["name"]] = data
            elif name == "down":
                STATE.down = bool(data["down"])
            elif name == "user":
                STATE.user = data["claims"]
            elif name == "rotate":
                STATE.keys["lms"] = new_key()
        self.reply({"ok": True})

    def lms_token(self):
        form = self.form()
        token_url = self.base + "/lms/token"
        if form.get("grant_type") != "client_credentials":
            return self.refuse(400, "unsupported_grant_type")
        if form.get("client_assertion_type") != "urn:ietf:params:oauth:client-assertion-type:jwt-bearer":
            return self.refuse(400, "invalid_client: no JWT client assertion")
        try:
            claims = self.tool_token(form.get("client_assertion", ""), token_url)
        except Exception as error:  # the assertion's own failure, reported
            return self.refuse(401, "invalid_client: %s" % error)
        if claims.get("iss") != STATE.config["client_id"] or claims.get("sub") != STATE.config["client_id"]:
            return self.refuse(401, "invalid_client: iss and sub must be the client id")
        token = secrets.token_urlsafe(24)
        with STATE.lock:
            STATE.tokens.add(token)
            STATE.log["token_requests"].append({"scope": form.get("scope", "")})
        self.reply({"access_token": token, "token_type": "Bearer", "expires_in": 3600, "scope": form.get("scope", "")})

    def deep_link_return(self):
        form = self.form()
        try:
            claims = self.tool_token(form.get("JWT", ""), self.base + "/lms")
        except Exception as error:
            return self.refuse(400, "deep-linking response refused: %s" % error)
        if claims.get("iss") != STATE.config["client_id"] or claims.get(LTI + "message_type") != "LtiDeepLinkingResponse":
            return self.refuse(400, "not a deep-linking response from the tool")
        with STATE.lock:
            STATE.log["deep_links"].append(claims)
        self.reply('<!DOCTYPE html><html lang="en"><title>Linked</title><p id="linked">Linked.</p></html>', content_type="text/html; charset=utf-8")

    def idp_token(self):
        form = self.form()
        client_id, secret = form.get("client_id"), form.get("client_secret")
        header = self.headers.get("Authorization", "")
        if header.startswith("Basic "):
            client_id, _, secret = base64.b64decode(header[6:]).decode().partition(":")
            client_id, secret = urllib.parse.unquote_plus(client_id), urllib.parse.unquote_plus(secret)
        if form.get("client_assertion_type") == "urn:ietf:params:oauth:client-assertion-type:jwt-bearer":
            # private_key_jwt: the tool's assertion, checked against its published key set.
            try:
                claims = self.tool_token(form.get("client_assertion", ""), self.base + "/idp/token")
            except Exception as error:
                return self.refuse(401, "invalid_client: %s" % error)
            if claims.get("iss") != STATE.config["idp_client_id"] or claims.get("sub") != STATE.config["idp_client_id"]:
                return self.refuse(401, "invalid_client: iss and sub must be the client id")
            with STATE.lock:
                STATE.log.setdefault("idp_client_auth", []).append("private_key_jwt")
        elif client_id != STATE.config["idp_client_id"] or secret != STATE.config["idp_client_secret"]:
            return self.refuse(401, "invalid_client")
        else:
            with STATE.lock:
                STATE.log.setdefault("idp_client_auth", []).append("client_secret")
        with STATE.lock:
            grant = STATE.codes.pop(form.get("code", ""), None)
        if grant is None or form.get("grant_type") != "authorization_code" or form.get("redirect_uri") != grant["redirect_uri"]:
            return self.refuse(400, "invalid_grant")
        verifier = form.get("code_verifier", "")
        challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
        if challenge != grant["challenge"]:
            return self.refuse(400, "invalid_grant: the code_verifier does not match")
        now = int(time.time())
        claims = {"iss": self.base + "/idp", "aud": client_id, "iat": now, "exp": now + 300, "nonce": grant["nonce"]}
        claims.update(grant["user"])
        # A test may have the provider hand back a token signed by someone else (the LMS).
        self.reply({"access_token": secrets.token_urlsafe(16), "token_type": "Bearer", "expires_in": 300,
                    "id_token": self.sign(claims, STATE.config.get("idp_signer", "idp"))})


def main():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    with open(sys.argv[1] + ".tmp", "w") as port_file:
        port_file.write(str(server.server_port))
    import os
    os.rename(sys.argv[1] + ".tmp", sys.argv[1])
    server.serve_forever()


if __name__ == "__main__":
    main()
