#pragma once
/* The RSA key calls DTLSKeyCache makes are deprecated in OpenSSL 3 but are the only way into
   the RSA key generation GStreamer 1.22's dtls plugin runs (see DTLSKeyCache.swift). */
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>
