// NcclLocator: finds NCCL's own messages anywhere in a line, whatever a collector, launcher or
// copy-paste put in front of them. The anchor is the level word (`NCCL INFO`, `NCCL WARN`,
// `NCCL TRACE`, `NCCL CALL`, `NCCL ABORT`, 2.32's `NCCL ATTN`) or the version line (`NCCL version 2.x`); NCCL's head
// (`[timestamp] host:pid:tid [dev] [location]`) is then read backwards from it. Two messages glued
// on one line (a process's output cut into another's) are found as two spans.
//
// Cost: a line without an anchor costs one memchr-class scan for 'N'.
#ifndef NCCLSCOPE_PARSE_NCCL_LOCATOR_H_
#define NCCLSCOPE_PARSE_NCCL_LOCATOR_H_

#include <cstddef>
#include <string_view>

namespace ncclscope {

enum class AnchorKind : unsigned char { kLevel, kVersion };

/// One NCCL message inside a line: text[head, end) is the message with its head.
struct NcclSpan {
  size_t head = 0;    ///< Where NCCL's head starts (its `[timestamp] ` or host), or for a headless
                      ///< message the `[dev] ` before the anchor, or the anchor itself.
  size_t anchor = 0;  ///< Offset of "NCCL " of the anchor.
  size_t end = 0;     ///< End of the message: the start of the next glued head, or the line end.
  AnchorKind kind = AnchorKind::kLevel;
  bool headless = false;  ///< No `host:pid:tid` before the anchor.
};

/// Offset of the first anchor at or after `from` (npos if none); *kind says which.
size_t FindNcclAnchor(std::string_view text, size_t from, AnchorKind* kind);

/// Start of the `[timestamp] host:pid:tid ` head that ends right before text[anchor], for
/// anchors of kind kLevel (also across a WARN/TRACE location); npos if there is none.
size_t FindHeadBefore(std::string_view text, size_t anchor);

/// Where a headless message before `anchor` starts: its `[dev] ` (and WARN location), or the
/// anchor itself.
size_t HeadlessStart(std::string_view text, size_t anchor);

/// The first message at or after `from`. False if the text holds no anchor there.
bool LocateNcclMessage(std::string_view text, size_t from, NcclSpan* span);

/// Where the message whose body starts at `body` ends: the head of the next message glued onto
/// it (a full `host:pid:tid` head before another anchor), or text.size().
size_t GluedMessageEnd(std::string_view text, size_t body);

}  // namespace ncclscope

#endif  // NCCLSCOPE_PARSE_NCCL_LOCATOR_H_
