/* Linked into every ws-* executable that uses the shared libgit2
 * (WS_STATIC_DEPS=OFF, and the sanitizer build), never into libcheck;
 * statically linked, the tools leave libgit2's network transports out
 * altogether (no_network.c).
 *
 * Debian's libgit2 is built with HTTPS over mbedTLS, and git_libgit2_init()
 * loads the system CA bundle (GIT_DEFAULT_CERT_LOCATION) through
 * mbedtls_x509_crt_parse_file: about 290 PEM certificates decoded at every
 * start, 15-20 ms and a third of a small warm ws-build (bench/DIAGNOSES.md,
 * C1). The tools never open a network connection (tests/unit/no_shell_test.cpp
 * refuses socket code), and libgit2 1.5 has no option to skip the load, so the
 * executables define the function themselves: libgit2's call binds to this
 * definition (an executable's symbols come first in the dynamic linker's
 * lookup), and the load fails. tests/e2e/startup_test.cpp checks that no tool
 * opens the bundle. Should TLS ever be used after all, it would have no trust
 * anchors and refuse every peer: failing closed, never open.
 */

/* mbedTLS's MBEDTLS_ERR_X509_FILE_IO_ERROR: "read or write of file failed". */
#define WS_X509_FILE_IO_ERROR (-0x2900)

int mbedtls_x509_crt_parse_file(void* chain, const char* path);

int mbedtls_x509_crt_parse_file(void* chain, const char* path) {
  (void)chain;
  (void)path;
  return WS_X509_FILE_IO_ERROR;
}
