/* Linked into every ws-* executable when libgit2 is linked statically
 * (WS_STATIC_DEPS, the default), never into libcheck.
 *
 * The tools read and write a local repository and nothing else: they have
 * no network code (tests/unit/no_shell_test.cpp refuses socket code), yet
 * Debian's libgit2 starts its TLS (mbedTLS) and SSH (libssh2 over OpenSSL)
 * transports in git_libgit2_init(): the CA bundle is decoded, an entropy
 * pool is filled, OpenSSL loads its error strings, and Kerberos's GSSAPI and
 * six libraries behind it are loaded for HTTP negotiate authentication. That
 * was 40 % of the instructions and a third of the time of a warm ws-build on
 * 1,000 definitions (bench/DIAGNOSES.md, start-up). libgit2 1.5 has no
 * option to leave them out, and Debian builds it with them; so the tools are
 * linked as libgit2 built without them would be (USE_HTTPS=OFF, USE_SSH=OFF,
 * no GSSAPI): the linker's --wrap sends libgit2's calls of these functions
 * here (tools/CMakeLists.txt lists them), and their objects, mbedTLS,
 * libssh2, OpenSSL and GSSAPI are then not linked at all.
 *
 * Starting them is a no-op; using them fails closed with libgit2's usual
 * error, as in a build without them. Declarations are by ABI (pointers and
 * int), since libgit2's internal headers are not installed.
 */
#include <git2.h>

#include <stddef.h>

static int without(int klass, const char* what) {
  git_error_set_str(klass, what);
  return -1;
}

int __wrap_git_mbedtls_stream_global_init(void);
int __wrap_git_mbedtls_stream_new(void** out, const char* host, const char* port);
int __wrap_git_mbedtls_stream_wrap(void** out, void* in, const char* host);
int __wrap_git_mbedtls__set_cert_location(const char* file, const char* path);
int __wrap_git_transport_ssh_global_init(void);
int __wrap_git_smart_subtransport_ssh(void** out, void* owner, void* param);
int __wrap_git_http_auth_negotiate(void** out, const void* url);

int __wrap_git_mbedtls_stream_global_init(void) { return 0; }

int __wrap_git_mbedtls_stream_new(void** out, const char* host, const char* port) {
  (void)host;
  (void)port;
  *out = NULL;
  return without(GIT_ERROR_SSL, "TLS is not built into ws");
}

int __wrap_git_mbedtls_stream_wrap(void** out, void* in, const char* host) {
  (void)in;
  (void)host;
  *out = NULL;
  return without(GIT_ERROR_SSL, "TLS is not built into ws");
}

int __wrap_git_mbedtls__set_cert_location(const char* file, const char* path) {
  (void)file;
  (void)path;
  return without(GIT_ERROR_SSL, "TLS is not built into ws");
}

int __wrap_git_transport_ssh_global_init(void) { return 0; }

int __wrap_git_smart_subtransport_ssh(void** out, void* owner, void* param) {
  (void)owner;
  (void)param;
  *out = NULL;
  return without(GIT_ERROR_SSH, "SSH is not built into ws");
}

int __wrap_git_http_auth_negotiate(void** out, const void* url) {
  (void)url;
  *out = NULL;
  return without(GIT_ERROR_NET, "negotiate authentication is not built into ws");
}
