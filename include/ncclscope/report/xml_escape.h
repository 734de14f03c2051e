// Escaping for XML 1.0 and HTML text and attributes (JUnit, HTML, SVG writers).
#ifndef NCCLSCOPE_REPORT_XML_ESCAPE_H_
#define NCCLSCOPE_REPORT_XML_ESCAPE_H_

#include <string>
#include <string_view>

namespace ncclscope {

/// Text safe inside XML/HTML elements and quoted attributes: & < > " ' become entities,
/// control characters XML 1.0 forbids (below U+0020 except tab, LF, CR; U+FFFE, U+FFFF) and DEL are
/// dropped, and bytes that are not valid UTF-8 become U+FFFD.
std::string XmlEscape(std::string_view text);

/// Like XmlEscape, but tab, LF and CR also become character references, so an attribute value
/// keeps them (an XML parser normalises raw ones to spaces).
std::string XmlAttributeEscape(std::string_view text);

}  // namespace ncclscope

#endif  // NCCLSCOPE_REPORT_XML_ESCAPE_H_
