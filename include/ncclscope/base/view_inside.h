// ViewInside: whether a string_view's bytes lie within a memory area (a read buffer, a batch's
// text), the test of whether a view survives as long as the area does.
#ifndef NCCLSCOPE_BASE_VIEW_INSIDE_H_
#define NCCLSCOPE_BASE_VIEW_INSIDE_H_

#include <string_view>

namespace ncclscope {

inline bool ViewInside(std::string_view view, std::string_view area) {
  return view.data() >= area.data() && view.data() + view.size() <= area.data() + area.size();
}

}  // namespace ncclscope

#endif  // NCCLSCOPE_BASE_VIEW_INSIDE_H_
