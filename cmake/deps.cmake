# The libraries libcheck and the tools link, as targets that every
# CMakeLists uses: ws_dep_git2, ws_dep_tree_sitter, ws_dep_re2, ws_dep_utf8proc, plus
# WS_FMT_TARGET for fmt. ws_dep_tree_sitter is the pinned runtime built from
# its npm package (grammars/CMakeLists.txt), never Debian's.
#
# WS_STATIC_DEPS (on by default) links Debian's static archives of libgit2
# and what it needs, RE2 and utf8proc into the executables, takes fmt
# header-only, and the tools add -static-libstdc++ (tools/CMakeLists.txt).
# Why: a tool is a short process, and the dynamic linker's symbol lookups
# across 25 shared libraries cost about 10 M instructions (2 ms) at every
# start, more than a whole `git status` on a workspace of 1,000 definitions
# (bench/DIAGNOSES.md, "start-up"). Only GSSAPI (libgit2's negotiate
# authentication; Debian ships no archive of it) would stay shared: the tools
# leave libgit2's network transports out (tools/startup/no_network.c), so
# they need libc alone; the tests link it.
# Sanitizer and fuzzing builds link everything dynamically: their runtimes
# must see the C++ library's allocation functions.
option(WS_STATIC_DEPS "Link libgit2, RE2, fmt and libstdc++ into the tools statically" ON)
set(WS_LINK_STATIC OFF)
if(WS_STATIC_DEPS AND NOT WS_SANITIZE AND NOT WS_FUZZ)
  set(WS_LINK_STATIC ON)
endif()

# OpenSSL's SHA-1 for the index trailer ws-apply writes (libgit2 has no
# public one): its low-level SHA1_* functions, which need no OpenSSL start-up.
find_package(OpenSSL REQUIRED COMPONENTS Crypto)
add_library(ws_dep_crypto INTERFACE)
add_library(ws_dep_git2 INTERFACE)
add_library(ws_dep_tree_sitter INTERFACE)
add_library(ws_dep_re2 INTERFACE)
add_library(ws_dep_utf8proc INTERFACE)

if(WS_LINK_STATIC)
  # In link order: each archive before the ones it needs.
  set(git2_archives git2 http_parser pcre2-8 ssh2 mbedtls mbedx509 mbedcrypto crypto z)
  set(git2_static "")
  foreach(name IN LISTS git2_archives ITEMS re2 utf8proc)
    string(MAKE_C_IDENTIFIER "WS_ARCHIVE_${name}" var)
    find_library(${var} NAMES lib${name}.a REQUIRED)
    if(name IN_LIST git2_archives)
      list(APPEND git2_static ${${var}})
    endif()
  endforeach()
  # Only the runtime library is installed (no -dev package is needed for it).
  find_library(WS_GSSAPI_LIBRARY NAMES libgssapi_krb5.so.2 gssapi_krb5 REQUIRED)
  target_link_libraries(ws_dep_git2 INTERFACE ${git2_static} ${WS_GSSAPI_LIBRARY} Threads::Threads)
  target_link_libraries(ws_dep_crypto INTERFACE ${WS_ARCHIVE_crypto})
  target_link_libraries(ws_dep_re2 INTERFACE ${WS_ARCHIVE_re2} Threads::Threads)
  target_link_libraries(ws_dep_utf8proc INTERFACE ${WS_ARCHIVE_utf8proc})
  # The same headers as the shared libraries'.
  target_include_directories(ws_dep_git2 INTERFACE ${LIBGIT2_INCLUDE_DIRS})
  target_include_directories(ws_dep_re2 INTERFACE ${RE2_INCLUDE_DIRS})
  target_include_directories(ws_dep_utf8proc INTERFACE ${UTF8PROC_INCLUDE_DIRS})
  set(WS_FMT_TARGET fmt::fmt-header-only)
else()
  target_link_libraries(ws_dep_git2 INTERFACE PkgConfig::LIBGIT2)
  target_link_libraries(ws_dep_crypto INTERFACE OpenSSL::Crypto)
  target_link_libraries(ws_dep_re2 INTERFACE PkgConfig::RE2)
  target_link_libraries(ws_dep_utf8proc INTERFACE PkgConfig::UTF8PROC)
  set(WS_FMT_TARGET fmt::fmt)
endif()
message(STATUS "ws: dependencies linked ${WS_LINK_STATIC} (WS_STATIC_DEPS=${WS_STATIC_DEPS})")
