#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/Report.h"

namespace lanescope {

// Every NCCL collective of one report or of the ranks of one job: its operation, communicator,
// number of ranks, size, and how fast it moved its bytes (docs/analyses.md, "Communication").
// Sizes come from what the report records: NCCL's NVTX extended payloads (Nsight Systems), or
// PyTorch's collective args on the kernel or on the record_param_comms operator around its launch.

// The operations nccl-tests measures, and the factor from algbw to busbw of each.
enum class CollectiveOp : uint8_t { AllReduce, AllGather, ReduceScatter, Broadcast, Reduce, AllToAll, SendRecv, Other };
inline constexpr size_t kCollectiveOpCount = 8;
// "AllReduce", "AllGather", "ReduceScatter", "Broadcast", "Reduce", "AllToAll", "SendRecv", "Other".
std::string_view collectiveOpName(CollectiveOp op);
// The op of an NCCL kernel's collective kind (collectiveKind: "AllReduce", "Broadcast", "SendRecv",
// "Send", "Recv", ...) or of PyTorch's "Collective name" ("allreduce", "_allgather_base", ...).
CollectiveOp collectiveOpOf(std::string_view kind);
// busbw / algbw for `ranks` ranks, as nccl-tests defines it: 2(n-1)/n for AllReduce; (n-1)/n for
// AllGather, ReduceScatter and AllToAll; 1 for Broadcast, Reduce and SendRecv; NaN for Other or
// ranks < 1.
double busBandwidthFactor(CollectiveOp op, int ranks);

// One row per NCCL kernel per rank, as columns, sorted by (rank, start_ns, lane, event). Times
// in ns on the rank's own report timeline; bandwidths in GB/s (1e9 bytes a second).
struct CollectiveRows {
    std::vector<uint16_t> rank;  // the report's position among the inputs
    std::vector<CollectiveOp> op;
    std::vector<std::string> communicator;  // NCCL's communicator id as 16 hex digits, or PyTorch's
                                            // process group name; "" when not recorded
    std::vector<int32_t> ranks;             // ranks in the communicator; -1 when not recorded
    std::vector<int64_t> size_bytes;        // max(input, output) bytes as nccl-tests counts; -1 unknown
    std::vector<int64_t> start_ns, duration_ns;
    std::vector<double> algbw_gbps, busbw_gbps;  // NaN when the size or the ranks are unknown
    // The time this rank waited in this collective for the last rank to arrive (aligned kernel
    // starts): 0 for the last; -1 when the collective was not matched on every open rank.
    std::vector<int64_t> wait_ns;
    std::vector<int32_t> instance;      // index into CommunicationAnalysis::instances; -1 unmatched
    std::vector<uint32_t> lane, event;  // the kernel in its GPU stream lane of its report

    size_t size() const { return start_ns.size(); }
};

// One collective matched across all the ranks (several reports): the rows of its ranks.
struct CollectiveInstance {
    std::vector<uint32_t> rows;  // into CollectiveRows, in rank order
    int64_t skew_ns = 0;         // last aligned start minus first aligned start
    int32_t last_rank = -1;      // the rank that arrived last (ties: the lower rank)
};

// Per rank: its communication kernels' time, and how much of it overlapped compute on the same
// GPU (GpuShares: other kernels, memcpy and memset); its waits.
struct RankCommunication {
    int64_t comm_ns = 0;        // union of its NCCL kernels' time, per GPU, summed (GpuShares::communication_ns)
    int64_t overlapped_ns = 0;  // of comm_ns, the time compute ran on the same GPU (GpuShares::overlap_ns)
    int64_t wait_ns = 0;        // sum of its wait_ns over matched instances
    int32_t times_last = 0;     // matched instances where it arrived last
};

struct CommunicationAnalysis {
    CollectiveRows rows;
    std::vector<CollectiveInstance> instances;  // in the first rank's order of its collectives
    std::vector<RankCommunication> ranks;       // one per input report
    std::vector<int64_t> offsets_ns;            // per report, its alignment (as the Ranks panel aligns ranks)
    int32_t most_often_last = -1;               // the rank last in most instances; -1 with one rank
    // What could not be read, one line each ("rank 0: no collective sizes: ...").
    std::vector<std::string> notes;
};

// The collectives of `reports` (one report, or the ranks of one job in rank order, aligned by
// their NCCL collectives as the Ranks panel aligns them). O(n log n) in the reports' events;
// calls cancellationPoint() (analysis/Cancellation.h).
CommunicationAnalysis analyzeCommunication(const std::vector<const Report*>& reports);

// A row of the summary like nsys's nccl_sum recipe: per operation and power-of-two size bucket.
struct CollectiveSummaryRow {
    CollectiveOp op = CollectiveOp::Other;
    int64_t bucket_bytes = -1;  // the largest power of two <= size; -1 for rows without a size
    int64_t count = 0;
    int64_t total_ns = 0;
    double median_ns = 0, p90_ns = 0;  // of the durations; p90 by linear interpolation
    double median_busbw_gbps = 0;      // NaN when no row of the bucket has one
};
// Sorted by op (enum order), then bucket ascending (-1 first).
std::vector<CollectiveSummaryRow> summarizeCollectives(const CollectiveRows& rows);

// A table of text cells: a header and rows of as many cells.
struct CellTable {
    std::vector<std::string> header;
    std::vector<std::vector<std::string>> rows;
};
// The rows as ../shared/design/CLI.md defines `lanescope-cli nccl`: `Rank,Operation,Communicator,
// Ranks,Size (bytes),Start (ns),Duration (ns),AlgBW (GB/s),BusBW (GB/s),Wait (ns)`; a cell is
// empty where unknown; bandwidths with 3 decimals.
CellTable collectiveRowCells(const CommunicationAnalysis& analysis);
// `Operation,Size bucket (bytes),Count,Total (ns),Median (ns),P90 (ns),Median BusBW (GB/s)`.
CellTable collectiveSummaryCells(const std::vector<CollectiveSummaryRow>& rows);
// CSV, fields quoted as Python's csv module quotes them, "\n" line ends.
std::string cellTableCsv(const CellTable& table);
// JSON: "collectives" (the rows; null where unknown), "summary", "ranks" (comm_ns, overlapped_ns,
// overlap_pct, wait_ns, times_last), "instances" (skew_ns, last_rank), "most_often_last", "notes".
std::string communicationJson(const CommunicationAnalysis& analysis);

}  // namespace lanescope
