#include "banner_rank.h"

#include <charconv>

namespace ncclscope {

bool BannerRank::BareBannerOfRankZero(std::string_view version) {
  // "2.MINOR.PATCH": 2.22.3 moved the banner to an INFO line with NCCL's head.
  if (version.size() < 4 || version.substr(0, 2) != "2.") return false;
  int minor = -1;
  const char* begin = version.data() + 2;
  const auto [end, ec] = std::from_chars(begin, version.data() + version.size(), minor);
  return ec == std::errc() && end != begin && minor >= 0 && minor <= 21;
}

void BannerRank::Note(uint32_t source, int instance, const Event& event) {
  if (source >= sources_.size()) sources_.resize(source + 1);
  SourceState& s = sources_[source];
  if (instance >= 0) {
    if (s.candidate >= 0 && s.candidate == instance) rank_zero_.insert(instance);
    s.candidate = -1;
    s.run = instance == s.headed ? s.run + 1 : 1;
    s.headed = instance;
    return;
  }
  const auto* banner = std::get_if<NcclVersion>(&event.data);
  if (banner == nullptr || event.ctx.level != Level::kVersion || !event.ctx.host.empty()) return;
  s.candidate = s.run >= 2 && BareBannerOfRankZero(banner->version) ? s.headed : -1;
}

}  // namespace ncclscope
