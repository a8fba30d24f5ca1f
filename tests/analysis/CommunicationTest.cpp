// The communication analysis (docs/analyses.md, "Communication"): sizes, bandwidths, waits,
// overlap and the summary, on the hand-cut traces of tests/data/communication (their numbers
// worked out by hand in its README) and on the corpus's two-rank DDP job, whose sizes follow
// from the model of workloads/train.py.
#include <catch2/catch.hpp>
#include <cmath>
#include <memory>
#include <numeric>
#include <vector>

#include "TestPaths.h"
#include "analysis/communication/CollectiveInstances.h"
#include "analysis/communication/CollectiveSizes.h"
#include "importers/ImportHelpers.h"

using namespace lanescope;

namespace {

CommunicationAnalysis analyzeFiles(const std::vector<std::string>& relatives,
                                   std::vector<std::unique_ptr<Report>>& owned) {
    for (const std::string& relative : relatives) owned.push_back(test::importOk(test::dataFile(relative)));
    return analyzeCommunication(test::rawReports(owned));
}

}  // namespace

TEST_CASE("busbw factors are nccl-tests' definitions", "[communication]") {
    CHECK(busBandwidthFactor(CollectiveOp::AllReduce, 8) == Approx(2.0 * 7 / 8));
    CHECK(busBandwidthFactor(CollectiveOp::AllGather, 8) == Approx(7.0 / 8));
    CHECK(busBandwidthFactor(CollectiveOp::ReduceScatter, 4) == Approx(3.0 / 4));
    CHECK(busBandwidthFactor(CollectiveOp::AllToAll, 2) == Approx(0.5));
    CHECK(busBandwidthFactor(CollectiveOp::Broadcast, 8) == 1.0);
    CHECK(busBandwidthFactor(CollectiveOp::Reduce, 8) == 1.0);
    CHECK(busBandwidthFactor(CollectiveOp::SendRecv, 2) == 1.0);
    CHECK(std::isnan(busBandwidthFactor(CollectiveOp::AllReduce, -1)));
    CHECK(std::isnan(busBandwidthFactor(CollectiveOp::Other, 8)));
    CHECK(collectiveOpOf("AllReduce") == CollectiveOp::AllReduce);
    CHECK(collectiveOpOf("_allgather_base") == CollectiveOp::AllGather);
    CHECK(collectiveOpOf("reduce_scatter_tensor_coalesced") == CollectiveOp::ReduceScatter);
    CHECK(collectiveOpOf("all_to_all") == CollectiveOp::AllToAll);
    CHECK(collectiveOpOf("reduce") == CollectiveOp::Reduce);
    CHECK(collectiveOpOf("Send") == CollectiveOp::SendRecv);
    CHECK(collectiveOpOf("barrier") == CollectiveOp::Other);
}

TEST_CASE("hand-cut traces: sizes from kernel args or record_param_comms, bandwidths, overlap", "[communication]") {
    const std::string file = GENERATE(std::string("communication/kernel_args.pt.trace.json"),
                                      std::string("communication/record_param_comms_only.pt.trace.json"));
    CAPTURE(file);
    std::vector<std::unique_ptr<Report>> owned;
    const CommunicationAnalysis a = analyzeFiles({file}, owned);
    const CollectiveRows& r = a.rows;
    REQUIRE(r.size() == 2);
    CHECK(a.notes.empty());
    // The all-gather: 2,097,152 BFloat16 out = 4,194,304 bytes in 100 us.
    CHECK(r.op[0] == CollectiveOp::AllGather);
    CHECK(r.communicator[0] == "0");
    CHECK(r.ranks[0] == 2);
    CHECK(r.size_bytes[0] == 4194304);
    CHECK(r.duration_ns[0] == 100000);
    CHECK(r.algbw_gbps[0] == Approx(41.94304));
    CHECK(r.busbw_gbps[0] == Approx(20.97152));
    CHECK(r.wait_ns[0] == -1);  // one report: no wait
    // The all-reduce: 262,144 Float = 1,048,576 bytes in 50 us, busbw x 2(n-1)/n = 1.
    CHECK(r.op[1] == CollectiveOp::AllReduce);
    CHECK(r.size_bytes[1] == 1048576);
    CHECK(r.algbw_gbps[1] == Approx(20.97152));
    CHECK(r.busbw_gbps[1] == Approx(20.97152));
    // Half of the all-gather overlaps the gemm on another stream; none of the all-reduce.
    REQUIRE(a.ranks.size() == 1);
    CHECK(a.ranks[0].comm_ns == 150000);
    CHECK(a.ranks[0].overlapped_ns == 50000);
    // The CSV as CLI.md defines it.
    const std::string csv = cellTableCsv(collectiveRowCells(a));
    CHECK(csv.rfind("Rank,Operation,Communicator,Ranks,Size (bytes),Start (ns),Duration (ns),AlgBW (GB/s),"
                    "BusBW (GB/s),Wait (ns)\n0,AllGather,0,2,4194304,",
                    0) == 0);
    CHECK(csv.find(",100000,41.943,20.972,\n") != std::string::npos);
}

