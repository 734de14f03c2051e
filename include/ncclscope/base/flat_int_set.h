// FlatIntSet: a set of ints kept as one sorted vector. For the small sets the model keeps per
// link (channels, connection indexes: up to 64 values, inserted mostly in increasing order) and
// per comm pointer (the memberships that hold it: nearly always one) it
// costs one growing allocation instead of a tree node per value, and lookups stay in one cache
// line or two.
#ifndef NCCLSCOPE_BASE_FLAT_INT_SET_H_
#define NCCLSCOPE_BASE_FLAT_INT_SET_H_

#include <algorithm>
#include <cstddef>
#include <initializer_list>
#include <vector>

namespace ncclscope {

class FlatIntSet {
 public:
  using const_iterator = std::vector<int>::const_iterator;

  FlatIntSet() = default;
  FlatIntSet(std::initializer_list<int> values) {
    for (int v : values) insert(v);
  }

  /// Adds `v`; false if it was there already.
  bool insert(int v) {
    if (values_.empty() || values_.back() < v) {  // the usual case: increasing values
      values_.push_back(v);
      return true;
    }
    auto it = std::lower_bound(values_.begin(), values_.end(), v);
    if (it != values_.end() && *it == v) return false;
    values_.insert(it, v);
    return true;
  }
  /// Removes `v`; false if it was not there.
  bool erase(int v) {
    auto it = std::lower_bound(values_.begin(), values_.end(), v);
    if (it == values_.end() || *it != v) return false;
    values_.erase(it);
    return true;
  }
  /// 1 if `v` is in the set, else 0 (as std::set::count).
  size_t count(int v) const {
    return std::binary_search(values_.begin(), values_.end(), v) ? 1 : 0;
  }
  bool empty() const { return values_.empty(); }
  size_t size() const { return values_.size(); }
  const_iterator begin() const { return values_.begin(); }
  const_iterator end() const { return values_.end(); }
  bool operator==(const FlatIntSet&) const = default;

 private:
  std::vector<int> values_;  // sorted, no duplicates
};

}  // namespace ncclscope

#endif  // NCCLSCOPE_BASE_FLAT_INT_SET_H_
