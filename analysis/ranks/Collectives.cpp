#include "analysis/ranks/Collectives.h"

#include <algorithm>
#include <unordered_map>

namespace lanescope {

std::string collectiveKind(std::string_view name) {
    // ncclDevKernel_<Kind>_... (NCCL 2.19+), ncclKernel_<Kind>_... and ncclDevKernel_<Kind>
    // with the kind last; PyTorch traces sometimes keep a "void " or namespace prefix.
    for (std::string_view prefix : {"ncclDevKernel_", "ncclKernel_"}) {
        const size_t at = name.find(prefix);
        if (at == std::string_view::npos) continue;
        std::string_view rest = name.substr(at + prefix.size());
        const size_t end = rest.find_first_of("_(<");
        rest = rest.substr(0, end);
        if (!rest.empty()) return std::string(rest);
    }
    return {};
}

std::vector<Collective> ncclCollectives(const Report& report, int32_t process) {
    std::vector<Collective> out;
    std::unordered_map<uint32_t, std::string> kindOfName;  // kernel names repeat: classify each once
    for (uint32_t li = 0; li < report.lanes.size(); ++li) {
        const Lane& lane = report.lanes[li];
        if (lane.kind != LaneKind::GpuStream || (process >= 0 && lane.process != process)) continue;
        const IntervalColumns& ev = lane.events;
        for (uint32_t i = 0; i < ev.size(); ++i) {
            if (ev.kind[i] != EventKind::Kernel) continue;
            const uint32_t name = ev.name_id[i];
            auto known = kindOfName.find(name);
            if (known == kindOfName.end()) known = kindOfName.emplace(name, collectiveKind(report.str(name))).first;
            if (known->second.empty()) continue;
            out.push_back({known->second, lane.gpu, ev.start_ns[i], ev.endNs(i), ev.start_ns[i], {li, i}});
        }
    }
    std::sort(out.begin(), out.end(), [](const Collective& a, const Collective& b) {
        return a.start_ns != b.start_ns ? a.start_ns < b.start_ns : a.end_ns < b.end_ns;
    });
    return out;
}

}  // namespace lanescope