TEST_CASE("the summary: per operation and power-of-two bucket, median and p90", "[communication]") {
    CollectiveRows rows;
    auto add = [&](CollectiveOp op, int64_t size, int64_t duration, double busbw) {
        rows.rank.push_back(0);
        rows.op.push_back(op);
        rows.communicator.emplace_back();
        rows.ranks.push_back(2);
        rows.size_bytes.push_back(size);
        rows.start_ns.push_back(0);
        rows.duration_ns.push_back(duration);
        rows.algbw_gbps.push_back(busbw);
        rows.busbw_gbps.push_back(busbw);
        rows.wait_ns.push_back(-1);
        rows.instance.push_back(-1);
        rows.lane.push_back(0);
        rows.event.push_back(0);
    };
    // A size's bucket is the largest power of two at or below it.
    add(CollectiveOp::AllReduce, 1000, 10, 1.0);  // bucket 512
    add(CollectiveOp::AllReduce, 1023, 20, 2.0);  // bucket 512
    add(CollectiveOp::AllReduce, 600, 30, 3.0);   // bucket 512
    add(CollectiveOp::AllReduce, 1024, 40, 4.0);  // bucket 1024
    add(CollectiveOp::Broadcast, -1, 50, NAN);    // no size
    const std::vector<CollectiveSummaryRow> s = summarizeCollectives(rows);
    REQUIRE(s.size() == 3);
    CHECK(s[0].op == CollectiveOp::AllReduce);
    CHECK(s[0].bucket_bytes == 512);
    CHECK(s[0].count == 3);
    CHECK(s[0].total_ns == 60);
    CHECK(s[0].median_ns == 20);
    CHECK(s[0].p90_ns == Approx(28.0));  // 20 + 0.8 x (30 - 20)
    CHECK(s[0].median_busbw_gbps == 2.0);
    CHECK(s[1].bucket_bytes == 1024);
    CHECK(s[2].op == CollectiveOp::Broadcast);
    CHECK(s[2].bucket_bytes == -1);
    CHECK(std::isnan(s[2].median_busbw_gbps));
}

TEST_CASE("two DDP ranks (PyTorch): sizes from the model, waits and skews consistent", "[communication]") {
    std::vector<std::unique_ptr<Report>> owned;
    const CommunicationAnalysis a =
        analyzeFiles({"kineto/ddp_rank0.pt.trace.json.gz", "kineto/ddp_rank1.pt.trace.json.gz"}, owned);
    const CollectiveRows& r = a.rows;
    // workloads/train.py's Net: conv 3->64 (1,792) + BatchNorm 64 (128) + conv 64->128 (73,856) +
    // conv 128->256 (295,168) + TransformerEncoderLayer(256, 8, 1024) (789,760) + Linear 256->10
    // (2,570) = 1,163,274 parameters, all-reduced as float32 in DDP's buckets every step; its
    // buffers broadcast every step: BatchNorm's running mean and variance (2 x 64 floats, one
    // broadcast) and its num_batches_tracked (one int64, another).
    const int64_t parameters = 1792 + 128 + 73856 + 295168 + 789760 + 2570;
    for (uint16_t rank = 0; rank < 2; ++rank) {
        int64_t allReduced = 0, broadcasts = 0, broadcastBytes = 0, allReduces = 0;
        for (size_t i = 0; i < r.size(); ++i) {
            if (r.rank[i] != rank) continue;
            CHECK(r.ranks[i] == 2);
            if (r.op[i] == CollectiveOp::AllReduce) allReduced += r.size_bytes[i], ++allReduces;
            if (r.op[i] == CollectiveOp::Broadcast) {
                CHECK((r.size_bytes[i] == 2 * 64 * 4 || r.size_bytes[i] == 8));
                broadcastBytes += r.size_bytes[i];
                ++broadcasts;
            }
            if (r.size_bytes[i] >= 0 && r.duration_ns[i] > 0)
                CHECK(r.algbw_gbps[i] == Approx(double(r.size_bytes[i]) / double(r.duration_ns[i])));
        }
        CHECK(broadcasts == 16);
        CHECK(broadcastBytes == 8 * (2 * 64 * 4 + 8));
        CHECK(allReduces == 16);
        CHECK(allReduced == 8 * parameters * 4);  // 8 steps of 2 buckets
    }
    // Matched on both ranks: each instance's waits are its skew (the last rank waits 0).
    REQUIRE(!a.instances.empty());
    for (const CollectiveInstance& in : a.instances) {
        REQUIRE(in.rows.size() == 2);
        const int64_t w0 = r.wait_ns[in.rows[0]], w1 = r.wait_ns[in.rows[1]];
        CHECK(std::min(w0, w1) == 0);
        CHECK(w0 + w1 == in.skew_ns);
        CHECK(r.wait_ns[in.rows[size_t(in.last_rank)]] == 0);
    }
    CHECK(a.ranks[0].times_last + a.ranks[1].times_last == int32_t(a.instances.size()));
    CHECK(a.most_often_last >= 0);
    for (const RankCommunication& rc : a.ranks) {
        CHECK(rc.comm_ns > 0);
        CHECK(rc.overlapped_ns >= 0);
        CHECK(rc.overlapped_ns <= rc.comm_ns);
    }
}

