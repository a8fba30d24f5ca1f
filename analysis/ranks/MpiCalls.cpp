#include "analysis/ranks/MpiCalls.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <deque>
#include <unordered_map>

namespace lanescope {
namespace {

// The blocking collectives, without "MPI_"; their nonblocking forms are "MPI_I" + the name
// with its first letter in lower case (MPI_Iallreduce, MPI_Ireduce_scatter, ...).
constexpr std::array<std::string_view, 17> kCollectives = {
    "Allreduce", "Barrier",   "Bcast",     "Allgather", "Allgatherv", "Reduce_scatter", "Reduce_scatter_block",
    "Alltoall",  "Alltoallv", "Alltoallw", "Reduce",    "Gather",     "Gatherv",        "Scatter",
    "Scatterv",  "Scan",      "Exscan"};
constexpr std::array<std::string_view, 18> kPointToPoint = {
    "Send",   "Recv",   "Sendrecv", "Sendrecv_replace", "Ssend",  "Bsend",   "Rsend", "Isend", "Irecv", "Issend",
    "Ibsend", "Irsend", "Probe",    "Iprobe",           "Mprobe", "Improbe", "Mrecv", "Imrecv"};
constexpr std::array<std::string_view, 4> kWaits = {"Wait", "Waitall", "Waitany", "Waitsome"};

template <size_t N>
bool listed(const std::array<std::string_view, N>& list, std::string_view name) {
    return std::find(list.begin(), list.end(), name) != list.end();
}

}  // namespace

MpiCallClass classifyMpiCall(std::string_view name) {
    if (!name.starts_with("MPI_")) return MpiCallClass::Other;
    const std::string_view base = name.substr(4);
    if (listed(kCollectives, base)) return MpiCallClass::Collective;
    if (listed(kWaits, base)) return MpiCallClass::Wait;
    if (listed(kPointToPoint, base)) return MpiCallClass::PointToPoint;
    if (base.size() > 2 && base[0] == 'I' && std::islower(static_cast<unsigned char>(base[1]))) {
        std::string blocking(base.substr(1));
        blocking[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(blocking[0])));
        if (listed(kCollectives, blocking)) return MpiCallClass::NonblockingCollective;
    }
    return MpiCallClass::Other;
}

MpiActivity mpiActivity(const Report& report) {
    MpiActivity out;
    std::unordered_map<uint32_t, MpiCallClass> classOfName;  // call names repeat: classify each once
    for (uint32_t li = 0; li < report.lanes.size(); ++li) {
        const Lane& lane = report.lanes[li];
        if (lane.kind != LaneKind::Mpi) continue;
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
                    complete(i, ev.start_ns[i], ev.end_ns[i]);
                    break;
                case MpiCallClass::NonblockingCollective:
                    pending.push_back(i);
                    break;
                case MpiCallClass::Wait:
                    if (!pending.empty()) {
                        const bool all = report.str(ev.name_id[i]) == "MPI_Waitall";
                        do {
                            complete(pending.front(), ev.start_ns[i], ev.end_ns[i]);
                            pending.pop_front();
                        } while (all && !pending.empty());
                        break;
                    }
                    [[fallthrough]];  // a wait no collective claims: point-to-point
                case MpiCallClass::PointToPoint: {
                    PointToPointTimes& t = out.point_to_point[std::string(report.str(ev.name_id[i]))];
                    ++t.count;
                    t.blocked_ns += ev.end_ns[i] - ev.start_ns[i];
                    break;
                }
                case MpiCallClass::Other:
                    break;
            }
        }
        // Never waited for within the capture: it ends with its call and blocked nothing.
        for (uint32_t call : pending) complete(call, ev.end_ns[call], ev.end_ns[call]);
    }
    std::sort(out.collectives.begin(), out.collectives.end(), [](const Collective& a, const Collective& b) {
        return a.start_ns != b.start_ns ? a.start_ns < b.start_ns : a.end_ns < b.end_ns;
    });
    return out;
}

}  // namespace lanescope
