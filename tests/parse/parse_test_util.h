// Helpers for the parser unit tests: parse one line held in a long-lived string.
#ifndef NCCLSCOPE_TESTS_PARSE_PARSE_TEST_UTIL_H_
#define NCCLSCOPE_TESTS_PARSE_PARSE_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "ncclscope/parse/line_parser.h"

namespace ncclscope::testing {

/// Owns the line text so the event's string_views stay valid for the test's duration.
struct Parsed {
  std::unique_ptr<std::string> text;
  Line line;
  Event event;
  ParseOutcome outcome = ParseOutcome::kNotNccl;
};

/// Parses `text` as line 7 of source 3 with a fresh LineParser.
inline Parsed ParseOne(std::string_view text) {
  Parsed p;
  p.text = std::make_unique<std::string>(text);
  p.line.text = *p.text;
  p.line.number = 7;
  p.line.source = 3;
  LineParser parser;
  p.outcome = parser.Parse(p.line, &p.event);
  return p;
}

/// Parses `text` and returns the alternative T, failing the test if the type differs.
template <typename T>
T ParseAs(std::string_view text) {
  Parsed p = ParseOne(text);
  EXPECT_EQ(p.outcome, ParseOutcome::kEvent) << text;
  const T* t = std::get_if<T>(&p.event.data);
  EXPECT_NE(t, nullptr) << text << " -> " << EventTypeName(p.event.data);
  // Views in the returned copy point into p.text; keep the string alive for the test by leaking
  // it into a static pool (tests are short-lived).
  static std::vector<std::unique_ptr<std::string>> pool;
  pool.push_back(std::move(p.text));
  return t ? *t : T{};
}

}  // namespace ncclscope::testing

#endif  // NCCLSCOPE_TESTS_PARSE_PARSE_TEST_UTIL_H_
