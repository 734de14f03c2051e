// JsonMember: a member of a JSON object, or nullptr when the value is not an object or lacks
// the key (reading saved reports and kubectl JSON, whose fields may be absent).
#ifndef NCCLSCOPE_BASE_JSON_MEMBER_H_
#define NCCLSCOPE_BASE_JSON_MEMBER_H_

#include <nlohmann/json.hpp>
#include <string_view>

namespace ncclscope {

inline const nlohmann::json* JsonMember(const nlohmann::json& obj, std::string_view key) {
  if (!obj.is_object()) return nullptr;
  auto it = obj.find(key);
  return it == obj.end() ? nullptr : &*it;
}

}  // namespace ncclscope

#endif  // NCCLSCOPE_BASE_JSON_MEMBER_H_
