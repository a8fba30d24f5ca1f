// Today's reports, shown whole: CUDA graphs traced per graph and per node, CUDA event records,
// torch.compile's driver API launches, unified memory, Nsight Systems' messages and profiler overhead, read from the
// export and natively, each count checked against a query on the export itself.
#include <algorithm>

#include "ImportHelpers.h"
#include "analysis/GpuGaps.h"
#include "analysis/NsysMessages.h"
#include "model/Correlation.h"
#include "model/EventDetails.h"

using namespace lanescope;
using namespace lanescope::test;

namespace {

std::filesystem::path capture(const std::string& name, const char* ext) {
    return dataFile("nsys-2025.3/" + name + ext);
}

size_t eventsOfKind(const Report& r, EventKind kind) {
    size_t n = 0;
    for (const Lane& l : r.lanes)
        if (!holdsDerivedEvents(l.kind)) n += size_t(std::count(l.events.kind.begin(), l.events.kind.end(), kind));
    return n;
}

std::optional<EventRef> firstOfKind(const Report& r, EventKind kind) {
    for (uint32_t li = 0; li < r.lanes.size(); ++li)
        for (uint32_t i = 0; i < r.lanes[li].events.size(); ++i)
            if (r.lanes[li].events.kind[i] == kind && !holdsDerivedEvents(r.lanes[li].kind)) return EventRef{li, i};
    return std::nullopt;
}

// Calls onLaunch(the kernel's lane, the call that launched it) for each kernel of the report's
// own lanes (not the derived ones) linked to its launch; returns how many were.
template <typename OnLaunch>
int64_t forEachLinkedKernel(const Report& r, OnLaunch&& onLaunch) {
    const CorrelationIndex& index = correlationIndex(r);
    int64_t linked = 0;
    for (uint32_t li = 0; li < r.lanes.size(); ++li) {
        const Lane& lane = r.lanes[li];
        if (holdsDerivedEvents(lane.kind)) continue;
        for (uint32_t i = 0; i < lane.events.size(); ++i) {
            if (lane.events.kind[i] != EventKind::Kernel) continue;
            if (const auto launch = index.launcherOf({li, i})) {
                ++linked;
                onLaunch(lane, *launch);
            }
        }
    }
    return linked;
}

std::string field(const std::vector<DetailField>& fields, const std::string& label) {
    for (const DetailField& f : fields)
        if (f.label == label) return f.value;
    return "<missing " + label + ">";
}

}  // namespace

