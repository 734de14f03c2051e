#include "ncclscope/report/json_stream.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

namespace ncclscope {
namespace {

using nlohmann::json;

std::string Dump(const json& j) { return j.dump(2, ' ', false, json::error_handler_t::replace); }

TEST(JsonStream, ObjectMatchesNlohmannDump) {
  std::string out;
  JsonStream js(&out);
  js.BeginObject();
  js.Key("a");
  js.Int(-3);
  js.Key("b");
  js.BeginArray();
  js.Int(1);
  js.Uint(18446744073709551615ull);
  js.EndArray();
  js.Key("c");
  js.BeginArray();
  js.EndArray();
  js.Key("d");
  js.BeginObject();
  js.EndObject();
  js.Key("e");
  js.Null();
  js.Key("f");
  js.Bool(true);
  js.Key("g");
  js.String("plain");
  js.EndObject();
  const json want = {{"a", -3},
                     {"b", {1, 18446744073709551615ull}},
                     {"c", json::array()},
                     {"d", json::object()},
                     {"e", nullptr},
                     {"f", true},
                     {"g", "plain"}};
  EXPECT_EQ(out, Dump(want));
}

TEST(JsonStream, StringsNeedingEscapesOrInvalidUtf8AreWrittenAsNlohmannWould) {
  for (std::string s :
       {std::string("quote \" back \\ tab \t nl \n"), std::string("ctl \x01\x1f"),
        std::string("utf8 \xc3\xa9"), std::string("bad \xff\xfe utf8"), std::string("del \x7f")}) {
    std::string out;
    JsonStream js(&out);
    js.String(s);
    EXPECT_EQ(out, json(s).dump(-1, ' ', false, json::error_handler_t::replace)) << s;
  }
}

// Strings are checked eight bytes at a time with a padded tail, and 32 at a time where the CPU
// has AVX2: every byte value is written as nlohmann would at every position of strings of 1 to
// 17 bytes (two words and a tail), and at the word and chunk edges of strings of 31 to 33, 63 to
// 65 and 70 bytes (one or two chunks and an overlapping last one); as a key at every position
// of strings of 1 to 9 bytes (the short keys' table and the first word).
TEST(JsonStream, EveryByteAtEveryPositionIsEscapedAsNlohmannWould) {
  auto check = [](size_t len, size_t pos, bool as_key) {
    for (int b = 0; b < 256; ++b) {
      std::string s(len, 'x');
      s[pos] = static_cast<char>(b);
      std::string out;
      JsonStream js(&out);
      if (as_key) {
        js.BeginObject();
        js.Key(s);
        js.Int(1);
        js.EndObject();
        ASSERT_EQ(out, Dump(json::object({{s, 1}})))
            << "key length " << len << " byte " << b << " at " << pos;
      } else {
        js.String(s);
        ASSERT_EQ(out, json(s).dump(-1, ' ', false, json::error_handler_t::replace))
            << "length " << len << " byte " << b << " at " << pos;
      }
    }
  };
  for (size_t len = 1; len <= 17; ++len) {
    for (size_t pos = 0; pos < len; ++pos) check(len, pos, false);
  }
  for (size_t len : {31, 32, 33, 63, 64, 65, 70}) {
    for (size_t pos : {0, 1, 7, 8, 15, 16, 30, 31, 32, 33, 38, 39, 62, 63, 64, 65, 69}) {
      if (pos < len) check(len, pos, false);
    }
    check(len, len - 1, false);
  }
  for (size_t len = 1; len <= 9; ++len) {
    for (size_t pos = 0; pos < len; ++pos) check(len, pos, true);
  }
}

TEST(JsonStream, DocumentValuesAreIndentedToTheirLevel) {
  const json inner = {{"x", {1, 2}}, {"y", {{"z", 0.5}}}};
  std::string out;
  JsonStream js(&out);
  js.BeginObject();
  js.Key("inner");
  js.Value(inner);
  js.Key("list");
  js.BeginArray();
  js.Value(inner);
  js.Value(json::array());
  js.EndArray();
  js.EndObject();
  EXPECT_EQ(out, Dump(json{{"inner", inner}, {"list", {inner, json::array()}}}));
}

TEST(JsonStream, LargeDocumentValueGoesThroughTheSinkInPieces) {
  // A root cause's fallout or a watchdog table of thousands of ranks: written member by member,
  // so the buffer is flushed as containers close instead of holding the value's whole text.
  json rows = json::array();
  for (int r = 0; r < 20000; ++r) {
    rows.push_back({{"rank", r}, {"what", "timed out in SeqNum 7 ALLREDUCE"}, {"suspect", r == 7}});
  }
  std::string buffer;
  std::ostringstream sink;
  JsonStream js(&buffer);
  js.set_sink(&sink);
  js.BeginObject();
  js.Key("rows");
  js.Value(rows);
  EXPECT_LT(buffer.size(), 2 * JsonStream::kFlushBytes);
  EXPECT_GT(sink.str().size(), 10 * JsonStream::kFlushBytes);
  js.EndObject();
  js.Flush();
  EXPECT_EQ(sink.str(), Dump(json{{"rows", rows}}));
}

}  // namespace
}  // namespace ncclscope
