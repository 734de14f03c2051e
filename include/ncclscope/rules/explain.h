// `ncclscope explain TEXT|RULE`: what a pasted NCCL message means, its likely causes in order
// and the fix, or what a rule reads, offline, from the knowledge table the rules use.
#ifndef NCCLSCOPE_RULES_EXPLAIN_H_
#define NCCLSCOPE_RULES_EXPLAIN_H_

#include <string>
#include <string_view>
#include <vector>

#include "ncclscope/rules/knowledge.h"
#include "ncclscope/rules/rule.h"

namespace ncclscope {

struct Explanation {
  enum class Kind : uint8_t {
    kMessage,  ///< The text holds a known message.
    kRule,     ///< The text is a rule id.
    kUnknown,  ///< Neither: `suggestions` holds the closest known messages.
  };
  Kind kind = Kind::kUnknown;
  std::string input;                 ///< The text as given (trimmed).
  const KnownMessage* message = nullptr;
  MessageDetails details;            ///< What the pasted line names (kMessage).
  const Rule* rule = nullptr;        ///< The rule id given, or the rule reporting the message.
  std::vector<const KnownMessage*> rule_messages;  ///< kRule: the messages the rule reads.
  std::vector<const KnownMessage*> suggestions;    ///< kUnknown: closest known messages.
};

/// Explains one text: a rule id, else the best-matching known message (any prefix around it is
/// fine: kubectl, timestamps, host:pid:tid, PyTorch), else the closest known messages.
Explanation Explain(std::string_view text);

/// Every known message found in a multi-line paste (one per distinct entry, in order of first
/// appearance); when none is found, one kUnknown explanation of the whole text.
std::vector<Explanation> ExplainPaste(std::string_view paste);

/// Plain text for a terminal.
std::string RenderExplanationText(const Explanation& e);
/// One JSON object (newline-terminated); several are rendered as a JSON array by the caller.
std::string RenderExplanationJson(const std::vector<Explanation>& explanations);

}  // namespace ncclscope

#endif  // NCCLSCOPE_RULES_EXPLAIN_H_
