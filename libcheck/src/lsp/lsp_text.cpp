// Positions, URIs and frames of the protocol (lsp_text.h, lsp.h).
#include "lsp_text.h"

#include <algorithm>
#include <charconv>

#include "ascii_case.h"
#include "libcheck/lsp.h"

namespace ws::lsp {

namespace {

constexpr std::string_view kHeaderEnd = "\r\n\r\n";

// The Content-Length of a header block, or nullopt when it has none or a
// bad one.
std::optional<std::size_t> content_length(std::string_view headers) {
  std::optional<std::size_t> length;
  while (!headers.empty()) {
    std::size_t eol = headers.find("\r\n");
    std::string_view line = headers.substr(0, eol);
    headers = eol == std::string_view::npos ? std::string_view() : headers.substr(eol + 2);
    std::size_t colon = line.find(':');
    if (colon == std::string_view::npos) return std::nullopt;
    if (!ws::detail::iequals_ascii(line.substr(0, colon), "Content-Length")) continue;
    std::string_view value = line.substr(colon + 1);
    while (!value.empty() && value.front() == ' ') value.remove_prefix(1);
    while (!value.empty() && value.back() == ' ') value.remove_suffix(1);
    std::size_t n = 0;
    auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
    if (ec != std::errc() || end != value.data() + value.size() || value.empty()) return std::nullopt;
    length = n;
  }
  return length;
}

}  // namespace

Result<std::optional<std::string>> FrameReader::next() {
  if (skip_) {
    std::size_t n = std::min(skip_, buffer_.size());
    buffer_.erase(0, n);
    skip_ -= n;
    if (skip_) return std::optional<std::string>();
  }
  std::size_t end = buffer_.find(kHeaderEnd);
  if (end == std::string::npos) {
    if (buffer_.size() <= 64 * 1024) return std::optional<std::string>();
    buffer_.clear();
    return make_error(Errc::invalid, "malformed frame: a header longer than 64 KiB");
  }
  auto length = content_length(std::string_view(buffer_).substr(0, end));
  std::size_t body = end + kHeaderEnd.size();
  if (!length) {
    buffer_.erase(0, body);
    return make_error(Errc::invalid, "malformed frame: no valid Content-Length header");
  }
  if (*length > kMaxMessage) {
    buffer_.erase(0, body);
    skip_ = *length;
    return make_error(Errc::invalid, "message of " + std::to_string(*length) + " bytes refused: the most is " +
                                         std::to_string(kMaxMessage));
  }
  if (buffer_.size() - body < *length) return std::optional<std::string>();
  std::string message = buffer_.substr(body, *length);
  buffer_.erase(0, body + *length);
  return std::optional<std::string>(std::move(message));
}

std::string frame(std::string_view json) {
  std::string out = "Content-Length: " + std::to_string(json.size()) + "\r\n\r\n";
  out.append(json);
  return out;
}

namespace detail {

namespace {

// Bytes of the UTF-8 sequence led by `c` (1 for a byte that leads none).
std::size_t sequence_size(unsigned char c) {
  if (c >= 0xF0 && c <= 0xF7) return 4;
  if (c >= 0xE0) return c <= 0xEF ? 3 : 1;
  if (c >= 0xC0) return 2;
  return 1;
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

TextLines::TextLines(std::string_view text, Encoding encoding) : text_(text), encoding_(encoding) {
  starts_.push_back(0);
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
    if (text[i] == '\n' || text[i] == '\r') starts_.push_back(i + 1);
  }
}

std::size_t TextLines::line_end(std::size_t line) const {
  std::size_t end = line + 1 < starts_.size() ? starts_[line + 1] : text_.size();
  while (end > starts_[line] && (text_[end - 1] == '\n' || text_[end - 1] == '\r')) --end;
  return end;
}

LinePos TextLines::position(std::size_t offset) const {
  offset = std::min(offset, text_.size());
  auto it = std::upper_bound(starts_.begin(), starts_.end(), offset);
  auto line = static_cast<std::size_t>(it - starts_.begin() - 1);
  std::size_t end = std::min(offset, line_end(line));
  std::uint32_t character = 0;
  for (std::size_t i = starts_[line]; i < end;) {
    std::size_t n = std::min(sequence_size(static_cast<unsigned char>(text_[i])), end - i);
    character += encoding_ == Encoding::utf8 ? static_cast<std::uint32_t>(n) : (n == 4 ? 2 : 1);
    i += n;
  }
  return LinePos{static_cast<std::uint32_t>(line), character};
}

std::size_t TextLines::offset(LinePos pos) const {
  if (pos.line >= starts_.size()) return text_.size();
  std::size_t i = starts_[pos.line], end = line_end(pos.line);
  std::uint32_t character = 0;
  while (i < end && character < pos.character) {
    std::size_t n = std::min(sequence_size(static_cast<unsigned char>(text_[i])), end - i);
    std::uint32_t units = encoding_ == Encoding::utf8 ? static_cast<std::uint32_t>(n) : (n == 4 ? 2 : 1);
    if (character + units > pos.character) break;
    character += units;
    i += n;
  }
  return i;
}

std::optional<std::string> uri_path(std::string_view uri) {
  constexpr std::string_view kScheme = "file://";
  if (!ws::detail::istarts_with_ascii(uri, kScheme)) return std::nullopt;
  uri.remove_prefix(kScheme.size());
  std::size_t slash = uri.find('/');
  if (slash == std::string_view::npos) return std::nullopt;
  std::string_view host = uri.substr(0, slash);
  if (!host.empty() && !ws::detail::iequals_ascii(host, "localhost")) return std::nullopt;
  uri.remove_prefix(slash);
  if (std::size_t cut = uri.find_first_of("?#"); cut != std::string_view::npos) uri = uri.substr(0, cut);
  std::string out;
  for (std::size_t i = 0; i < uri.size(); ++i) {
    if (uri[i] != '%') {
      out += uri[i];
      continue;
    }
    if (i + 2 >= uri.size() || hex_value(uri[i + 1]) < 0 || hex_value(uri[i + 2]) < 0) return std::nullopt;
    out += static_cast<char>(hex_value(uri[i + 1]) * 16 + hex_value(uri[i + 2]));
    i += 2;
  }
  if (out.find('\0') != std::string::npos) return std::nullopt;
  return out;
}

std::string path_uri(std::string_view path) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out = "file://";
  for (char ch : path) {
    auto c = static_cast<unsigned char>(ch);
    bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
                 c == '_' || c == '~' || c == '/';
    if (plain) {
      out += ch;
      continue;
    }
    out += '%';
    out += kHex[c >> 4];
    out += kHex[c & 15];
  }
  return out;
}

}  // namespace detail

}  // namespace ws::lsp
