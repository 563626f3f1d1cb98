#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/bn.h>
#include <openssl/rsa.h>
#include <openssl/x509v3.h>
#include <openssl/core_names.h>
#include <openssl/param_build.h>
#include <openssl/ec.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

/* Macros Swift cannot call, as functions. */
static inline long portal_ssl_set_server_name(SSL *ssl, const char *name) { return SSL_set_tlsext_host_name(ssl, name); }
static inline int portal_ssl_ctx_set_min_tls12(SSL_CTX *context) { return (int)SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION); }
/* A peer that closes without close_notify ends the stream (the body's length decides what is complete). */
static inline void portal_ssl_ctx_ignore_unexpected_eof(SSL_CTX *context) { SSL_CTX_set_options(context, SSL_OP_IGNORE_UNEXPECTED_EOF); }
/* Selections for EVP_PKEY_fromdata, as constants. */
static inline int portal_evp_pkey_public_key(void) { return EVP_PKEY_PUBLIC_KEY; }
static inline int portal_evp_pkey_keypair(void) { return EVP_PKEY_KEYPAIR; }
