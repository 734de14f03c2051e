// How the graphical writers (dot, mermaid, html) draw each transport class: one colour per class.
#ifndef NCCLSCOPE_REPORT_CLASS_STYLE_H_
#define NCCLSCOPE_REPORT_CLASS_STYLE_H_

#include <string_view>
#include <vector>

#include "ncclscope/model/transport_class.h"

namespace ncclscope {

/// "#rrggbb" colour of a class; distinct per class, readable on white.
std::string_view ClassColor(TransportClass c);
/// Every class, fastest first (legend order).
std::vector<TransportClass> AllTransportClasses();
/// Slower of two classes (the one with the lower speed rank).
TransportClass SlowerClass(TransportClass a, TransportClass b);

}  // namespace ncclscope

#endif  // NCCLSCOPE_REPORT_CLASS_STYLE_H_
