#include <algorithm>
#include <set>
#include <tuple>

#include "Absent.h"
#include "ImportHelpers.h"
#include "model/Find.h"

using namespace lanescope;
using namespace lanescope::test;

namespace {

// Every lane: sorted by (start, longer first); no overlap within a depth; push/pop NVTX,
// CUDA API and OS runtime children lie inside their parents.
void checkLaneInvariants(const Report& r) {
    for (const Lane& lane : r.lanes) {
        const auto& ev = lane.events;
        REQUIRE(ev.duration_ns.size() == ev.size());
        REQUIRE(ev.depth.size() == ev.size());
        std::vector<int64_t> lastEndAtDepth(256, INT64_MIN);
        std::vector<size_t> openAtDepth(256, SIZE_MAX);
        for (size_t i = 0; i < ev.size(); ++i) {
            CHECK(ev.endNs(i) >= ev.start_ns[i]);
            if (i > 0) {
                const bool ordered = ev.start_ns[i - 1] < ev.start_ns[i] ||
                                     (ev.start_ns[i - 1] == ev.start_ns[i] && ev.endNs(i - 1) >= ev.endNs(i));
                CHECK(ordered);
            }
            const uint8_t d = ev.depth[i];
            CHECK(ev.start_ns[i] >= lastEndAtDepth[d]);
            lastEndAtDepth[d] = ev.endNs(i);
            openAtDepth[d] = i;
            if (d > 0 && lane.kind == LaneKind::Nvtx) {
                const size_t parent = openAtDepth[d - 1];
                REQUIRE(parent != SIZE_MAX);
                CHECK(ev.start_ns[parent] <= ev.start_ns[i]);
                CHECK(ev.endNs(i) <= ev.endNs(parent));
            }
        }
    }
}

struct TableCount {
    const char* table;
    uint64_t EventCounts::*field;
    const char* where;
};

}  // namespace

TEST_CASE("every Nsight Systems export of the corpus opens with per-table counts equal to SQLite's") {
    const std::vector<TableCount> tables = {
        {"CUPTI_ACTIVITY_KIND_KERNEL", &EventCounts::kernels, ""},
        {"CUPTI_ACTIVITY_KIND_MEMCPY", &EventCounts::memcpy, ""},
        {"CUPTI_ACTIVITY_KIND_MEMSET", &EventCounts::memset, ""},
        {"CUPTI_ACTIVITY_KIND_RUNTIME", &EventCounts::cuda_api, ""},
        {"CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", &EventCounts::sync, ""},
        {"OSRT_API", &EventCounts::osrt, " WHERE eventClass = 27"},
        {"NVTX_EVENTS", &EventCounts::nvtx, " WHERE eventType IN (59, 60)"},
    };
    for (const char* name :
         {"nsys-2025.3/train_1gpu.sqlite", "nsys-2025.3/ddp_rank0.sqlite", "nsys-2025.3/ddp_rank1.sqlite",
          "nsys-2025.3/train_metrics.sqlite", "nsys-2022.4/cpu_nvtx_threads.sqlite"}) {
        const auto path = dataFile(name);
        INFO(name);
        const auto report = importOk(path);
        const EventCounts counts = report->counts();
        for (const auto& t : tables) {
            INFO(t.table);
            int64_t expected = sqliteInt(path, std::string("SELECT count(*) FROM ") + t.table + t.where);
            if (expected < 0) expected = 0;  // the table is absent: no such data
            CHECK(counts.*(t.field) == static_cast<uint64_t>(expected));
        }
        CHECK(report->diagnostics.empty());
        checkLaneInvariants(*report);
        CHECK(report->meta.end_ns > report->meta.begin_ns);
    }
}

