// Errors as values: every fallible libcheck call returns Result<T> or Status.
// The library never prints, exits or throws for user errors.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace ws {

// What went wrong, coarsely, so a tool can map it to an exit status.
enum class Errc {
  usage,        // bad argument or option value (exit 2)
  environment,  // repository, root, install or I/O trouble (exit 2)
  refused,      // a rule refused the request: path policy, stale proposal... (exit 1)
  not_found,    // a named thing (revision, proposal, path) does not exist
  invalid,      // input exists but is malformed
};

struct Error {
  Errc code = Errc::environment;
  std::string message;  // one line, lower-case start, no full stop; names the input
  std::string subject;  // the offending input (path, revision, id), may be empty
  std::string rule;     // the named rule that refused it ("symlink", "too-large"), if any
};

template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}          // NOLINT: implicit by design
  Result(Error error) : v_(std::move(error)) {}      // NOLINT
  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }
  T& value() & { return std::get<0>(v_); }
  const T& value() const& { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  const Error& error() const { return std::get<1>(v_); }

 private:
  std::variant<T, Error> v_;
};

struct Ok {};
using Status = Result<Ok>;

inline Error make_error(Errc code, std::string message, std::string subject = {},
                        std::string rule = {}) {
  return Error{code, std::move(message), std::move(subject), std::move(rule)};
}

}  // namespace ws
