#include "compile_record.h"

#include <algorithm>

namespace ws::compile_detail {

namespace {

class Writer {
 public:
  void u8(std::uint8_t v) { out_.push_back(static_cast<char>(v)); }
  void num(std::uint32_t v) {
    do {
      std::uint8_t b = v & 0x7f;
      v >>= 7;
      out_.push_back(static_cast<char>(v ? b | 0x80 : b));
    } while (v);
  }
  void str(std::string_view s) {
    num(static_cast<std::uint32_t>(s.size()));
    out_.append(s);
  }
  void span(const Span& s) {
    for (std::uint32_t v : {s.start_byte, s.end_byte, s.start.line, s.start.column, s.end.line, s.end.column})
      num(v);
  }
  std::string take() { return std::move(out_); }

 private:
  std::string out_;
};

}  // namespace

std::string encode_record(const Definition& d) {
  Writer members, refs, diags;
  for (const auto& m : d.members) {
    members.str(m.name);
    members.span(m.span);
  }
  for (const auto& r : d.refs) {
    refs.str(r.target_kind);
    refs.str(r.name);
    refs.str(r.member);
    refs.span(r.span);
    refs.u8(r.origin == RefOrigin::json ? 1 : 0);
  }
  for (const auto& diag : d.diagnostics) {
    diags.u8(static_cast<std::uint8_t>(diag.code));
    diags.u8(static_cast<std::uint8_t>(diag.severity));
    diags.u8(diag.has_span ? 1 : 0);
    diags.span(diag.span);
    diags.str(diag.message);
    diags.num(static_cast<std::uint32_t>(diag.notes.size()));
    for (const auto& n : diag.notes) {
      if (n.path.empty()) diags.u8(0);
      else if (n.path == d.path) diags.u8(1);
      else {
        diags.u8(2);
        diags.str(n.path);
      }
      diags.u8(n.has_span ? 1 : 0);
      diags.span(n.span);
      diags.str(n.message);
    }
  }
  Writer w;
  w.u8((d.has_name ? 1 : 0) | (d.partly_read ? 2 : 0));
  w.str(d.has_name ? d.name : std::string());
  w.span(d.name_span);
  w.str(members.take());
  w.str(refs.take());
  w.str(diags.take());
  return w.take();
}

std::string_view ByteArena::store(std::string_view bytes) {
  std::lock_guard lock(mu_);
  if (bytes.size() > kChunk / 4) {  // a big one gets a chunk of its own, before the current one
    auto own = std::make_unique<char[]>(bytes.size());
    std::copy(bytes.begin(), bytes.end(), own.get());
    std::string_view view(own.get(), bytes.size());
    chunks_.insert(chunks_.end() - (chunks_.empty() ? 0 : 1), std::move(own));
    return view;
  }
  if (kChunk - used_ < bytes.size()) {
    chunks_.push_back(std::unique_ptr<char[]>(new char[kChunk]));
    used_ = 0;
  }
  char* at = chunks_.back().get() + used_;
  std::copy(bytes.begin(), bytes.end(), at);
  used_ += bytes.size();
  return {at, bytes.size()};
}

RecordView::RecordView(std::string_view bytes) {
  Cursor c(bytes);
  c.u8();
  std::string_view name = c.str();
  c.span();
  for (int i = 0; i < 3; ++i) c.str();
  if (c.ok() && c.at_end()) {
    bytes_ = bytes;
    name_ = name;
  }
}

Span RecordView::name_span() const {
  if (!valid()) return {};
  Cursor c(bytes_);
  c.u8();
  c.str();
  return c.span();
}

std::string_view RecordView::section(int index) const {
  if (!valid()) return {};
  Cursor c(bytes_);
  c.u8();
  c.str();
  c.span();
  for (int i = 0; i < index; ++i) c.str();
  return c.str();
}

bool RecordView::has_member(std::string_view name) const {
  bool found = false;
  for_each_member([&](const MemberView& m) { found = found || m.name == name; });
  return found;
}

std::vector<Diagnostic> RecordView::diagnostics(const std::string& path) const {
  std::vector<Diagnostic> out;
  Cursor c(section(2));
  const std::size_t codes = all_diagnostics().size();
  while (!c.at_end() && c.ok()) {
    std::uint8_t code = c.u8();
    std::uint8_t severity = c.u8();
    Diagnostic d;
    d.path = path;
    d.has_span = c.u8() != 0;
    d.span = c.span();
    d.message = std::string(c.str());
    std::uint32_t notes = c.num();
    for (std::uint32_t i = 0; i < notes && c.ok(); ++i) {
      Note n;
      std::uint8_t where = c.u8();
      if (where == 1) n.path = path;
      else if (where == 2) n.path = std::string(c.str());
      n.has_span = c.u8() != 0;
      n.span = c.span();
      n.message = std::string(c.str());
      d.notes.push_back(std::move(n));
    }
    if (!c.ok()) break;
    // A code or severity this version does not know is damage, not a finding.
    if (code == 0 || code > codes || severity > static_cast<std::uint8_t>(Severity::error)) continue;
    d.code = static_cast<DiagCode>(code);
    d.severity = static_cast<Severity>(severity);
    out.push_back(std::move(d));
  }
  return out;
}

Definition RecordView::decode(std::string path, std::string kind) const {
  Definition d;
  d.path = std::move(path);
  d.kind = std::move(kind);
  d.has_name = has_name();
  d.partly_read = partly_read();
  d.name = std::string(name());
  d.name_span = name_span();
  for_each_member([&](const MemberView& m) { d.members.push_back(Member{std::string(m.name), m.span}); });
  for_each_ref([&](const RefView& r) {
    d.refs.push_back(Reference{std::string(r.target_kind), std::string(r.name), std::string(r.member), r.span,
                               r.origin, std::string()});
  });
  d.diagnostics = diagnostics(d.path);
  return d;
}

}  // namespace ws::compile_detail
