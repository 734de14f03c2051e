// RingOrders: a communicator's ring order per channel ("Channel 00/24 : 0 1 2 3", printed by
// rank 0). Channels mostly share a few orders (often one), so each distinct order is kept once, as
// the text NCCL printed, and a channel holds its index: a 1,024-rank communicator with 32
// channels and one order keeps 5 KB, not 160 KB, and a job with thousands of small communicators
// a few hundred bytes each.
#ifndef NCCLSCOPE_MODEL_RING_ORDERS_H_
#define NCCLSCOPE_MODEL_RING_ORDERS_H_

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ncclscope {

class RingOrders {
 public:
  /// Sets (or replaces) the order of `channel`: `ranks` is the list as printed (RingOrder::ranks),
  /// kept as text (DecodeRingRanks reads it); equal texts are one order.
  void Set(int channel, std::string_view ranks) {
    int id = -1;
    for (size_t i = 0; i < orders_.size() && id < 0; ++i) {
      if (orders_[i] == ranks) id = static_cast<int>(i);
    }
    if (id < 0) {
      id = static_cast<int>(orders_.size());
      orders_.emplace_back(ranks);
    }
    auto it = std::lower_bound(channels_.begin(), channels_.end(), std::make_pair(channel, -1));
    if (it != channels_.end() && it->first == channel) {
      it->second = id;
    } else {
      channels_.insert(it, {channel, id});
    }
  }
  /// The order of `channel` as printed, or nullptr if it printed none.
  const std::string* Find(int channel) const {
    auto it = std::lower_bound(channels_.begin(), channels_.end(), std::make_pair(channel, -1));
    if (it == channels_.end() || it->first != channel) return nullptr;
    return &orders_[static_cast<size_t>(it->second)];
  }
  /// Number of channels with an order.
  size_t size() const { return channels_.size(); }
  bool empty() const { return channels_.empty(); }
  /// Number of distinct orders.
  size_t distinct() const { return orders_.size(); }
  /// Calls f(channel, order text) for every channel with an order, by channel.
  template <typename F>
  void ForEach(F&& f) const {
    for (const auto& [channel, id] : channels_) f(channel, orders_[static_cast<size_t>(id)]);
  }

 private:
  std::vector<std::string> orders_;
  std::vector<std::pair<int, int>> channels_;  ///< (channel, index into orders_), by channel
};

}  // namespace ncclscope

#endif  // NCCLSCOPE_MODEL_RING_ORDERS_H_
