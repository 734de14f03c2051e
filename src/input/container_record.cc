// ContainerDecoder: CRI records by hand, JSON records through JsonObjectReader. Only lines whose
// first byte could start a record ('{' or a digit) are looked at.
#include "ncclscope/input/container_record.h"

#include "json_object.h"
#include "prefix_internal.h"

namespace ncclscope {
namespace {

using input_internal::AppendUnescaped;
using input_internal::JsonMember;
using input_internal::JsonObjectReader;

enum class Field : unsigned char {
  kNone, kText, kTime, kStream, kPod, kHost, kPid, kKubernetes, kLogTag
};

/// What a top-level member of a log record means. The first text key found wins.
Field FieldOf(std::string_view key) {
  if (key == "log" || key == "message" || key == "msg" || key == "MESSAGE" || key == "line")
    return Field::kText;
  if (key == "time" || key == "@timestamp" || key == "timestamp" || key == "ts" ||
      key == "_SOURCE_REALTIME_TIMESTAMP")
    return Field::kTime;
  if (key == "stream") return Field::kStream;
  if (key == "pod" || key == "pod_name") return Field::kPod;
  if (key == "host" || key == "hostname" || key == "_HOSTNAME") return Field::kHost;
  if (key == "_PID") return Field::kPid;
  if (key == "kubernetes") return Field::kKubernetes;
  if (key == "logtag") return Field::kLogTag;  // Fluent Bit's CRI parser: "F" or "P"
  return Field::kNone;
}

/// A short field unescaped into *fields; returns its (offset, size) there.
struct Span {
  size_t off = 0, size = 0;
  bool set = false;
};

bool AppendField(std::string_view raw, std::string* fields, Span* span) {
  span->off = fields->size();
  if (!AppendUnescaped(raw, fields)) return false;
  span->size = fields->size() - span->off;
  span->set = true;
  return true;
}

}  // namespace

bool DecodeCriRecord(std::string_view raw, ContainerRecord* rec) {
  // 2024-01-01T00:00:00.123456789Z stderr F text
  const size_t t = prefix_internal::Rfc3339Length(raw, 0);
  if (t == 0 || t + 9 > raw.size() || raw[t] != ' ') return false;
  const std::string_view stream = raw.substr(t + 1, 6);
  if (stream != "stdout" && stream != "stderr") return false;
  size_t k = t + 7;
  if (raw[k] != ' ') return false;
  const char tag = raw[k + 1];
  if (tag != 'F' && tag != 'P') return false;
  k += 2;
  if (k < raw.size()) {
    if (raw[k] != ' ') return false;
    ++k;
  }
  rec->format = RecordFormat::kCri;
  rec->time = raw.substr(0, t);
  rec->stream = stream;
  rec->text = raw.substr(k);
  rec->partial = tag == 'P';
  return true;
}

ContainerDecoder::Result ContainerDecoder::Decode(std::string_view raw, ContainerRecord* rec) {
  *rec = ContainerRecord{};
  if (raw.empty()) return Result::kPlain;
  const char c = raw.front();
  if (prefix_internal::IsDigit(c)) {
    return DecodeCriRecord(raw, rec) ? Result::kRecord : Result::kPlain;
  }
  if (c != '{') return Result::kPlain;
  JsonObjectReader reader(raw);
  JsonMember m;
  std::string_view text_raw;
  bool have_text = false, text_is_log = false;
  Span time, stream, pod, host, pid, logtag;
  fields_.clear();
  bool bad = false;
  while (!bad && reader.Next(&m)) {
    const Field f = FieldOf(m.key);
    if (f == Field::kKubernetes && m.kind == JsonMember::Kind::kObject) {
      JsonObjectReader inner(m.raw);
      JsonMember im;
      while (inner.Next(&im)) {
        if (im.key == "pod_name" && im.kind == JsonMember::Kind::kString && !pod.set)
          bad = !AppendField(im.raw, &fields_, &pod);
        if (im.key == "host" && im.kind == JsonMember::Kind::kString && !host.set)
          bad = bad || !AppendField(im.raw, &fields_, &host);
      }
      continue;
    }
    if (m.kind != JsonMember::Kind::kString) {
      if (f == Field::kPid && m.kind == JsonMember::Kind::kNumber) bad = !AppendField(m.raw, &fields_, &pid);
      continue;
    }
    switch (f) {
      case Field::kText:
        if (!have_text) {
          text_raw = m.raw;
          have_text = true;
          text_is_log = m.key == "log";
        }
        break;
      case Field::kTime:
        if (!time.set) bad = !AppendField(m.raw, &fields_, &time);
        break;
      case Field::kStream:
        if (!stream.set) bad = !AppendField(m.raw, &fields_, &stream);
        break;
      case Field::kPod:
        if (!pod.set) bad = !AppendField(m.raw, &fields_, &pod);
        break;
      case Field::kHost:
        if (!host.set) bad = !AppendField(m.raw, &fields_, &host);
        break;
      case Field::kPid:
        if (!pid.set) bad = !AppendField(m.raw, &fields_, &pid);
        break;
      case Field::kLogTag:
        if (!logtag.set) bad = !AppendField(m.raw, &fields_, &logtag);
        break;
      default:
        break;
    }
  }
  if (bad || !reader.ok()) return Result::kMalformed;
  if (!have_text) return Result::kPlain;  // Valid JSON, but no log record: the line as it is.
  text_.clear();
  if (!AppendUnescaped(text_raw, &text_)) return Result::kMalformed;
  std::string_view text = text_;
  // docker json-file keeps the newline the program wrote; its absence marks a line split in parts.
  bool ends_in_newline = false;
  if (!text.empty() && text.back() == '\n') {
    text.remove_suffix(1);
    ends_in_newline = true;
    if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
  }
  rec->format = RecordFormat::kJson;
  rec->text = text;
  auto view = [&](const Span& s) {
    return s.set ? std::string_view(fields_).substr(s.off, s.size) : std::string_view();
  };
  rec->partial = logtag.set ? view(logtag) == "P"
                            : text_is_log && stream.set && time.set && !ends_in_newline;
  rec->time = view(time);
  rec->stream = view(stream);
  rec->pod = view(pod);
  rec->host = view(host);
  if (pid.set) {
    size_t k = 0;
    uint32_t v = 0;
    const std::string_view p = view(pid);
    if (prefix_internal::ParsePid(p, &k, &v) && k == p.size()) rec->pid = v;
  }
  return Result::kRecord;
}

}  // namespace ncclscope
