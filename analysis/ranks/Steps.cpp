#include "analysis/ranks/Steps.h"

#include <algorithm>
#include <cctype>
#include <unordered_map>

namespace lanescope {

int64_t stepNumber(std::string_view name) {
    auto startsWithIgnoringCase = [&name](std::string_view prefix) {
        if (name.size() < prefix.size()) return false;
        for (size_t i = 0; i < prefix.size(); ++i)
            if (std::tolower(static_cast<unsigned char>(name[i])) != prefix[i]) return false;
        return true;
    };
    if (startsWithIgnoringCase("profilerstep"))
        name.remove_prefix(12);
    else if (startsWithIgnoringCase("step"))
        name.remove_prefix(4);
    else
        return -1;
    while (!name.empty() && std::string_view(" #_:-").find(name.front()) != std::string_view::npos)
        name.remove_prefix(1);
    if (name.empty() || name.size() > 18) return -1;
    int64_t number = 0;
    for (char c : name) {
        if (c < '0' || c > '9') return -1;
        number = number * 10 + (c - '0');
    }
    return number;
}

std::vector<StepRange> findSteps(const Report& report, int32_t process) {
    std::unordered_map<uint32_t, int64_t> numberOfName;  // names repeat: parse each once
    std::vector<StepRange> best;
    for (uint32_t li = 0; li < report.lanes.size(); ++li) {
        const Lane& lane = report.lanes[li];
        if (lane.kind != LaneKind::Nvtx && lane.kind != LaneKind::NvtxStartEnd) continue;
        if (process >= 0 && lane.process != process) continue;
        const IntervalColumns& ev = lane.events;
        std::vector<StepRange> steps;
        uint8_t outermost = UINT8_MAX;
        for (uint32_t i = 0; i < ev.size(); ++i) {
            auto known = numberOfName.find(ev.name_id[i]);
            if (known == numberOfName.end())
                known = numberOfName.emplace(ev.name_id[i], stepNumber(report.str(ev.name_id[i]))).first;
            if (known->second < 0 || ev.depth[i] > outermost) continue;
            if (ev.depth[i] < outermost) {
                outermost = ev.depth[i];
                steps.clear();
            }
            steps.push_back({known->second, ev.start_ns[i], ev.endNs(i), {li, i}});
        }
        if (steps.size() > best.size()) best = std::move(steps);
    }
    return best;  // lane order is start order
}

}  // namespace lanescope