TEST_CASE("two DDP ranks (Nsight Systems): sizes from NCCL's NVTX payloads, natively and from the blobs export",
          "[communication]") {
    std::vector<std::unique_ptr<Report>> native, exported;
    const CommunicationAnalysis a =
        analyzeFiles({"nsys-2025.3/ddp_rank0.nsys-rep", "nsys-2025.3/ddp_rank1.nsys-rep"}, native);
    const CommunicationAnalysis b =
        analyzeFiles({"nsys-2025.3/ddp_rank0.blobs.sqlite", "nsys-2025.3/ddp_rank1.blobs.sqlite"}, exported);
    CHECK(a.notes.empty());
    CHECK(cellTableCsv(collectiveRowCells(a)) == cellTableCsv(collectiveRowCells(b)));
    const CollectiveRows& r = a.rows;
    // The same model as the PyTorch capture (workloads/train.py), 12 steps here: per step its
    // 1,163,274 float parameters all-reduced, its BatchNorm buffers broadcast (512 and 8 bytes).
    const int64_t parameters = 1792 + 128 + 73856 + 295168 + 789760 + 2570;
    for (uint16_t rank = 0; rank < 2; ++rank) {
        int64_t allReduced = 0, broadcastBytes = 0;
        for (size_t i = 0; i < r.size(); ++i) {
            if (r.rank[i] != rank) continue;
            CHECK(r.communicator[i] == "f2cfe53da0d29575");  // NCCL's communicator id 17496455130211587445
            CHECK(r.ranks[i] == 2);  // no creation range in the capture: counted from the two reports
            CHECK(!std::isnan(r.busbw_gbps[i]));
            if (r.op[i] == CollectiveOp::AllReduce) allReduced += r.size_bytes[i];
            if (r.op[i] == CollectiveOp::Broadcast) broadcastBytes += r.size_bytes[i];
        }
        CHECK(allReduced == 12 * parameters * 4);
        CHECK(broadcastBytes == 12 * (2 * 64 * 4 + 8));
    }
    // One rank alone: the sizes, but not the communicator's ranks, so no busbw.
    std::vector<std::unique_ptr<Report>> one;
    const CommunicationAnalysis single = analyzeFiles({"nsys-2025.3/ddp_rank0.nsys-rep"}, one);
    REQUIRE(single.rows.size() > 0);
    CHECK(single.rows.size_bytes[0] == 512);
    CHECK(single.rows.ranks[0] == -1);
    CHECK(std::isnan(single.rows.busbw_gbps[0]));
    CHECK(!std::isnan(single.rows.algbw_gbps[0]));
    // An export made without blobs has no sizes, and says why.
    std::vector<std::unique_ptr<Report>> bare;
    const CommunicationAnalysis noBlobs = analyzeFiles({"nsys-2025.3/ddp_rank0.sqlite"}, bare);
    REQUIRE(noBlobs.notes.size() == 1);
    CHECK(noBlobs.notes[0].find("--include-blobs=true") != std::string::npos);
    CHECK(noBlobs.rows.size_bytes[0] == -1);
}

TEST_CASE("a payload's message size is one rank's buffer: all-gathers and reduce-scatters count every rank's",
          "[communication]") {
    CollectiveMeta m;
    m.message_bytes = 1000;
    m.ranks = 4;
    CHECK(collectiveSize(m, CollectiveOp::AllGather) == 4000);
    CHECK(collectiveSize(m, CollectiveOp::ReduceScatter) == 4000);
    CHECK(collectiveSize(m, CollectiveOp::AllReduce) == 1000);
    CHECK(collectiveSize(m, CollectiveOp::Broadcast) == 1000);
    m.ranks = -1;
    CHECK(collectiveSize(m, CollectiveOp::AllGather) == -1);
    CHECK(collectiveSize(m, CollectiveOp::AllReduce) == 1000);
    m.size_bytes = 77;  // PyTorch's args already count max(in, out)
    CHECK(collectiveSize(m, CollectiveOp::AllGather) == 77);
}
