/* Linked into every ws-* executable, never into libcheck.
 *
 * Debian's libgit2 is built with HTTPS over mbedTLS, and git_libgit2_init()
 * loads the system CA bundle (GIT_DEFAULT_CERT_LOCATION) through
 * mbedtls_x509_crt_parse_file: about 290 PEM certificates decoded at every
 * start, 15-20 ms and a third of a small warm ws-build (bench/DIAGNOSES.md,
 * C1). The tools never open a network connection (tests/unit/no_shell_test.cpp
 * refuses socket code), and libgit2 1.5 has no option to skip the load, so the
 * executables replace the function, and the load fails:
 *  - linked statically (WS_STATIC_DEPS, the default), the linker's
 *    --wrap=mbedtls_x509_crt_parse_file sends libgit2's call here, to
 *    __wrap_mbedtls_x509_crt_parse_file;
 *  - linked against the shared libgit2, the call binds to this definition of
 *    the function itself (an executable's symbols come first in the dynamic
 *    linker's lookup).
 * tests/e2e/startup_test.cpp checks that no tool opens the bundle. Should TLS
 * ever be used after all, it would have no trust anchors and refuse every
 * peer: failing closed, never open.
 */

/* mbedTLS's MBEDTLS_ERR_X509_FILE_IO_ERROR: "read or write of file failed". */
#define WS_X509_FILE_IO_ERROR (-0x2900)

#ifdef WS_WRAP_CA_BUNDLE_LOAD
#define WS_CA_BUNDLE_LOAD __wrap_mbedtls_x509_crt_parse_file
#else
#define WS_CA_BUNDLE_LOAD mbedtls_x509_crt_parse_file
#endif

int WS_CA_BUNDLE_LOAD(void* chain, const char* path);

int WS_CA_BUNDLE_LOAD(void* chain, const char* path) {
  (void)chain;
  (void)path;
  return WS_X509_FILE_IO_ERROR;
}
