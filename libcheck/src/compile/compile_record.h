// The compact form of one read definition: what the compile needs of it
// (name, members, references, per-file diagnostics), without its path, so it
// is a pure function of the file's bytes, its kind and the tool version and
// can be cached by blob id. The build reads every definition in this form,
// in place, whether it was just parsed or came from the cache, so 100,000
// cached definitions cost their bytes (a few hundred each) and no more.
//
// Layout (num = unsigned LEB128, at most 5 bytes; str = num length + bytes;
// span = 6 nums: start byte, end byte, start line, start column, end line,
// end column):
//   u8 flags (bit 0: has_name, bit 1: partly_read) · str name · span name_span
//   str members section: per member, str name · span
//   str references section: per reference,
//       str target_kind · str name · str member · span · u8 origin (0 code, 1 json)
//   str diagnostics section: per diagnostic,
//       u8 code · u8 severity · u8 has_span · span · str message · num note count,
//       per note: u8 where (0 no path, 1 this file, 2 a path follows) [str path]
//                 · u8 has_span · span · str message
// A reference's text is not kept: nothing in the compile needs it.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "libcheck/definition.h"
#include "libcheck/diagnostic.h"

namespace ws::compile_detail {

std::string encode_record(const Definition& d);

// Where records live for a build: bytes appended to large chunks, each copy
// returning a view that stays valid as long as the arena. Thread-safe. Why
// not one std::string per record: parser threads would interleave 100,000
// small long-lived allocations with their garbage, and the heap could not
// shrink back (a cold build of 100,000 definitions peaked near 300 MB).
class ByteArena {
 public:
  std::string_view store(std::string_view bytes);

 private:
  static constexpr std::size_t kChunk = 1 << 20;
  std::mutex mu_;
  std::vector<std::unique_ptr<char[]>> chunks_;
  std::size_t used_ = kChunk;  // of the last chunk; full until the first store
};

// Bounds-checked reads over a byte range: past the end, or on a length that
// does not fit, `ok` turns false and every later read yields zeros.
class Cursor {
 public:
  Cursor() = default;
  explicit Cursor(std::string_view bytes) : p_(bytes.data()), end_(bytes.data() + bytes.size()) {}
  // The reads a build makes for every reference of every definition are
  // defined inline below: called out of line they were a seventh of a warm
  // build at 10,000 definitions.
  std::uint8_t u8();
  std::uint32_t u32();   // fixed 4 bytes, little-endian
  std::uint64_t u64();   // fixed 8 bytes, little-endian
  std::uint32_t num();   // LEB128
  std::string_view str();
  std::string_view bytes(std::size_t n);
  Span span();
  void skip_span();  // as span(), without building one
  bool ok() const { return ok_; }
  bool at_end() const { return p_ == end_; }
  std::size_t remaining() const { return static_cast<std::size_t>(end_ - p_); }

 private:
  const char* p_ = nullptr;
  const char* end_ = nullptr;
  bool ok_ = true;
};

inline std::uint8_t Cursor::u8() {
  if (!ok_ || end_ == p_) {
    ok_ = false;
    return 0;
  }
  return static_cast<std::uint8_t>(*p_++);
}

inline std::uint32_t Cursor::u32() {
  if (!ok_ || end_ - p_ < 4) {
    ok_ = false;
    return 0;
  }
  std::uint32_t v;
  std::memcpy(&v, p_, 4);
  if constexpr (std::endian::native == std::endian::big) v = __builtin_bswap32(v);
  p_ += 4;
  return v;
}

inline std::uint64_t Cursor::u64() {
  std::uint64_t lo = u32();
  std::uint64_t hi = u32();
  return lo | (hi << 32);
}

inline std::uint32_t Cursor::num() {
  std::uint64_t v = 0;
  for (int shift = 0; shift < 35; shift += 7) {
    std::uint8_t b = u8();
    if (!ok_) return 0;
    v |= std::uint64_t(b & 0x7f) << shift;
    if (!(b & 0x80)) {
      if (v > 0xffffffffULL) break;
      return static_cast<std::uint32_t>(v);
    }
  }
  ok_ = false;  // longer than five bytes, or over 32 bits
  return 0;
}

inline std::string_view Cursor::bytes(std::size_t n) {
  if (!ok_ || static_cast<std::size_t>(end_ - p_) < n) {
    ok_ = false;
    return {};
  }
  std::string_view s(p_, n);
  p_ += n;
  return s;
}

inline std::string_view Cursor::str() { return bytes(num()); }

inline Span Cursor::span() {
  Span s;
  s.start_byte = num();
  s.end_byte = num();
  s.start.line = num();
  s.start.column = num();
  s.end.line = num();
  s.end.column = num();
  return s;
}

inline void Cursor::skip_span() {
  for (int i = 0; i < 6; ++i) num();
}

struct MemberView {
  std::string_view name;
  Span span;
};

struct RefView {
  std::string_view target_kind;
  std::string_view name;
  std::string_view member;
  Span span;
  RefOrigin origin = RefOrigin::code;
};

// A record, read in place. Holds the bytes and the name (the build keeps one
// per definition of the workspace and asks every one its name); every other
// accessor decodes what it needs.
class RecordView {
 public:
  RecordView() = default;
  // Checks the record's frame (flags, name, span, three sections, nothing
  // after); a record that does not fit is invalid and reads as empty.
  explicit RecordView(std::string_view bytes);

  bool valid() const { return !bytes_.empty(); }
  // The record's bytes (empty when invalid).
  std::string_view bytes() const { return bytes_; }
  bool has_name() const { return valid() && (static_cast<unsigned char>(bytes_[0]) & 1) != 0; }
  bool partly_read() const { return valid() && (static_cast<unsigned char>(bytes_[0]) & 2) != 0; }
  std::string_view name() const { return name_; }
  Span name_span() const;

  template <class F>
  void for_each_member(F&& f) const {
    Cursor c(section(0));
    while (!c.at_end()) {
      MemberView m;
      m.name = c.str();
      m.span = c.span();
      if (!c.ok()) return;
      f(m);
    }
  }

  template <class F>
  void for_each_ref(F&& f) const {
    for_each_ref_if([](std::string_view) { return true; }, f);
  }
  // for_each_ref over the references whose name `wanted` accepts; the
  // others' positions are skipped, not decoded (the reverse direction of a
  // build asks this of every unchanged definition).
  template <class W, class F>
  void for_each_ref_if(W&& wanted, F&& f) const {
    Cursor c(section(1));
    while (!c.at_end()) {
      RefView r;
      r.target_kind = c.str();
      r.name = c.str();
      r.member = c.str();
      if (!c.ok()) return;
      if (!wanted(r.name)) {
        c.skip_span();
        c.u8();
        if (!c.ok()) return;
        continue;
      }
      r.span = c.span();
      r.origin = c.u8() == 1 ? RefOrigin::json : RefOrigin::code;
      if (!c.ok()) return;
      f(r);
    }
  }

  bool has_member(std::string_view name) const;
  bool has_diagnostics() const { return !section(2).empty(); }
  // The per-file diagnostics, placed at `path`.
  std::vector<Diagnostic> diagnostics(const std::string& path) const;
  // The whole definition again (for tests and callers that want owned data).
  Definition decode(std::string path, std::string kind) const;

 private:
  std::string_view section(int index) const;  // 0 members, 1 references, 2 diagnostics
  std::string_view bytes_;
  std::string_view name_;
};

}  // namespace ws::compile_detail