TEST_CASE("train_1gpu: metadata, GPU, threads and lanes") {
    const auto r = importOk(dataFile("nsys-2025.3/train_1gpu.sqlite"));
    CHECK(r->meta.format == "nsys-sqlite");
    CHECK(r->meta.producer == "NVIDIA Nsight Systems");
    CHECK(r->meta.version == "2025.3.2.0");
    CHECK(r->meta.start_utc_ns == 1795316027191150611);
    REQUIRE(r->gpus.size() == 1);
    CHECK(r->str(r->gpus[0].name_id) == "NVIDIA H200");
    REQUIRE(r->processes.size() == 1);
    CHECK(r->str(r->processes[0].name_id) == "python3");
    // Every name the export lists, of the whole machine; the threads with events but no name
    // (their default name "Thread 1372") are not among them.
    const auto processNames = std::count_if(r->recorded_names.begin(), r->recorded_names.end(),
                                            [](const RecordedName& n) { return n.tid == kProcessOwnName; });
    CHECK(processNames == sqliteInt(dataFile("nsys-2025.3/train_1gpu.sqlite"), "SELECT count(*) FROM PROCESSES"));
    CHECK(int64_t(r->recorded_names.size()) - processNames ==
          sqliteInt(dataFile("nsys-2025.3/train_1gpu.sqlite"), "SELECT count(*) FROM ThreadNames"));
    // Processes first, then threads, each in the export's row order.
    CHECK(std::is_partitioned(r->recorded_names.begin(), r->recorded_names.end(),
                              [](const RecordedName& n) { return n.tid == kProcessOwnName; }));
    CHECK(r->recorded_names.front().pid ==
          sqliteInt(dataFile("nsys-2025.3/train_1gpu.sqlite"), "SELECT pid FROM PROCESSES ORDER BY rowid LIMIT 1"));
    for (const Thread& t : r->threads) {
        const int64_t pid = r->processes[size_t(t.process)].pid;
        const bool recorded = std::any_of(r->recorded_names.begin(), r->recorded_names.end(),
                                          [&](const RecordedName& n) { return n.pid == pid && n.tid == t.tid; });
        INFO(r->str(t.name_id));
        CHECK(recorded == !r->str(t.name_id).starts_with("Thread "));
    }
    const auto c = r->counts();
    CHECK(c.kernels == 1950);
    CHECK(c.cuda_api == 4067);
    CHECK(c.memcpy == 90);
    CHECK(c.memset == 135);
    CHECK(c.nvtx == 120);
    // Kernel details come through: every kernel has a correlation id and a block size.
    for (const KernelInfo& k : r->kernels) {
        CHECK(k.correlation_id > 0);
        REQUIRE(k.config < r->kernel_configs.size());
        const KernelConfig& config = r->kernel_configs[k.config];
        CHECK(config.block[0] * config.block[1] * config.block[2] > 0);
        CHECK(!r->str(config.short_name_id).empty());
    }
    // Launch configurations are shared: far fewer than launches.
    CHECK(r->kernel_configs.size() < r->kernels.size() / 4);
    const int64_t distinct = sqliteInt(
        dataFile("nsys-2025.3/train_1gpu.sqlite"),
        "SELECT count(*) FROM (SELECT DISTINCT shortName, gridX, gridY, gridZ, blockX, blockY, blockZ, "
        "registersPerThread, staticSharedMemory, dynamicSharedMemory, localMemoryPerThread, launchType, "
        "mangledName, cacheConfig, sharedMemoryLimitConfig, localMemoryTotal FROM CUPTI_ACTIVITY_KIND_KERNEL)");
    CHECK(r->kernel_configs.size() == static_cast<size_t>(distinct));
}

TEST_CASE("train_1gpu NVTX nesting is step > data, copy, forward (conv, attention), backward, optimizer") {
    const auto r = importOk(dataFile("nsys-2025.3/train_1gpu.sqlite"));
    const Lane* nvtx = nullptr;
    for (const Lane& l : r->lanes)
        if (l.kind == LaneKind::Nvtx) nvtx = &l;
    REQUIRE(nvtx != nullptr);
    const auto& ev = nvtx->events;
    std::map<std::string, std::set<std::string>> childrenOf;
    std::vector<std::string> open(8);
    for (size_t i = 0; i < ev.size(); ++i) {
        std::string name(r->str(ev.name_id[i]));
        if (name.starts_with("step ")) name = "step";
        open[ev.depth[i]] = name;
        if (ev.depth[i] > 0)
            childrenOf[open[ev.depth[i] - 1]].insert(name);
        else
            CHECK(name == "step");
    }
    CHECK(childrenOf["step"] == std::set<std::string>{"data", "copy", "forward", "backward", "optimizer"});
    CHECK(childrenOf["forward"] == std::set<std::string>{"conv", "attention"});
    CHECK(nvtx->depth_count == 3);
}

TEST_CASE("ddp ranks: NCCL lanes hold the NCCL domain ranges and nccl kernels") {
    for (const char* name : {"nsys-2025.3/ddp_rank0.sqlite", "nsys-2025.3/ddp_rank1.sqlite"}) {
        const auto path = dataFile(name);
        const auto r = importOk(path);
        const int64_t ncclRanges =
            sqliteInt(path, "SELECT count(*) FROM NVTX_EVENTS WHERE eventType = 59 AND domainId = 1");
        const int64_t ncclKernels =
            sqliteInt(path,
                      "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.demangledName "
                      "WHERE s.value LIKE 'nccl%'");
        REQUIRE(ncclRanges > 0);
        REQUIRE(ncclKernels > 0);
        CHECK(r->counts().nccl == static_cast<uint64_t>(ncclRanges + ncclKernels));
        std::set<std::string> names;
        for (const Lane& l : r->lanes)
            if (l.kind == LaneKind::Nccl) {
                CHECK(l.gpu >= 0);
                for (uint32_t id : l.events.name_id) names.insert(std::string(r->str(id)));
            }
        CHECK(names.count("ncclAllReduce") == 1);
        CHECK(names.count("ncclBroadcast") == 1);
        CHECK(std::any_of(names.begin(), names.end(),
                          [](const std::string& n) { return n.starts_with("ncclDevKernel_AllReduce"); }));
    }
}

