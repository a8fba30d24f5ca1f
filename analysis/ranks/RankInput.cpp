#include "analysis/ranks/RankInput.h"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <utility>

#include "model/MpiRank.h"

namespace lanescope {

void CollectiveColumns::push_back(const Collective& c) {
    auto known = std::find(kind_names.begin(), kind_names.end(), c.kind);
    if (known == kind_names.end()) {
        if (kind_names.size() > UINT16_MAX) throw std::length_error("more than 65,535 collective kinds");
        known = kind_names.insert(kind_names.end(), c.kind);
    }
    kind.push_back(static_cast<uint16_t>(known - kind_names.begin()));
    gpu.push_back(c.gpu);
    start_ns.push_back(c.start_ns);
    end_ns.push_back(c.end_ns);
    block_start_ns.push_back(c.block_start_ns);
    ref.push_back(c.kernel);
}

CollectiveColumns toColumns(const std::vector<Collective>& list) {
    CollectiveColumns out;
    for (const Collective& c : list) out.push_back(c);
    return out;
}

namespace {

// What the comparison reads of a report's events: all of them, or one process's (process >= 0).
void readActivity(const Report& report, int32_t process, RankInput& in) {
    in.steps = findSteps(report, process);
    in.shares = gpuShares(report, process);
    in.nccl = toColumns(ncclCollectives(report, process));
    MpiActivity mpi = mpiActivity(report, process);
    in.mpi = toColumns(mpi.collectives);
    in.point_to_point = std::move(mpi.point_to_point);
}

RankInput fromFile(const Report& report) {
    RankInput in;
    in.file_name = report.meta.fileName();
    in.source_path = report.meta.source_path;
    in.start_utc_ns = report.meta.start_utc_ns;
    return in;
}

}  // namespace

RankInput extractRankInput(const Report& report) {
    RankInput in = fromFile(report);
    in.label = rankLabel(report);
    in.rank = rankOf(report);
    in.rank_from = rankSource(report);
    readActivity(report, -1, in);
    return in;
}

std::vector<int32_t> rankProcesses(const Report& report) {
    std::map<int32_t, int64_t> lowestDevice;  // process -> the lowest device id it ran work on
    for (const Lane& lane : report.lanes) {
        if (lane.kind != LaneKind::GpuStream || lane.process < 0 || lane.gpu < 0 ||
            size_t(lane.gpu) >= report.gpus.size() || lane.events.size() == 0)
            continue;
        const int64_t device = report.gpus[size_t(lane.gpu)].device_id;
        const auto [it, added] = lowestDevice.try_emplace(lane.process, device);
        if (!added) it->second = std::min(it->second, device);
    }
    if (lowestDevice.size() < 2) return {};
    std::vector<int32_t> out;
    for (const auto& entry : lowestDevice) out.push_back(entry.first);
    std::sort(out.begin(), out.end(), [&](int32_t a, int32_t b) {
        return std::pair(lowestDevice.at(a), report.processes[size_t(a)].pid) <
               std::pair(lowestDevice.at(b), report.processes[size_t(b)].pid);
    });
    return out;
}

std::vector<RankInput> extractRanksOf(const Report& report) {
    const std::vector<int32_t> processes = rankProcesses(report);
    if (processes.empty()) return {extractRankInput(report)};
    std::vector<RankInput> out;
    for (size_t k = 0; k < processes.size(); ++k) {
        const Process& p = report.processes[size_t(processes[k])];
        RankInput& in = out.emplace_back(fromFile(report));
        in.label = std::string(report.str(p.name_id)) + " [" + std::to_string(p.pid) + "]";
        in.rank = int(k);
        in.rank_from = "process";
        readActivity(report, processes[k], in);
    }
    return out;
}

}  // namespace lanescope
