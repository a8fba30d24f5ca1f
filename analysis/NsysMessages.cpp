#include "analysis/NsysMessages.h"

#include <algorithm>

namespace lanescope {

bool reportHoldsGpuWork(const Report& report) {
    return std::any_of(report.lanes.begin(), report.lanes.end(), [](const Lane& l) {
        return (l.kind == LaneKind::GpuStream || l.kind == LaneKind::CudaSync) && l.events.size() > 0;
    });
}

std::vector<size_t> messagesExplainingNoGpuWork(const Report& report) {
    if (reportHoldsGpuWork(report)) return {};
    constexpr uint8_t kWarning = 2, kError = 3;
    std::vector<size_t> aboutGpu, specific;
    for (size_t i = 0; i < report.nsys_messages.size(); ++i) {
        const NsysMessage& m = report.nsys_messages[i];
        if (m.severity != kWarning && m.severity != kError) continue;
        for (const char* word : {"CUDA", "GPU", "CUPTI"})
            if (m.text.find(word) != std::string::npos) {
                aboutGpu.push_back(i);
                // "Not all CUDA events might have been collected." closes every capture: it says
                // nothing about this one unless nothing else does.
                if (!m.text.starts_with("Not all ")) specific.push_back(i);
                break;
            }
    }
    return specific.empty() ? aboutGpu : specific;
}

}  // namespace lanescope
