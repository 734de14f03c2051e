// Container runtimes and log shippers that wrap every line in a record: CRI log files under
// /var/log/pods (`<RFC3339> stderr F <line>`, `P` for a partial line that continues in the next
// record), docker's json-file driver (`{"log":"...\n","stream":"stderr","time":"..."}`), and JSON
// exports of Loki, Elastic / Fluent Bit and journald (`message`, `msg`, `MESSAGE`, `log`, `line`).
// The decoder turns such a record back into the line that was logged, with the record's time,
// stream and (where the record says) pod, host and pid.
#ifndef NCCLSCOPE_INPUT_CONTAINER_RECORD_H_
#define NCCLSCOPE_INPUT_CONTAINER_RECORD_H_

#include <cstdint>
#include <string>
#include <string_view>

namespace ncclscope {

enum class RecordFormat : uint8_t { kPlain, kCri, kJson };

struct ContainerRecord {
  RecordFormat format = RecordFormat::kPlain;
  std::string_view text;    ///< The logged line(s) (JSON: unescaped, may hold '\n').
  std::string_view time;    ///< The record's timestamp, as written.
  std::string_view stream;  ///< "stdout" / "stderr" where the record says.
  std::string_view pod;     ///< JSON `kubernetes.pod_name`, `pod`, `pod_name`.
  std::string_view host;    ///< JSON `host`, `hostname`, `_HOSTNAME`.
  uint32_t pid = 0;         ///< journald JSON `_PID`.
  /// The line continues in the next record: CRI tag `P`, or a docker json-file `log` without its
  /// trailing newline (docker splits lines longer than 16 KiB).
  bool partial = false;
};

/// Decodes one physical line. Views in the record point into `raw` or into the decoder, and stay
/// valid until the next Decode().
class ContainerDecoder {
 public:
  enum class Result : uint8_t {
    kPlain,      ///< Not a record: use the line as it is.
    kRecord,     ///< *rec holds the decoded record.
    kMalformed,  ///< Looks like a JSON record but is not valid JSON: use the line as it is.
  };
  Result Decode(std::string_view raw, ContainerRecord* rec);

 private:
  std::string text_;    ///< Unescaped text of a JSON record.
  std::string fields_;  ///< Unescaped short fields (time, stream, pod, host), back to back.
};

/// Decodes a CRI log record. False if `raw` is not one.
bool DecodeCriRecord(std::string_view raw, ContainerRecord* rec);

}  // namespace ncclscope

#endif  // NCCLSCOPE_INPUT_CONTAINER_RECORD_H_
