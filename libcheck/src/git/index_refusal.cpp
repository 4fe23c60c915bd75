#include "index_refusal.h"

#include "printable_path.h"
#include "index_file.h"
#include "libcheck/path_policy.h"

namespace ws::detail {

Error index_load_error(const std::string& index_file, Error fallback) {
  IndexFile index = IndexFile::read(index_file, IndexFile::Order::any);
  if (index.state() != IndexFile::State::ok) return fallback;
  PathPolicy policy = read_policy();
  policy.allow_secret_names = true;  // a secret's path is a path libgit2 loads
  for (const IndexEntry& e : index.entries()) {
    auto refused = check_path(index.path(e), policy);
    if (!refused) continue;
    return make_error(fallback.code, "cannot read the index '" + printable_path(index_file) + "': " + refused->message(),
                      refused->path, to_rule(refused->rule));
  }
  return fallback;
}

}  // namespace ws::detail
