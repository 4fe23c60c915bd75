/* What-if measurements behind bench/DIAGNOSES.md; not part of the build.
 *
 *   cc -O2 -shared -fPIC -o /tmp/whatif.so bench/whatif_preload.c -lgit2
 *   WHATIF=certs,verify,trees LD_PRELOAD=/tmp/whatif.so build-bench/bin/ws-build
 *
 * Changes libgit2's process-wide settings before a tool starts, to measure
 * what a small fix in libcheck's git initialisation would buy, without
 * touching libcheck. Preloading it always:
 *   - skips libgit2's parsing of the system CA bundle in git_libgit2_init()
 *     (mbedTLS decodes ~290 PEM certificates at every start; the tools have
 *     no network code) — standing for a libgit2 built without HTTPS;
 * and, when WHATIF names them:
 *   verify  GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION off: objects read from
 *           the object database are not re-hashed (git does not either)
 *   trees   GIT_OPT_SET_CACHE_OBJECT_LIMIT for trees raised from 4 KiB to
 *           64 MiB, so each large directory tree is inflated once per process
 *   mwindow GIT_OPT_SET_MWINDOW_MAPPED_LIMIT 32 MiB (windows of 4 MiB): libgit2
 *           maps pack files in windows of 1 GiB up to 8 GiB by default, so a
 *           process that reads every blob keeps the whole pack resident
 */
#include <git2.h>
#include <stdlib.h>
#include <string.h>

static int wants(const char* what) {
  const char* w = getenv("WHATIF");
  return w && strstr(w, what) != NULL;
}

/* Interposes libmbedx509's function, which libgit2 calls during
 * git_libgit2_init() to load GIT_DEFAULT_CERT_LOCATION. */
int mbedtls_x509_crt_parse_file(void* chain, const char* path) {
  (void)chain;
  (void)path;
  return 0;
}

__attribute__((constructor)) static void whatif_setup(void) {
  git_libgit2_init();
  if (wants("verify")) git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, 0);
  if (wants("mwindow")) {
    git_libgit2_opts(GIT_OPT_SET_MWINDOW_SIZE, (size_t)4 << 20);
    git_libgit2_opts(GIT_OPT_SET_MWINDOW_MAPPED_LIMIT, (size_t)32 << 20);
  }
  if (wants("trees")) {
    git_libgit2_opts(GIT_OPT_SET_CACHE_OBJECT_LIMIT, GIT_OBJECT_TREE, (size_t)64 << 20);
    git_libgit2_opts(GIT_OPT_SET_CACHE_MAX_SIZE, (ssize_t)1 << 30);
  }
}