TEST_CASE("train_metrics: GPU metrics and CUDA memory usage become counters") {
    const auto path = dataFile("nsys-2025.3/train_metrics.sqlite");
    const auto r = importOk(path);
    const auto metricNames = sqliteInt(path, "SELECT count(DISTINCT metricId) FROM GPU_METRICS");
    size_t metricSamples = 0, memorySamples = 0, metrics = 0;
    for (const Counter& c : r->counters) {
        CHECK(std::is_sorted(c.time_ns.begin(), c.time_ns.end()));
        if (r->str(c.name_id) == "CUDA memory usage") {
            memorySamples += c.time_ns.size();
            CHECK(c.value.back() >= 0);
        } else {
            metricSamples += c.time_ns.size();
            ++metrics;
        }
    }
    CHECK(metrics == static_cast<size_t>(metricNames));
    CHECK(metricSamples == 36234);
    CHECK(memorySamples == 1295);
    CHECK(r->counts().counter_samples == 36234 + 1295);
    bool smActive = false;
    for (const Counter& c : r->counters) smActive |= r->str(c.name_id) == "SMs Active [Throughput %]";
    CHECK(smActive);
}

TEST_CASE("OpenMP: every OPENMP_EVENT_KIND_ table on an OpenMP lane per thread, nested") {
    // tests/data/workloads/openmp_loops.cpp on 4 threads, nsys 2022.4 -t openmp,osrt.
    const auto r = importOk(dataFile("nsys-2022.4/openmp_loops.sqlite"));
    CHECK(r->counts().openmp == 15 + 109 + 185 + 220 + 80 + 20 + 20);  // the rows of the seven tables
    size_t lanes = 0;
    uint8_t deepest = 0;
    for (const Lane& l : r->lanes) {
        if (l.kind != LaneKind::OpenMp) continue;
        ++lanes;
        CHECK(l.thread >= 0);
        CHECK(r->str(l.name_id) == "OpenMP");
        deepest = std::max(deepest, l.depth_count);
        for (size_t i = 0; i < l.events.size(); ++i) CHECK(l.events.kind[i] == EventKind::OpenMpEvent);
    }
    CHECK(lanes == 4);
    // A parallel region holds its implicit task, which holds the loop, which holds its barrier.
    CHECK(deepest >= 3);
    CHECK(findEvents(*r, FindQuery{"Parallel Region"}).hits.size() == 15);
}

TEST_CASE("nsys 2022.4 schema: names inline, markers as instants, three NVTX threads") {
    const auto r = importOk(dataFile("nsys-2022.4/cpu_nvtx_threads.sqlite"));
    CHECK(r->meta.version.starts_with("2022.4"));
    size_t nvtxLanes = 0, markers = 0;
    for (const Lane& l : r->lanes)
        if (l.kind == LaneKind::Nvtx) {
            ++nvtxLanes;
            markers += l.instants.size();
        }
    CHECK(nvtxLanes == 3);
    CHECK(r->counts().nvtx == 180);
    CHECK(markers == 60);
    CHECK(r->gpus.empty());
}

TEST_CASE("public 2022.2 capture exported by 2022.4 (../shared/corpus/public)", "[more-reports]") {
    const auto path = sharedFile("public/openhackathons-org__AI-Profiler__baseline_nvtx.sqlite");
    if (path.empty()) {
        LANESCOPE_SKIP_ABSENT("../shared/corpus/public (baseline_nvtx)");
    }
    const auto r = importOk(path);
    const auto c = r->counts();
    CHECK(c.kernels == 9345);
    CHECK(c.cuda_api == 11131);
    CHECK(c.nvtx == 19289);
    checkLaneInvariants(*r);
}

TEST_CASE("importing never changes the input file") {
    for (const char* name : {"nsys-2025.3/train_1gpu.sqlite", "nsys-2022.4/cpu_nvtx_threads.sqlite"}) {
        const auto path = dataFile(name);
        const auto before = fileHash(path);
        const auto modified = std::filesystem::last_write_time(path);
        const auto siblings = std::distance(std::filesystem::directory_iterator(path.parent_path()), {});
        importOk(path);
        CHECK(fileHash(path) == before);
        CHECK(std::filesystem::last_write_time(path) == modified);
        CHECK(std::distance(std::filesystem::directory_iterator(path.parent_path()), {}) == siblings);
    }
}
