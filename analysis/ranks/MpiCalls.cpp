#include "analysis/ranks/MpiCalls.h"

#include <algorithm>
#include <deque>
#include <unordered_map>

namespace lanescope {
MpiActivity mpiActivity(const Report& report, int32_t process) {
    MpiActivity out;
    std::unordered_map<uint32_t, MpiCallClass> classOfName;  // call names repeat: classify each once
    for (uint32_t li = 0; li < report.lanes.size(); ++li) {
        const Lane& lane = report.lanes[li];
        if (lane.kind != LaneKind::Mpi || (process >= 0 && lane.process != process)) continue;
        const IntervalColumns& ev = lane.events;
        std::deque<uint32_t> pending;  // this thread's nonblocking collectives not yet waited for
        auto complete = [&](uint32_t call, int64_t blockStart, int64_t end) {
            out.collectives.push_back(
                {std::string(report.str(ev.name_id[call])), -1, ev.start_ns[call], end, blockStart, {li, call}});
        };
        for (uint32_t i = 0; i < ev.size(); ++i) {
            if (ev.kind[i] != EventKind::MpiCall) continue;
            auto known = classOfName.find(ev.name_id[i]);
            if (known == classOfName.end())
                known = classOfName.emplace(ev.name_id[i], classifyMpiCall(report.str(ev.name_id[i]))).first;
            switch (known->second) {
                case MpiCallClass::Collective:
                    complete(i, ev.start_ns[i], ev.endNs(i));
                    break;
                case MpiCallClass::NonblockingCollective:
                    pending.push_back(i);
                    break;
                case MpiCallClass::Wait:
                    if (!pending.empty()) {
                        const bool all = report.str(ev.name_id[i]) == "MPI_Waitall";
                        do {
                            complete(pending.front(), ev.start_ns[i], ev.endNs(i));
                            pending.pop_front();
                        } while (all && !pending.empty());
                        break;
                    }
                    [[fallthrough]];  // a wait no collective claims: point-to-point
                case MpiCallClass::PointToPoint: {
                    PointToPointTimes& t = out.point_to_point[std::string(report.str(ev.name_id[i]))];
                    ++t.count;
                    t.blocked_ns += ev.endNs(i) - ev.start_ns[i];
                    break;
                }
                case MpiCallClass::Other:
                    break;
            }
        }
        // Never waited for within the capture: it ends with its call and blocked nothing.
        for (uint32_t call : pending) complete(call, ev.endNs(call), ev.endNs(call));
    }
    std::sort(out.collectives.begin(), out.collectives.end(), [](const Collective& a, const Collective& b) {
        return a.start_ns != b.start_ns ? a.start_ns < b.start_ns : a.end_ns < b.end_ns;
    });
    return out;
}

}  // namespace lanescope