TEST_CASE("CUDA graphs traced per graph: each replay is a box on its stream, linked to its cudaGraphLaunch") {
    const auto sqlite = capture("cuda_graphs", ".sqlite");
    const int64_t replays = sqliteInt(sqlite, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_GRAPH_TRACE");
    REQUIRE(replays == 40);
    for (const char* ext : {".sqlite", ".nsys-rep"}) {
        INFO(ext);
        const auto r = importOk(capture("cuda_graphs", ext));
        CHECK(r->counts().graph_executions == uint64_t(replays));
        CHECK(r->diagnostics.count("nsys_rep_unknown_event_type") == 0);
        const auto exec = firstOfKind(*r, EventKind::GraphExecution);
        REQUIRE(exec);
        CHECK(r->lanes[exec->lane].kind == LaneKind::GpuStream);
        const CorrelationIndex& index = correlationIndex(*r);
        const auto launch = index.launcherOf(*exec);
        REQUIRE(launch);
        CHECK(r->str(r->lanes[launch->lane].events.name_id[launch->index]).starts_with("cudaGraphLaunch"));
        const std::vector<EventRef> back = index.launchedBy(*launch);
        CHECK(std::find(back.begin(), back.end(), *exec) != back.end());
        // Details: the graph's ids and its creation and instantiation on the CPU.
        const auto details = eventDetails(*r, *exec);
        CHECK(field(details, "Kind") == "CUDA graph");
        CHECK(field(details, "Graph id") != "<missing Graph id>");
        CHECK(field(details, "Graph Creation").find(" ns, thread ") != std::string::npos);
        CHECK(r->graph_api_events.size() == size_t(sqliteInt(sqlite, "SELECT count(*) FROM CUDA_GRAPH_EVENTS")));
    }
}

// torch.compile: Triton's kernels are launched through the CUDA driver API (cuLaunchKernel), the
// others through the runtime; under mode="reduce-overhead" the compiled steps replay as CUDA graphs.
TEST_CASE("torch.compile: each kernel is linked to its launch, driver API calls among them, as SQL joins them") {
    for (const char* name : {"torch_compile", "torch_compile_graphs"}) {
        const auto sqlite = capture(name, ".sqlite");
        const int64_t kernels = sqliteInt(sqlite, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL");
        const auto launchedThrough = [&](const std::string& api) {
            return sqliteInt(sqlite,
                             "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN CUPTI_ACTIVITY_KIND_RUNTIME r "
                             "ON k.correlationId = r.correlationId AND k.globalPid >> 24 = r.globalTid >> 24 "
                             "JOIN StringIds s ON r.nameId = s.id WHERE s.value LIKE '" +
                                 api + "%'");
        };
        const bool graphs = std::string(name) == "torch_compile_graphs";
        CHECK(launchedThrough("cuLaunchKernel") == (graphs ? 0 : 1100));
        for (const char* ext : {".sqlite", ".nsys-rep"}) {
            INFO(name << ext);
            const auto r = importOk(capture(name, ext));
            CHECK(r->counts().kernels == uint64_t(kernels));
            CHECK(r->counts().graph_executions == (graphs ? 40u : 0u));
            int64_t byDriver = 0, byRuntime = 0;
            const int64_t linked = forEachLinkedKernel(*r, [&](const Lane&, EventRef launch) {
                const std::string_view api = r->str(r->lanes[launch.lane].events.name_id[launch.index]);
                byDriver += api.starts_with("cuLaunchKernel");
                byRuntime += api.starts_with("cudaLaunchKernel");
            });
            CHECK(linked == kernels);
            CHECK(byDriver == launchedThrough("cuLaunchKernel"));
            CHECK(byRuntime == launchedThrough("cudaLaunchKernel"));
        }
    }
}

// nsys writes device 0 in every synchronization row whatever GPU its context ran on: a rank on
// GPU 1 had its syncs on a GPU 0 of their own.
TEST_CASE("synchronization rows sit on the GPU of their context, which keeps the recorded one apart") {
    for (const char* name : {"ddp_rank1", "ddp_both_ranks"}) {
        const auto sqlite = capture(name, ".sqlite");
        CHECK(sqliteInt(sqlite, "SELECT count(DISTINCT deviceId) FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION") == 1);
        for (const char* ext : {".sqlite", ".nsys-rep"}) {
            INFO(name << ext);
            const auto r = importOk(capture(name, ext));
            size_t syncLanes = 0, moved = 0;
            for (const Lane& sync : r->lanes) {
                if (sync.kind != LaneKind::CudaSync) continue;
                ++syncLanes;
                moved += sync.recorded_gpu >= 0;
                CHECK(sync.recorded_gpu != sync.gpu);
                const auto sameContext = [&](const Lane& l) {
                    return l.kind == LaneKind::GpuStream && l.process == sync.process &&
                           l.context_id == sync.context_id;
                };
                for (const Lane& stream : r->lanes)
                    if (sameContext(stream)) CHECK(stream.gpu == sync.gpu);
            }
            CHECK(syncLanes >= 4);
            CHECK(moved == (std::string(name) == "ddp_rank1" ? syncLanes : syncLanes / 2));
        }
    }
}

// Two processes in one report number their CUDA calls from 1 each: a kernel is linked to the
// call of its own process, as SQL joins them on the correlation id and the pid.
TEST_CASE("both ranks in one report: each kernel is linked to the launch of its own process") {
    const auto sqlite = capture("ddp_both_ranks", ".sqlite");
    const int64_t kernels = sqliteInt(sqlite, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL");
    REQUIRE(sqliteInt(sqlite,
                      "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN CUPTI_ACTIVITY_KIND_RUNTIME r "
                      "ON k.correlationId = r.correlationId") > kernels);  // the ids repeat
    for (const char* ext : {".sqlite", ".nsys-rep"}) {
        INFO(ext);
        const auto r = importOk(capture("ddp_both_ranks", ext));
        CHECK(r->processes.size() >= 2);
        CHECK(r->gpus.size() == 2);
        const int64_t linked = forEachLinkedKernel(*r, [&](const Lane& kernelLane, EventRef launch) {
            CHECK(r->lanes[launch.lane].process == kernelLane.process);
        });
        CHECK(linked == sqliteInt(sqlite,
                                  "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN "
                                  "CUPTI_ACTIVITY_KIND_RUNTIME r ON k.correlationId = r.correlationId "
                                  "AND k.globalPid >> 24 = r.globalTid >> 24"));
        CHECK(linked == kernels);
    }
}

TEST_CASE("GPU gaps: graph replays are busy in the panel, left out by nsys's rule") {
    const auto r = importOk(capture("cuda_graphs", ".sqlite"));
    GapOptions rule;
    rule.gap_ms = 0.001;
    rule.rows = -1;
    GapOptions panel = rule;
    panel.graphs_busy = true;
    int64_t ruleIdle = 0, panelIdle = 0;
    for (const GpuGap& g : findGpuGaps(*r, rule)) ruleIdle += g.duration_ns;
    for (const GpuGap& g : findGpuGaps(*r, panel)) panelIdle += g.duration_ns;
    // 40 replays of about 28 µs each are idle time to the rule and busy time to the panel.
    CHECK(panelIdle < ruleIdle);
    CHECK(ruleIdle - panelIdle >= 40 * 20000);
}

TEST_CASE("CUDA graphs traced per node: kernels carry their graph node, a launch picks all its kernels") {
    const auto sqlite = capture("cuda_graphs_nodes", ".sqlite");
    const int64_t inGraphs =
        sqliteInt(sqlite, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE graphNodeId IS NOT NULL");
    REQUIRE(inGraphs == 240);
    for (const char* ext : {".sqlite", ".nsys-rep"}) {
        INFO(ext);
        const auto r = importOk(capture("cuda_graphs_nodes", ext));
        CHECK(r->kernel_graph_nodes.size() == size_t(inGraphs));
        CHECK(r->graph_api_events.size() == size_t(sqliteInt(sqlite, "SELECT count(*) FROM CUDA_GRAPH_NODE_EVENTS")));
        // The first graph launch picks the kernels of its nodes (6 per replay in this workload).
        const CorrelationIndex& index = correlationIndex(*r);
        size_t picked = 0;
        for (uint32_t li = 0; li < r->lanes.size() && picked == 0; ++li)
            for (uint32_t i = 0; i < r->lanes[li].events.size() && picked == 0; ++i)
                if (r->lanes[li].kind == LaneKind::CudaApi &&
                    r->str(r->lanes[li].events.name_id[i]).starts_with("cudaGraphLaunch"))
                    picked = index.launchedBy({li, i}).size();
        CHECK(picked == size_t(sqliteInt(sqlite,
                                         "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN "
                                         "(SELECT min(correlationId) c FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE "
                                         "graphNodeId IS NOT NULL) f ON k.correlationId = f.c")));
        const auto kernel = firstOfKind(*r, EventKind::Kernel);
        REQUIRE(kernel);
    }
}

TEST_CASE("CUDA event records: instants on their stream, linked to their call and to the sync that waited") {
    const auto sqlite = capture("cuda_graphs", ".sqlite");
    const int64_t records = sqliteInt(sqlite, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_CUDA_EVENT");
    REQUIRE(records == 12);
    for (const char* ext : {".sqlite", ".nsys-rep"}) {
        INFO(ext);
        const auto r = importOk(capture("cuda_graphs", ext));
        CHECK(r->counts().cuda_events == uint64_t(records));
        // Each record sits at the end of the call with its correlation id, on a stream lane.
        size_t checked = 0, waited = 0;
        for (size_t li = 0; li < r->lanes.size(); ++li) {
            const Lane& l = r->lanes[li];
            if (l.kind != LaneKind::GpuStream) continue;
            for (size_t i = 0; i < l.instants.size(); ++i) {
                const CudaEventInfo& e = r->cuda_events.at(l.instants.payload[i]);
                const auto details = instantDetails(*r, {li, i});
                CHECK(field(details, "Event sync id") == std::to_string(e.event_sync_id));
                for (const Lane& api : r->lanes)
                    for (size_t k = 0; api.kind == LaneKind::CudaApi && k < api.events.size(); ++k)
                        if (api.events.payload[k] == e.correlation_id && api.process == l.process) {
                            CHECK(api.events.endNs(k) == l.instants.time_ns[i]);
                            ++checked;
                        }
                waited += size_t(std::count_if(r->syncs.begin(), r->syncs.end(),
                                               [&](const SyncInfo& s) { return s.event_sync_id == e.event_sync_id; }));
            }
        }
        CHECK(checked == size_t(records));
        CHECK(waited == size_t(sqliteInt(sqlite,
                                         "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION s JOIN "
                                         "CUPTI_ACTIVITY_KIND_CUDA_EVENT e ON s.eventSyncId = e.eventSyncId")));
    }
}

TEST_CASE("unified memory: CPU faults on their process, GPU faults per GPU, migrations among the copies") {
    const auto sqlite = capture("unified_memory", ".sqlite");
    const int64_t cpu = sqliteInt(sqlite, "SELECT count(*) FROM CUDA_UM_CPU_PAGE_FAULT_EVENTS");
    const int64_t gpu = sqliteInt(sqlite, "SELECT count(*) FROM CUDA_UM_GPU_PAGE_FAULT_EVENTS");
    const int64_t migrations =
        sqliteInt(sqlite, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE copyKind IN (11, 12, 13)");
    REQUIRE(cpu == 960);
    REQUIRE(gpu == 421);
    for (const char* ext : {".sqlite", ".nsys-rep"}) {
        INFO(ext);
        const auto r = importOk(capture("unified_memory", ext));
        const EventCounts c = r->counts();
        CHECK(c.um_cpu_page_faults == uint64_t(cpu));
        CHECK(c.um_gpu_page_faults == uint64_t(gpu));
        CHECK(eventsOfKind(*r, EventKind::GpuPageFault) == size_t(gpu));
        CHECK(r->migrations.size() == size_t(migrations));
        for (const Lane& l : r->lanes) {
            if (l.kind == LaneKind::UnifiedMemory) CHECK(l.gpu >= 0);
            if (l.kind == LaneKind::UmCpuPageFaults) CHECK(l.process >= 0);
        }
        // The memory usage counters name the one real GPU (device 0), never a time read as a device.
        CHECK(r->gpus.size() == 1);
    }
}

TEST_CASE("Nsight Systems' messages are read, apart from Lanescope's diagnostics") {
    for (const char* name : {"cuda_graphs", "unified_memory", "train_1gpu"}) {
        const auto sqlite = capture(name, ".sqlite");
        const int64_t rows = sqliteInt(sqlite, "SELECT count(*) FROM DIAGNOSTIC_EVENT");
        const int64_t warnings = sqliteInt(sqlite, "SELECT count(*) FROM DIAGNOSTIC_EVENT WHERE severity = 2");
        for (const char* ext : {".sqlite", ".nsys-rep"}) {
            INFO(name << ext);
            const auto r = importOk(capture(name, ext));
            REQUIRE(r->nsys_messages.size() == size_t(rows));
            CHECK(size_t(std::count_if(r->nsys_messages.begin(), r->nsys_messages.end(),
                                       [](const NsysMessage& m) { return m.severity == 2; })) == size_t(warnings));
            CHECK(r->nsys_messages.front().text.find("launched by the profiler") != std::string::npos);
            CHECK(messagesExplainingNoGpuWork(*r).empty());  // all three hold GPU work
        }
    }
}

TEST_CASE("a report without GPU work names the Nsight message that says why") {
    Report r;
    r.nsys_messages.push_back({0, 1, 1, 1, -1, "CUDA injection initialized successfully."});
    r.nsys_messages.push_back({5, 2, 3, 2, -1, "No CUDA events collected. Does the process use CUDA?"});
    r.nsys_messages.push_back({5, 2, 3, 2, -1, "Not all CUDA events might have been collected."});
    r.nsys_messages.push_back({6, 2, 3, 2, -1, "Not all OS runtime libraries events might have been collected."});
    CHECK(messagesExplainingNoGpuWork(r) == std::vector<size_t>{1});
    r.nsys_messages.push_back({7, 2, 3, 3, -1, "CUPTI failed to initialize."});
    CHECK(messagesExplainingNoGpuWork(r) == std::vector<size_t>{1, 4});
    // Only the generic one left: it is all there is to say.
    r.nsys_messages.erase(r.nsys_messages.begin() + 4);
    r.nsys_messages.erase(r.nsys_messages.begin() + 1);
    CHECK(messagesExplainingNoGpuWork(r) == std::vector<size_t>{1});
    // A CPU-only capture's warnings do not explain anything about a GPU.
    r.nsys_messages.erase(r.nsys_messages.begin() + 1);
    CHECK(messagesExplainingNoGpuWork(r).empty());
}

TEST_CASE("profiler overhead: a row per thread the profiler kept busy") {
    for (const char* ext : {".sqlite", ".nsys-rep"}) {
        const auto sqlite = capture("cuda_graphs", ".sqlite");
        const auto r = importOk(capture("cuda_graphs", ext));
        size_t events = 0;
        for (const Lane& l : r->lanes)
            if (l.kind == LaneKind::ProfilerOverhead) {
                CHECK(l.thread >= 0);
                events += l.events.size();
            }
        CHECK(events == size_t(sqliteInt(sqlite, "SELECT count(*) FROM PROFILER_OVERHEAD")));
    }
}

TEST_CASE("the whole-CPU utilization row: the share of the cores running a thread, from the context switches") {
    const auto r = importOk(dataFile("nsys-2025.3/cpu_1gpu.sqlite"));
    REQUIRE(r->cpu_utilization_counter >= 0);
    const Counter& c = r->counters.at(size_t(r->cpu_utilization_counter));
    REQUIRE(c.time_ns.size() > 10);
    CHECK(std::is_sorted(c.time_ns.begin(), c.time_ns.end()));
    size_t cores = 0;
    for (const Lane& l : r->lanes) cores += l.kind == LaneKind::CpuCore;
    // Recount at one time: the cores whose run covers it.
    const int64_t t = c.time_ns[c.time_ns.size() / 2];
    size_t running = 0;
    for (const Lane& l : r->lanes)
        if (l.kind == LaneKind::CpuCore)
            for (size_t i = 0; i < l.events.size(); ++i) running += l.events.start_ns[i] <= t && t < l.events.endNs(i);
    CHECK(c.value[c.time_ns.size() / 2] == Approx(100.0 * double(running) / double(cores)));
    for (double v : c.value) CHECK((v >= 0 && v <= 100));
    // Without context switches there is no such row.
    CHECK(importOk(dataFile("nsys-2025.3/train_1gpu.sqlite"))->cpu_utilization_counter == -1);
}

TEST_CASE("a viewer lane added while a projection reads the lanes does not dangle (lanes at capacity)") {
    // Four lanes after import, the vector at capacity: the NVTX-on-GPU lane's append used to move
    // the lane its source reference pointed into (ASan: heap-use-after-free).
    const auto r = importAsViewed(dataFile("edge/kineto_lanes_at_capacity.json"));
    size_t projected = 0;
    for (const Lane& l : r->lanes)
        if (l.kind == LaneKind::NvtxGpuProjection) projected += l.events.size();
    CHECK(projected > 0);
}
