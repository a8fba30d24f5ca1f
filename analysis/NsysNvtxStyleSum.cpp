#include "analysis/NsysNvtxStyleSum.h"

#include <string>
#include <unordered_map>

#include "analysis/NsysStatsSupport.h"

namespace lanescope {
namespace {

using namespace nsysstats;

// The NVTX ranges of one style grouped by their printed label "<domain>:<name>" (nsys groups
// these two reports by that text); durations in ns.
StatsTable styleSum(const Report& report, TimeRange range, bool startEnd, const char* name) {
    Grouper grouper;
    std::unordered_map<std::string, uint64_t> keyOfLabel;
    std::unordered_map<uint64_t, uint64_t> keyOfId;  // (domain, name id) -> label key
    forEachEvent(report, EventKind::NvtxRange, range, [&](const Lane& lane, size_t i) {
        const NvtxInfo info = nvtxInfoOf(report, lane, i);
        if (info.start_end != startEnd) return;
        const uint32_t nameId = lane.events.name_id[i];
        const uint64_t id = (uint64_t{info.domain_name_id} << 32) | nameId;
        auto known = keyOfId.find(id);
        if (known == keyOfId.end())
            known =
                keyOfId
                    .emplace(id,
                             keyOfLabel.try_emplace(nvtxLabel(report, info, nameId), keyOfLabel.size()).first->second)
                    .first;
        grouper.at(known->second, [&] { return std::vector<std::string>{nvtxLabel(report, info, nameId)}; })
            .add(lane.events.durationNs(i));
    });
    return timeTable(name, "Instances", {"Range"}, grouper.groups());
}

}  // namespace

StatsTable nvtxPushPopSum(const Report& report, TimeRange range) {
    return styleSum(report, range, false, "nvtx_pushpop_sum");
}

StatsTable nvtxStartEndSum(const Report& report, TimeRange range) {
    return styleSum(report, range, true, "nvtx_startend_sum");
}

}  // namespace lanescope
