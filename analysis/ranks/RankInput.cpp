#include "analysis/ranks/RankInput.h"

#include <algorithm>
#include <stdexcept>

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

RankInput extractRankInput(const Report& report) {
    RankInput in;
    in.file_name = report.meta.fileName();
    in.source_path = report.meta.source_path;
    in.label = rankLabel(report);
    in.rank = rankOf(report);
    in.rank_from = rankSource(report);
    in.start_utc_ns = report.meta.start_utc_ns;
    in.steps = findSteps(report);
    in.shares = gpuShares(report);
    in.nccl = toColumns(ncclCollectives(report));
    MpiActivity mpi = mpiActivity(report);
    in.mpi = toColumns(mpi.collectives);
    in.point_to_point = std::move(mpi.point_to_point);
    return in;
}

}  // namespace lanescope
