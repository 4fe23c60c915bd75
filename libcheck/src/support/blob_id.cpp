#include "blob_id.h"

#include <string>

// The low-level SHA1_* functions, as in index_tree.cpp: the one-shot SHA1()
// goes through EVP, which starts OpenSSL's configuration.
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/sha.h>

namespace ws::detail {

std::string blob_id_hex(std::string_view bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string header = "blob " + std::to_string(bytes.size());
  unsigned char id[SHA_DIGEST_LENGTH];
  SHA_CTX ctx;
  SHA1_Init(&ctx);
  SHA1_Update(&ctx, header.data(), header.size() + 1);  // with its NUL
  SHA1_Update(&ctx, bytes.data(), bytes.size());
  SHA1_Final(id, &ctx);
  std::string hex(2 * SHA_DIGEST_LENGTH, '0');
  for (int i = 0; i < SHA_DIGEST_LENGTH; ++i) {
    hex[2 * i] = kHex[id[i] >> 4];
    hex[2 * i + 1] = kHex[id[i] & 0xf];
  }
  return hex;
}

}  // namespace ws::detail
