// XmlEscape / XmlAttributeEscape: markup characters, forbidden controls, invalid UTF-8.
#include "ncclscope/report/xml_escape.h"

#include <gtest/gtest.h>

#include "report/xml_checker.h"

namespace ncclscope {
namespace {

TEST(XmlEscape, MarkupCharactersAndQuotesBecomeEntities) {
  EXPECT_EQ(XmlEscape("<a href=\"x\">'&'</a>"),
            "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
}

TEST(XmlEscape, ForbiddenControlCharactersAreDroppedTabAndNewlineKept) {
  EXPECT_EQ(XmlEscape(std::string("a\x01\x1b[31mb\x7f\tc\nd\0e", 15)), "a[31mb\tc\nde");
}

TEST(XmlEscape, InvalidUtf8BecomesReplacementCharacter) {
  EXPECT_EQ(XmlEscape("ok\xff\xc3("), "ok\xEF\xBF\xBD\xEF\xBF\xBD(");
  EXPECT_EQ(XmlEscape("\xed\xa0\x80"), "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");  // surrogate
}

TEST(XmlEscape, ValidMultibyteUtf8IsKeptAndNoncharacterFffeIsDropped) {
  EXPECT_EQ(XmlEscape("GPU × 4 — 😀"), "GPU × 4 — 😀");
  EXPECT_EQ(XmlEscape("a\xEF\xBF\xBE"
                      "b"),
            "ab");
}

TEST(XmlAttributeEscape, LineBreaksAndTabsBecomeCharacterReferences) {
  EXPECT_EQ(XmlAttributeEscape("a\nb\tc\r"), "a&#10;b&#9;c&#13;");
}

TEST(XmlChecker, RejectsUnbalancedAndUnescapedDocuments) {
  using testing::XmlProblem;
  EXPECT_EQ(XmlProblem("<a x=\"1\"><b/>t &amp; &#10;</a>"), "");
  EXPECT_NE(XmlProblem("<a><b></a>"), "");
  EXPECT_NE(XmlProblem("<a>x & y</a>"), "");
  EXPECT_NE(XmlProblem("<a x=\"<\"/>"), "");
  EXPECT_NE(XmlProblem("<a></a><b/>"), "");
}

}  // namespace
}  // namespace ncclscope
