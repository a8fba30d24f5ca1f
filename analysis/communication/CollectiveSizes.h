#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "analysis/communication/CollectiveInstances.h"
#include "analysis/ranks/Collectives.h"
#include "model/Report.h"

namespace lanescope {

// What a report records of one NCCL kernel's collective, beyond its kernel: read from PyTorch's
// collective args (on the kernel, or on the record_param_comms operator around its launch) or
// from NCCL's NVTX extended payload on the range around its launch (Nsight Systems).
struct CollectiveMeta {
    CollectiveOp op = CollectiveOp::Other;  // from the args' collective name; Other when not recorded
    std::string communicator;               // "" when not recorded
    int32_t ranks = -1;                     // -1 when not recorded
    int64_t size_bytes = -1;                // max(input, output) bytes; -1 when not recorded
    // NCCL's NVTX payload's "Message size [bytes]" (-1 when none): the buffer of one rank, so for
    // an all-gather or a reduce-scatter the size is it times the ranks (collectiveSize).
    int64_t message_bytes = -1;
};

// The size of a collective of op `op` whose meta is `meta`: size_bytes when recorded, else from
// message_bytes and the ranks; -1 when neither tells.
int64_t collectiveSize(const CollectiveMeta& meta, CollectiveOp op);

// One per collective of `collectives` (ncclCollectives(report)), in its order. `note` is set to
// one line saying why when no collective has a size.
std::vector<CollectiveMeta> collectiveMetas(const Report& report, const std::vector<Collective>& collectives,
                                            std::string& note);

// The ranks of a communicator whose creation the reports do not hold (metas[r]: report r's
// collectiveMetas; each report one rank of one job): the number of reports whose collectives name
// it, when two or more do.
void countRanksOfCommunicators(std::vector<std::vector<CollectiveMeta>>& metas);

// An NCCL communicator id as CollectiveMeta::communicator writes it: 16 lowercase hex digits.
std::string communicatorText(uint64_t id);

// Bytes of one element of PyTorch's dtype name ("Float" 4, "BFloat16" 2, ...); 0 when unknown.
int64_t pytorchDtypeBytes(std::string_view dtype);

}  // namespace lanescope
