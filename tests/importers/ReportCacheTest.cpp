// The report cache (importers/cache/): a fresh import and its model read back from the cache are
// equal field by field on reports of every format; the comparison itself sees a changed field;
// damaged, stale and invariant-breaking entries are deleted, never used; the folder stays within
// its bound, least recently used first; folder and files are private; keys follow the content.
#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <array>
#include <catch2/catch.hpp>
#include <cinttypes>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <random>
#include <set>
#include <stop_token>
#include <string>
#include <vector>

#include "ImportHelpers.h"
#include "TempCache.h"
#include "TestPaths.h"
#include "importers/WatchedMappings.h"
#include "importers/cache/ContentNotes.h"
#include "importers/cache/FastHash.h"
#include "importers/cache/ModelFile.h"
#include "importers/cache/ModelFormat.h"
#include "importers/cache/ReportCache.h"
#include "support/TinyReport.h"
#include "tests/support/ModelEquality.h"

using namespace lanescope;
using namespace lanescope::test;

namespace {

std::unique_ptr<Report> storeAndLoad(const ReportCache& cache, const Report& report, const std::string& key,
                                     const cache::LaneReplacements& replaced = {}) {
    std::string error, why;
    const bool stored = cache.store(report, key, error, replaced);
    INFO(error);
    REQUIRE(stored);
    auto loaded = cache.load(key, report.meta.source_path, why);
    INFO(why);
    REQUIRE(loaded);
    return loaded;
}

void requireEqual(const Report& fresh, const Report& cached) {
    const auto difference = firstDifference(fresh, cached);
    INFO(fresh.meta.source_path << ": " << difference.value_or(""));
    REQUIRE_FALSE(difference);
}

std::vector<std::string> entryNames(const std::filesystem::path& dir) {
    std::vector<std::string> names;
    for (const auto& item : std::filesystem::directory_iterator(dir)) names.push_back(item.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

void writeBytes(const std::filesystem::path& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary | std::ios::trunc).write(bytes.data(), std::streamsize(bytes.size()));
}

unsigned mode(const std::filesystem::path& path) {
    struct stat st {};
    REQUIRE(::stat(path.c_str(), &st) == 0);
    return st.st_mode & 0777;
}

using SectionTable = std::array<cache::SectionEntry, cache::kSectionCount>;

// The section table of a model file's bytes.
SectionTable sectionTable(const std::string& bytes) {
    SectionTable table;
    REQUIRE(bytes.size() >= cache::kModelTableEnd);
    std::memcpy(table.data(), bytes.data() + sizeof(cache::ModelFileHeader), sizeof table);
    return table;
}

// Makes the hashes right again for the bytes as they are: each section's in the table (where the
// table's entry lies inside the file), then the header's checksum over the table.
void rehash(std::string& bytes) {
    SectionTable table = sectionTable(bytes);
    for (cache::SectionEntry& e : table)
        if (e.offset <= bytes.size() && e.bytes <= bytes.size() - e.offset)
            e.hash = fastHash(bytes.data() + e.offset, e.bytes);
    std::memcpy(bytes.data() + sizeof(cache::ModelFileHeader), table.data(), sizeof table);
    const uint64_t checksum = fastHash(table.data(), sizeof table);
    std::memcpy(bytes.data() + offsetof(cache::ModelFileHeader, checksum), &checksum, sizeof checksum);
}

// A report built by hand with a row in every table and a field set in every struct, where the
// corpus has none (long durations, result codes, overhead, ...).
std::unique_ptr<Report> everyTableReport() {
    TinyReport t;
    const int32_t process = t.process(42, "proc");
    const int32_t thread = t.thread(process, 43, "main");
    t.r.threads[0].priority = 7;
    t.r.recorded_names = {{42, kProcessOwnName, t.r.strings.intern("proc"), kNoPriority},
                          {42, 43, t.r.strings.intern("main"), 7},
                          {44, 45, t.r.strings.intern("kworker/0:1"), 0}};  // a thread without events
    const int32_t gpu = t.gpu(0, "GPU 0");
    const uint32_t api = t.cpuLane(LaneKind::CudaApi, thread, "CUDA API");
    const uint32_t nvtx = t.cpuLane(LaneKind::Nvtx, thread, "NVTX");
    const uint32_t stream = t.gpuLane(LaneKind::GpuStream, process, gpu, 7, "Stream 7");
    t.r.lanes[stream].context_id = 1;
    t.event(api, 100, 200, "cudaLaunchKernel", EventKind::CudaApiCall, 5);
    t.event(api, 300, 300 + 6'000'000'000, "cudaDeviceSynchronize", EventKind::CudaApiCall, 6);  // a long one
    const uint32_t shapes = t.r.strings.intern("[[64, 3], []]");
    t.event(nvtx, 50, 5000, "step", EventKind::NvtxRange, t.nvtx({0xFF00FF00, 0, 3, true, false, shapes}));
    t.event(nvtx, 60, 400, "inner", EventKind::NvtxRange, t.nvtx({0, 0, 0, false, true}));
    KernelConfig config;
    config.grid[0] = 4, config.grid[2] = 2, config.block[1] = 128, config.registers_per_thread = 32;
    config.static_shared_bytes = 1, config.dynamic_shared_bytes = 2, config.local_bytes_per_thread = 3;
    config.shared_executed_bytes = 65536;
    config.short_name_id = t.r.strings.intern("k"), config.launch_type = 1;
    config.blocks_per_sm = 0.25f, config.warps_per_sm = 1.5f, config.est_achieved_occupancy_pct = 12.5f;
    t.event(stream, 250, 260, "kernel", EventKind::Kernel, t.kernel(5, config));
    t.event(stream, 270, 280, "copy", EventKind::Memcpy,
            t.memcpy({1 << 20, 9, CopyKind::UvmHtoD, MemKind::Managed, MemKind::Device}));
    t.event(stream, 290, 295, "set", EventKind::Memset, t.memset({64, 10, 0xAB, MemKind::Device}));
    t.r.syncs.push_back({11, 2, true, 77});
    t.event(stream, 296, 299, "sync", EventKind::Sync, 0);
    t.r.graph_executions.push_back({12, 3, 4});
    t.event(stream, 400, 500, "graph", EventKind::GraphExecution, 0);
    t.r.cuda_events.push_back({13, 1, 77});
    t.r.lanes[stream].instants.time_ns.push_back(210);
    t.r.lanes[stream].instants.name_id.push_back(t.r.strings.intern("event record"));
    t.r.lanes[stream].instants.payload.push_back(0);
    t.r.gpu_page_faults.push_back({0xdead0000, 12, 2});
    t.r.cpu_page_faults.push_back({0xbeef0000, 0x401000, t.r.strings.intern("0x401000"), t.r.strings.intern("a.cu"), 17,
                                   t.r.strings.intern("libc.so.6"), true});
    t.r.migrations.push_back({0, 2, 0xdead0000});
    t.r.peer_copies.push_back({0, 0, 1, 1, 2});
    t.r.process_streams.push_back(
        {int64_t{1} << 48, t.r.strings.intern("/tmp/pid_1_stdout.log"), t.r.strings.intern("hello")});
    t.r.capture_options.push_back({t.r.strings.intern("CAPTURE_EVENT_TYPE"), t.r.strings.intern("Cuda")});
    t.r.generic_event_sources.push_back({uint64_t{1} << 48, t.r.strings.intern("GpuMetrics"), 3});
    t.r.generic_event_types.push_back({(uint64_t{1} << 48) | 7, 0});
    t.r.generic_event_fields.push_back({(uint64_t{1} << 48) | 7, 0, t.r.strings.intern("SM Active"), 4, 1, 1});
    t.r.kernel_graph_nodes.push_back({0, 99});
    t.r.graph_api_events.push_back({10, 20, thread, t.r.strings.intern("cudaGraphInstantiate"), true, 1, 2, 3});
    t.r.cuda_api_results.push_back({thread, 6, 300, 600});
    t.r.unusual_samples.push_back({thread, 2, 150, 40});
    t.r.nvtx_other_starts_ns = {5, 7};
    t.r.nvtx_domains.push_back({5, thread, t.r.strings.intern("cuBLAS")});
    t.r.profiler_overhead.push_back({1, 2, process, t.r.strings.intern("CUPTI Buffer flush"), thread, 3});
    t.r.stacks.frame_function = {t.r.strings.intern("main"), t.r.strings.intern("f")};
    t.r.stacks.frame_module = {t.r.strings.intern("/bin/a"), t.r.strings.intern("/bin/a")};
    t.r.stacks.node_frame = {0, 1};
    t.r.stacks.node_parent = {kNoStack, 0};
    t.r.backtraces.push_back({thread, uint8_t(LaneKind::CudaApi), 100, 1, 0});
    t.r.backtrace_frame_details.push_back({0x401000, kAbsentFrameField, kAbsentFrameField, 1, kAbsentFrameField, true});
    t.r.sample_frame_details.push_back({-4096, 1, 0, 0, 7, true});
    t.r.file_order.cuda_api = {{api, 1, 1, false}, {api, 0, 1, false}};
    // The file stores runs of any lane as they are.
    t.r.file_order.osrt = {{stream, 0, 1, true}};
    t.r.file_order.cpu_samples = {{nvtx, 0, 2, false}};
    t.r.file_order.sched = {{api, 1, 3, false}};
    Counter counter;
    counter.name_id = t.r.strings.intern("SM active"), counter.unit_id = t.r.strings.intern("%");
    counter.gpu = gpu, counter.derived = true, counter.time_ns = {0, 10}, counter.value = {0.5, 1.0 / 3};
    t.r.counters.push_back(counter);
    t.r.cpu_utilization_counter = 0;
    t.r.nsys_messages.push_back({-5, 1, 2, 3, process, "a message from nsys", int64_t{1} << 48});
    t.r.pytorch_memory.push_back({150, 0x7f0000001000, 4096, 8192, 2 << 20, thread, 0, kPytorchDeviceCuda});
    t.r.cuda_memory_events.push_back({160, 0x7f0000002000, 1 << 20, 0x401000, process, gpu, 1, 11,
                                      t.r.strings.intern("__unnamed_1"), MemKind::DeviceStatic, true});
    MachineGpu machineGpu;
    machineGpu[GpuProperty::Id] = 1;
    machineGpu[GpuProperty::Name] = t.r.strings.intern("NVIDIA H200");
    machineGpu[GpuProperty::SmCount] = 132;
    t.r.machine_gpus.push_back(machineGpu);
    t.r.system_properties.push_back({619, t.r.strings.intern("Local (CLI)"), t.r.strings.intern("node-17")});
    t.r.diagnostics = {{"a_problem", 3}, {"b_problem", 1}};
    t.r.meta = {"nsys-sqlite",
                "NVIDIA Nsight Systems",
                "2025.3",
                1700000000,
                -25'200'000'000'000,
                7'646'435'850,
                8'208'633'065,
                0,
                6'000'000'400,
                3,
                "native",
                "2025.3.2",
                "/tmp/every-table.sqlite"};
    t.freeze();
    REQUIRE(t.r.lanes[api].events.long_durations.size() == 1);
    return std::make_unique<Report>(std::move(t.r));
}

// A skeleton (ReportCache::load's onSkeleton) holds `report`'s rows and nothing more: its
// metadata, processes, threads and GPUs (names compared as text), its lanes in order with their
// kind, names and owners, frozen and without events, no counters or side tables.
void requireSkeletonOf(const Report& skeleton, const Report& report) {
    CHECK(skeleton.meta.source_path == report.meta.source_path);
    CHECK(skeleton.meta.begin_ns == report.meta.begin_ns);
    CHECK(skeleton.meta.end_ns == report.meta.end_ns);
    CHECK(skeleton.meta.rank == report.meta.rank);
    CHECK(skeleton.meta.format == report.meta.format);
    REQUIRE(skeleton.processes.size() == report.processes.size());
    for (size_t i = 0; i < report.processes.size(); ++i) {
        CHECK(skeleton.processes[i].pid == report.processes[i].pid);
        CHECK(skeleton.str(skeleton.processes[i].name_id) == report.str(report.processes[i].name_id));
    }
    REQUIRE(skeleton.threads.size() == report.threads.size());
    for (size_t i = 0; i < report.threads.size(); ++i) {
        CHECK(skeleton.threads[i].tid == report.threads[i].tid);
        CHECK(skeleton.threads[i].process == report.threads[i].process);
        CHECK(skeleton.str(skeleton.threads[i].name_id) == report.str(report.threads[i].name_id));
    }
    REQUIRE(skeleton.gpus.size() == report.gpus.size());
    for (size_t i = 0; i < report.gpus.size(); ++i)
        CHECK(skeleton.str(skeleton.gpus[i].name_id) == report.str(report.gpus[i].name_id));
    REQUIRE(skeleton.lanes.size() == report.lanes.size());
    REQUIRE_FALSE(skeleton.lanes.empty());
    for (size_t i = 0; i < report.lanes.size(); ++i) {
        const Lane& s = skeleton.lanes[i];
        const Lane& l = report.lanes[i];
        INFO("lane " << i);
        CHECK(s.kind == l.kind);
        CHECK(skeleton.str(s.name_id) == report.str(l.name_id));
        CHECK(s.process == l.process);
        CHECK(s.thread == l.thread);
        CHECK(s.gpu == l.gpu);
        CHECK(s.stream_id == l.stream_id);
        CHECK(s.context_id == l.context_id);
        CHECK(s.cpu == l.cpu);
        CHECK(s.events.size() == 0);
        CHECK(s.instants.size() == 0);
        CHECK(s.isFrozen());
    }
    CHECK(skeleton.counters.empty());
    CHECK(skeleton.kernels.empty());
    CHECK(skeleton.cpu_utilization_counter == -1);
}

}  // namespace

TEST_CASE("FastHash is XXH64, whatever the split of its input") {
    CHECK(fastHash("", 0) == 0xEF46DB3751D8E999ull);
    CHECK(fastHash("a", 1) == 0xD24EC4F1A98C6E5Bull);
    CHECK(fastHash("abc", 3) == 0x44BC2CF5AD770999ull);
    const std::string s = "Nobody inspects the spammish repetition";
    CHECK(fastHash(s.data(), s.size()) == 0xFBCEA83C8A378BF1ull);
    std::string big(1000, 'x');
    for (size_t i = 0; i < big.size(); ++i) big[i] = char(i * 31 + 7);
    const uint64_t whole = fastHash(big.data(), big.size(), 99);
    for (const size_t step : {1, 5, 31, 32, 33, 100, 999}) {
        FastHash split(99);
        for (size_t at = 0; at < big.size(); at += step) split.update(big.data() + at, std::min(step, big.size() - at));
        CHECK(split.digest() == whole);
    }
}

TEST_CASE("a report read back from the cache equals its fresh import, field by field") {
    TempCache temp("equal");
    std::vector<std::filesystem::path> files = {
        dataFile("nsys-2025.3/cpu_1gpu.nsys-rep"),
        dataFile("nsys-2025.3/ddp_rank0.blobs.sqlite"),  // NVTX payloads on ranges and their Nccl copies
        dataFile("nsys-2025.3/cuda_graphs_nodes.nsys-rep"),
        dataFile("nsys-2025.3/cuda_graphs.nsys-rep"),
        dataFile("nsys-2025.3/unified_memory.nsys-rep"),
        dataFile("nsys-2025.3/train_metrics.nsys-rep"),
        dataFile("nsys-2025.3/train_metrics.sqlite"),
        dataFile("nsys-2025.3/unified_memory.sqlite"),
        dataFile("nsys-2022.4/openmp_loops.nsys-rep"),
        dataFile("kineto/train_1gpu_rank0.pt.trace.json"),
        dataFile("kineto/ddp_rank0.pt.trace.json.gz"),
        dataFile("kineto/pytorch_profiled_gpu.pt.trace.json.gz"),  // with memory events
        dataFile("fuzz/small.pftrace"),
        dataFile("fuzz/small_kinds.pftrace"),
    };
    for (const char* shared :
         {"public/vospascal__atrium__trace.pftrace", "public/openhackathons-org__AI-Profiler__baseline_nvtx.nsys-rep",
          "public/facebookresearch__HolisticTraceAnalysis__rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz",
          "public/mpi-jacobi/openhackathons-org__gpubootcamp__report3.qdrep"})
        if (const auto file = sharedFile(shared); !file.empty()) files.push_back(file);
    // What the files hold between them, so that no table is compared empty everywhere.
    std::set<std::string> seen;
    for (const auto& file : files) {
        const auto fresh = importOk(file);
        const auto key = ReportCache::key(file, "native");
        REQUIRE(key);
        requireEqual(*fresh, *storeAndLoad(temp.cache, *fresh, *key));
        const Report& r = *fresh;
        const std::pair<const char*, bool> holds[] = {
            {"cpu samples", r.stacks.nodeCount() > 0},
            {"backtraces", !r.backtraces.empty()},
            {"counters", !r.counters.empty()},
            {"graph api events", !r.graph_api_events.empty()},
            {"kernel graph nodes", !r.kernel_graph_nodes.empty()},
            {"graph executions", !r.graph_executions.empty()},
            {"migrations", !r.migrations.empty()},
            {"gpu page faults", !r.gpu_page_faults.empty()},
            {"cpu page faults", !r.cpu_page_faults.empty()},
            {"nsys messages", !r.nsys_messages.empty()},
            {"diagnostics", !r.diagnostics.empty()},
            {"cuda events", !r.cuda_events.empty()},
            {"syncs", !r.syncs.empty()},
            {"memsets", !r.memsets.empty()},
            {"nvtx", !r.nvtx.empty()},
            {"recorded names", !r.recorded_names.empty()},
            {"pytorch memory", !r.pytorch_memory.empty()},
            {"cuda memory events", !r.cuda_memory_events.empty()},
            {"machine gpus", !r.machine_gpus.empty()},
            {"system properties", !r.system_properties.empty()},
            {"nvtx payloads", !r.nvtx_payloads.rows.empty()},
            {"nvtx payload registered strings", !r.nvtx_payloads.registered_strings.empty()},
        };
        for (const auto& [what, held] : holds)
            if (held) seen.insert(what);
        seen.insert("format " + r.meta.format);
    }
    for (const char* what : {"cpu samples",
                             "backtraces",
                             "counters",
                             "graph api events",
                             "kernel graph nodes",
                             "graph executions",
                             "migrations",
                             "gpu page faults",
                             "cpu page faults",
                             "nsys messages",
                             "diagnostics",
                             "cuda events",
                             "syncs",
                             "memsets",
                             "nvtx",
                             "recorded names",
                             "pytorch memory",
                             "cuda memory events",
                             "machine gpus",
                             "system properties",
                             "nvtx payloads",
                             "nvtx payload registered strings"}) {
        INFO(what);
        CHECK(seen.count(what));
    }
    for (const char* format : {"nsys-rep", "nsys-sqlite", "kineto-json", "perfetto"}) {
        INFO(format);
        CHECK(seen.count("format " + std::string(format)));
    }
}

// The file mapped at `address` in this process (/proc/self/maps), or "" when none is.
std::string mappedFileAt(const void* address) {
    std::ifstream maps("/proc/self/maps");
    const auto at = reinterpret_cast<uintptr_t>(address);
    for (std::string line; std::getline(maps, line);) {
        uintptr_t begin = 0, end = 0;
        if (std::sscanf(line.c_str(), "%" SCNxPTR "-%" SCNxPTR, &begin, &end) != 2 || at < begin || at >= end) continue;
        const size_t path = line.find('/');
        return path == std::string::npos ? std::string() : line.substr(path);
    }
    return {};
}

TEST_CASE("a loaded report's events lie in its mapped entry, which stays readable once the entry is deleted") {
    TempCache temp("mapped");
    const auto file = dataFile("nsys-2025.3/cuda_graphs.nsys-rep");
    const auto fresh = importOk(file);
    const size_t watchedBefore = watchedMappings();
    std::unique_ptr<Report> loaded = storeAndLoad(temp.cache, *fresh, "k");
    CHECK(watchedMappings() == watchedBefore + 1);
    size_t viewed = 0;
    for (const Lane& lane : loaded->lanes) {
        if (lane.events.size() == 0) continue;
        CHECK(mappedFileAt(lane.events.start_ns.data()) == temp.cache.entryPath("k").string());
        CHECK(mappedFileAt(lane.events.kind.data()) == temp.cache.entryPath("k").string());
        ++viewed;
    }
    CHECK(viewed > 3);
    // The entry deleted (as the bound or another process may do), the report reads the same.
    std::filesystem::remove(temp.cache.entryPath("k"));
    requireEqual(*fresh, *loaded);
    // The loaded report gone, the mapping goes.
    const void* events = nullptr;
    for (const Lane& lane : loaded->lanes)
        if (lane.events.size() > 0) events = lane.events.start_ns.data();
    loaded.reset();
    CHECK(mappedFileAt(events).empty());
    CHECK(watchedMappings() == watchedBefore);  // and its watch
}

TEST_CASE("counters, the graph, unified memory, event, call stack and overhead tables view their entry too") {
    TempCache temp("mapped-tables");
    std::set<std::string> viewed;  // the tables seen with rows, each viewing its entry
    int key = 0;
    for (const char* name : {"nsys-2025.3/train_metrics.nsys-rep", "nsys-2025.3/cuda_graphs.nsys-rep",
                             "nsys-2025.3/cuda_graphs_nodes.nsys-rep", "nsys-2025.3/unified_memory.nsys-rep",
                             "nsys-2025.3/cpu_1gpu.nsys-rep", "nsys-2025.3/train_1gpu.nsys-rep",
                             "kineto/pytorch_profiled_gpu.pt.trace.json.gz"}) {
        INFO(name);
        const auto fresh = importOk(dataFile(name));
        const std::string k = std::to_string(key++);
        const std::unique_ptr<Report> loaded = storeAndLoad(temp.cache, *fresh, k);
        const std::string entry = temp.cache.entryPath(k).string();
        auto inEntry = [&](const char* table, const auto& column) {
            if (column.empty()) return;
            INFO(table);
            CHECK(mappedFileAt(column.data()) == entry);
            viewed.insert(table);
        };
        for (const Counter& counter : loaded->counters) {
            inEntry("counter time", counter.time_ns);
            inEntry("counter value", counter.value);
        }
        inEntry("graph_executions", loaded->graph_executions);
        inEntry("kernel_graph_nodes", loaded->kernel_graph_nodes);
        inEntry("graph_api_events", loaded->graph_api_events);
        inEntry("cuda_events", loaded->cuda_events);
        inEntry("gpu_page_faults", loaded->gpu_page_faults);
        inEntry("cpu_page_faults", loaded->cpu_page_faults);
        inEntry("migrations", loaded->migrations);
        inEntry("peer_copies", loaded->peer_copies);
        inEntry("process_streams", loaded->process_streams);
        inEntry("capture_options", loaded->capture_options);
        inEntry("generic_event_fields", loaded->generic_event_fields);
        inEntry("backtraces", loaded->backtraces);
        inEntry("pytorch_memory", loaded->pytorch_memory);
        inEntry("cuda_memory_events", loaded->cuda_memory_events);
        inEntry("machine_gpus", loaded->machine_gpus);
        inEntry("system_properties", loaded->system_properties);
        inEntry("frame_function", loaded->stacks.frame_function);
        inEntry("frame_module", loaded->stacks.frame_module);
        inEntry("node_frame", loaded->stacks.node_frame);
        inEntry("node_parent", loaded->stacks.node_parent);
        inEntry("nvtx_other_starts_ns", loaded->nvtx_other_starts_ns);
        inEntry("nvtx_domains", loaded->nvtx_domains);
        inEntry("profiler_overhead", loaded->profiler_overhead);
        requireEqual(*fresh, *loaded);
    }
    std::string seen;
    for (const std::string& table : viewed) seen += table + " ";
    INFO("viewed: " << seen);
    CHECK(viewed.size() == 24);
}

TEST_CASE("an entry cut short in place under a loaded report reads as zeros past the cut, not SIGBUS") {
    TempCache temp("cut");
    const auto fresh = importOk(dataFile("nsys-2025.3/cuda_graphs.nsys-rep"));
    const std::unique_ptr<Report> loaded = storeAndLoad(temp.cache, *fresh, "k");
    CHECK_FALSE(cache::aMappedModelWasCutShort());
    // Cut to its first page, as a hand with `truncate` would: every column lies after it.
    std::filesystem::resize_file(temp.cache.entryPath("k"), 4096);
    int64_t sum = 0;
    size_t events = 0, freshEvents = 0;
    for (const Lane& lane : loaded->lanes) {
        for (const int64_t start : lane.events.start_ns) sum += start;
        events += lane.events.size();
    }
    for (const Lane& lane : fresh->lanes) freshEvents += lane.events.size();
    CHECK(events == freshEvents);  // the columns keep their lengths
    CHECK(sum == 0);               // every start reads as zero
    CHECK(cache::aMappedModelWasCutShort());
    // The entry is not used again: too short.
    std::string why;
    CHECK_FALSE(temp.cache.load("k", "x", why));
    CHECK(why.find("dropped") != std::string::npos);
}

TEST_CASE("a report with every table filled and the viewer's lanes reads back equal") {
    TempCache temp("every-table");
    const auto built = everyTableReport();
    requireEqual(*built, *storeAndLoad(temp.cache, *built, "every-table"));

    const auto file = dataFile("nsys-2025.3/train_1gpu.nsys-rep");
    const auto viewed = importAsViewed(file);
    REQUIRE(std::any_of(viewed->lanes.begin(), viewed->lanes.end(),
                        [](const Lane& l) { return l.kind == LaneKind::NvtxGpuProjection && l.events.size() > 0; }));
    const auto key = ReportCache::key(file, "native+view-lanes");
    REQUIRE(key);
    requireEqual(*viewed, *storeAndLoad(temp.cache, *viewed, *key));

    // What the viewer saves: its NVTX-on-GPU lanes deferred (empty), still deferred once read back.
    ImportOptions options;
    options.add_view_lanes = [](Report& r) { addDeferredNvtxProjectionLanes(r); };
    const auto deferred = importOk(file, options);
    const auto loaded = storeAndLoad(temp.cache, *deferred, "deferred");
    requireEqual(*deferred, *loaded);
    size_t deferredLanes = 0;
    for (size_t li = 0; li < loaded->lanes.size(); ++li) deferredLanes += isDeferredLane(*loaded, li) ? 1 : 0;
    CHECK(deferredLanes == 1);

    // Saved with its lanes built by then in place of the empty ones, as a first open saves those
    // it drew: read back, the model is the one whose lanes were projected at import.
    std::vector<DeferredLaneEvents> projected;
    for (size_t li = 0; li < deferred->lanes.size(); ++li)
        for (DeferredLaneEvents& lane : projectDeferredLanes(*deferred, li, 2)) projected.push_back(std::move(lane));
    REQUIRE(projected.size() == 1);
    const auto replacedLoaded = storeAndLoad(temp.cache, *deferred, "replaced", [&](size_t li) -> const Lane* {
        return li == projected[0].lane ? &projected[0].content : nullptr;
    });
    requireEqual(*viewed, *replacedLoaded);
    CHECK_FALSE(isDeferredLane(*replacedLoaded, projected[0].lane));
}

TEST_CASE("the variants name how a model was made, as the keys of earlier entries did") {
    CHECK(ReportCache::variant(NsysReader::Native, "", true) == "native+view-lanes");  // the viewer's
    CHECK(ReportCache::variant(NsysReader::Native, "", false) == "native");            // Python's
    CHECK(ReportCache::variant(NsysReader::NsysExport, "/opt/nsys", true) == "nsys-export:/opt/nsys+view-lanes");
}

TEST_CASE("the comparison sees any changed field") {
    TempCache temp("mutate");
    const auto fresh = everyTableReport();
    std::string error;
    REQUIRE(temp.cache.store(*fresh, "k", error));
    // Each change is made to a report of its own, read back from the same entry.
    const std::pair<const char*, std::function<void(Report&)>> changes[] = {
        {"lanes[0].events.payload[1]: 6 vs 9", [](Report& r) { r.lanes[0].events.payload[1] = 9; }},
        {"lanes[0].events.long_durations[0].duration_ns",
         [](Report& r) { ++r.lanes[0].events.long_durations[0].duration_ns; }},
        {"lanes[2].instants.time_ns[0]", [](Report& r) { r.lanes[2].instants.time_ns[0] = 1; }},
        {"lanes[1].depth_begin", [](Report& r) { r.lanes[1].depth_begin.push_back(2); }},
        {"lanes[2].context_id", [](Report& r) { r.lanes[2].context_id = 2; }},
        {"meta.rank: 3 vs 4", [](Report& r) { r.meta.rank = 4; }},
        {"strings.size()", [](Report& r) { r.strings.intern("one more"); }},
        {"threads[0].priority", [](Report& r) { r.threads[0].priority = 0; }},
        {"recorded_names[1].priority", [](Report& r) { r.recorded_names[1].priority = kNoPriority; }},
        {"recorded_names[2].tid", [](Report& r) { r.recorded_names[2].tid = kProcessOwnName; }},
        {"counters[0].value[1]", [](Report& r) { r.counters[0].value[1] = 0.3333; }},
        {"counters[0].derived", [](Report& r) { r.counters[0].derived = false; }},
        {"kernel_configs[0].launch_type", [](Report& r) { r.kernel_configs[0].launch_type = 2; }},
        {"kernel_configs[0].est_achieved_occupancy_pct",
         [](Report& r) { r.kernel_configs[0].est_achieved_occupancy_pct = 13; }},
        {"memcpys[0].dst_kind", [](Report& r) { r.memcpys[0].dst_kind = MemKind::Pinned; }},
        {"nvtx[1].start_end", [](Report& r) { r.nvtx[1].start_end = false; }},
        {"nvtx[0].input_shapes_id", [](Report& r) { r.nvtx[0].input_shapes_id = 0; }},
        {"graph_api_events[0].node", [](Report& r) { r.graph_api_events[0].node = false; }},
        {"cpu_page_faults[0].source_line", [](Report& r) { r.cpu_page_faults[0].source_line = 1; }},
        {"migrations[0].cause", [](Report& r) { r.migrations[0].cause = 3; }},
        {"peer_copies[0].dst_context", [](Report& r) { r.peer_copies[0].dst_context = 7; }},
        {"sample_frame_details[0].unwind_method", [](Report& r) { r.sample_frame_details[0].unwind_method = 8; }},
        {"process_streams[0].global_pid", [](Report& r) { r.process_streams[0].global_pid = 3; }},
        {"capture_options[0].value_id", [](Report& r) { r.capture_options[0].value_id = 1; }},
        {"generic_event_fields[0].offset", [](Report& r) { r.generic_event_fields[0].offset = 9; }},
        {"cpu_page_faults[0].pc_unresolved", [](Report& r) { r.cpu_page_faults[0].pc_unresolved = false; }},
        {"cuda_api_results[0].result", [](Report& r) { r.cuda_api_results[0].result = 1; }},
        {"nvtx_other_starts_ns[1]", [](Report& r) { r.nvtx_other_starts_ns[1] = 8; }},
        {"nvtx_domains[0].name_id", [](Report& r) { r.nvtx_domains[0].name_id = 0; }},
        {"profiler_overhead[0].thread", [](Report& r) { r.profiler_overhead[0].thread = -1; }},
        {"stacks.node_parent[1]", [](Report& r) { r.stacks.node_parent[1] = kNoStack; }},
        {"backtraces[0].stack", [](Report& r) { r.backtraces[0].stack = 0; }},
        {"nsys_messages[0].text", [](Report& r) { r.nsys_messages[0].text += "!"; }},
        {"pytorch_memory[0].bytes", [](Report& r) { r.pytorch_memory[0].bytes = -4096; }},
        {"cuda_memory_events[0].freed", [](Report& r) { r.cuda_memory_events[0].freed = false; }},
        {"machine_gpus[0].smCount", [](Report& r) { r.machine_gpus[0][GpuProperty::SmCount] = 114; }},
        {"system_properties[0].name_enum", [](Report& r) { r.system_properties[0].name_enum = 605; }},
        {"diagnostics[b_problem]", [](Report& r) { r.diagnostics["b_problem"] = 2; }},
        {"cpu_utilization_counter", [](Report& r) { r.cpu_utilization_counter = -1; }},
    };
    for (const auto& [expected, change] : changes) {
        std::string why;
        const auto changed = temp.cache.load("k", fresh->meta.source_path, why);
        REQUIRE(changed);
        REQUIRE_FALSE(firstDifference(*fresh, *changed));
        change(*changed);
        const auto difference = firstDifference(*fresh, *changed);
        INFO(expected);
        REQUIRE(difference);
        CHECK(difference->starts_with(expected));
    }
}

TEST_CASE("padding bytes are written as zeros: the same report makes the same file") {
    TempCache temp("padding");
    const auto a = everyTableReport();
    auto b = everyTableReport();
    // Garbage in the padding of b's structs (Process: 4 bytes after name_id; GraphApiEvent after node).
    for (Process& p : b->processes) std::memset(reinterpret_cast<std::byte*>(&p) + 12, 0xAB, 4);
    for (GraphApiEvent& g : b->graph_api_events) std::memset(reinterpret_cast<std::byte*>(&g) + 25, 0xCD, 7);
    std::string error;
    REQUIRE(temp.cache.store(*a, "a", error));
    REQUIRE(temp.cache.store(*b, "b", error));
    CHECK(readFile(temp.cache.entryPath("a")) == readFile(temp.cache.entryPath("b")));
}

TEST_CASE("a damaged or stale entry is deleted, never used, and stored again") {
    TempCache temp("damaged");
    const auto report = everyTableReport();
    std::string error;
    REQUIRE(temp.cache.store(*report, "k", error));
    const auto entry = temp.cache.entryPath("k");
    const std::string good = readFile(entry);
    const auto patched = [&](size_t offset, const void* bytes, size_t size) {
        std::string copy = good;
        std::memcpy(copy.data() + offset, bytes, size);
        return copy;
    };
    std::mt19937_64 random(7);
    std::string noise(good.size(), '\0');
    for (char& c : noise) c = char(random());
    const uint32_t newerFormat = cache::kModelFormatVersion + 1;
    const char otherVersion[32] = "0.0.1";
    const uint64_t otherLayout = 12345;
    // A byte in the middle of the largest section (the middle of the file could be padding,
    // which no hash covers).
    const SectionTable table = sectionTable(good);
    const auto largest =
        std::max_element(table.begin(), table.end(), [](const auto& a, const auto& b) { return a.bytes < b.bytes; });
    REQUIRE(largest->bytes > 0);
    std::string flipped = good;
    flipped[largest->offset + largest->bytes / 2] ^= 0x10;
    std::string flippedTable = good;
    flippedTable[sizeof(cache::ModelFileHeader) + offsetof(cache::SectionEntry, hash)] ^= 0x10;

    const std::pair<const char*, std::string> damages[] = {
        {"truncated", good.substr(0, good.size() / 2)},
        {"truncated", good.substr(0, good.size() - 1)},
        {"too short", std::string()},
        {"checksum mismatch in section", flipped},
        {"checksum mismatch in the section table", flippedTable},
        {"not a Lanescope model file", noise},
        {"model format", patched(offsetof(cache::ModelFileHeader, format_version), &newerFormat, sizeof newerFormat)},
        {"written by Lanescope 0.0.1", patched(offsetof(cache::ModelFileHeader, app_version), otherVersion, 32)},
        {"another model layout",
         patched(offsetof(cache::ModelFileHeader, layout_fingerprint), &otherLayout, sizeof otherLayout)},
    };
    for (const auto& [reason, bytes] : damages) {
        INFO(reason);
        writeBytes(entry, bytes);
        std::string why;
        CHECK_FALSE(temp.cache.load("k", "/x", why));
        CHECK(why.find(reason) != std::string::npos);
        CHECK_FALSE(std::filesystem::exists(entry));
        requireEqual(*report, *storeAndLoad(temp.cache, *report, "k"));
    }
}

TEST_CASE("padding between sections is covered by no hash: changed, the entry loads the same report") {
    TempCache temp("padding-unchecked");
    const auto report = everyTableReport();
    std::string error;
    REQUIRE(temp.cache.store(*report, "k", error));
    const auto entry = temp.cache.entryPath("k");
    std::string bytes = readFile(entry);
    // Every byte between the table and the first section, and between two sections, made 0xA5.
    size_t padding = 0;
    uint64_t end = cache::kModelTableEnd;
    for (const cache::SectionEntry& e : sectionTable(bytes)) {
        REQUIRE(e.offset >= end);
        for (; end < e.offset; ++end, ++padding) bytes[end] = char(0xA5);
        end = e.offset + e.bytes;
    }
    if (padding == 0) {
        WARN("the file of the test report has no padding: nothing to change");
        return;
    }
    writeBytes(entry, bytes);
    std::string why;
    const auto loaded = temp.cache.load("k", report->meta.source_path, why);
    INFO(why);
    REQUIRE(loaded);
    requireEqual(*report, *loaded);
}

TEST_CASE("an entry whose report breaks an invariant is rejected despite a right checksum") {
    TempCache temp("invariant");
    const std::pair<const char*, std::function<void(Report&)>> breaks[] = {
        {"lanes[2].events.payload[0]", [](Report& r) { r.lanes[2].events.payload[0] = 1000; }},
        {"lanes[0].events: columns of different lengths", [](Report& r) { r.lanes[0].events.depth.pop_back(); }},
        {"lanes[1].depth_begin", [](Report& r) { r.lanes[1].depth_begin.back() = 99; }},
        {"lanes[0].process", [](Report& r) { r.lanes[0].process = 5; }},
        {"threads[0].name_id", [](Report& r) { r.threads[0].name_id = 1u << 30; }},
        {"recorded_names[2].name_id", [](Report& r) { r.recorded_names[2].name_id = 1u << 30; }},
        {"stacks.node_parent[1]", [](Report& r) { r.stacks.node_parent[1] = 1; }},
        {"kernels[0].config", [](Report& r) { r.kernels[0].config = 1; }},
        {"lanes[0].kind", [](Report& r) { r.lanes[0].kind = LaneKind(200); }},
        {"nvtx[1]: a flag", [](Report& r) { std::memset(&r.nvtx[1].has_color, 2, 1); }},
    };
    for (const auto& [reason, breakIt] : breaks) {
        INFO(reason);
        auto report = everyTableReport();
        breakIt(*report);
        std::string error, why;
        REQUIRE(temp.cache.store(*report, "k", error));
        CHECK_FALSE(temp.cache.load("k", "/x", why));
        CHECK(why.find(reason) != std::string::npos);
        CHECK_FALSE(std::filesystem::exists(temp.cache.entryPath("k")));
    }
}

TEST_CASE("bytes changed anywhere, the checksum made right again: a report or a reason, never a crash") {
    TempCache temp("mangled");
    const auto report = everyTableReport();
    std::string error;
    REQUIRE(temp.cache.store(*report, "k", error));
    const auto entry = temp.cache.entryPath("k");
    const std::string good = readFile(entry);
    constexpr size_t kHeader = sizeof(cache::ModelFileHeader);
    std::string same = good;
    rehash(same);
    REQUIRE(same == good);  // rehash makes the writer's hashes
    std::mt19937_64 random(11);
    size_t rejected = 0;
    for (int run = 0; run < 2000; ++run) {
        std::string bytes = good;
        for (int k = 0, changes = 1 + int(random() % 4); k < changes; ++k)
            bytes[kHeader + random() % (bytes.size() - kHeader)] ^= char(1 + random() % 255);
        rehash(bytes);
        writeBytes(entry, bytes);
        std::string why;
        // The rows given before a load fails are safe to read too.
        const auto loaded = temp.cache.load("k", "/x", why, {}, 1 + run % 3, [](std::shared_ptr<const Report> s) {
            for (const Lane& lane : s->lanes) {
                (void)s->str(lane.name_id);
                if (lane.process >= 0) (void)s->str(s->processes.at(size_t(lane.process)).name_id);
                if (lane.thread >= 0) (void)s->str(s->threads.at(size_t(lane.thread)).name_id);
                if (lane.gpu >= 0) (void)s->str(s->gpus.at(size_t(lane.gpu)).name_id);
            }
        });
        CHECK((loaded != nullptr) == why.empty());
        rejected += !loaded;
        if (loaded) {  // what was accepted is safe to read (under ASan and UBSan in CI)
            (void)firstDifference(*report, *loaded);
            (void)loaded->counts();
        }
    }
    CHECK(rejected > 1000);  // most changes break something checked
}

TEST_CASE("a cancelled load keeps the entry") {
    TempCache temp("cancel");
    const auto report = everyTableReport();
    std::string error, why;
    REQUIRE(temp.cache.store(*report, "k", error));
    std::stop_source stop;
    stop.request_stop();
    CHECK_FALSE(temp.cache.load("k", "/x", why, stop.get_token()));
    CHECK(why.empty());
    CHECK(std::filesystem::exists(temp.cache.entryPath("k")));
    CHECK_FALSE(ReportCache::key(dataFile("fuzz/small.sqlite"), "v", stop.get_token()));
}

TEST_CASE("the cache keeps within its bound, dropping the least recently used entries") {
    const auto report = everyTableReport();
    uint64_t entryBytes = 0;
    {
        TempCache measure("measure");
        std::string error;
        REQUIRE(measure.cache.store(*report, "k", error));
        entryBytes = std::filesystem::file_size(measure.cache.entryPath("k"));
    }
    TempCache temp("bound", entryBytes * 5 / 2);  // room for two entries
    std::string error, why;
    for (const char* key : {"k1", "k2", "k3"}) REQUIRE(temp.cache.store(*report, key, error));
    CHECK_FALSE(std::filesystem::exists(temp.cache.entryPath("k1")));
    CHECK(std::filesystem::exists(temp.cache.entryPath("k2")));
    CHECK(std::filesystem::exists(temp.cache.entryPath("k3")));
    REQUIRE(temp.cache.load("k2", "/x", why));  // now k3 is the least recently used
    REQUIRE(temp.cache.store(*report, "k4", error));
    CHECK(std::filesystem::exists(temp.cache.entryPath("k2")));
    CHECK_FALSE(std::filesystem::exists(temp.cache.entryPath("k3")));
    CHECK(std::filesystem::exists(temp.cache.entryPath("k4")));

    TempCache tiny("tiny", entryBytes - 1);
    CHECK_FALSE(tiny.cache.store(*report, "k", error));
    CHECK(error.find("larger than the cache") != std::string::npos);
    CHECK_FALSE(std::filesystem::exists(tiny.cache.entryPath("k")));
}

TEST_CASE("the cache folder is private and holds nothing but entries") {
    const auto root = tempDir("cache-private");
    const ReportCache cache(root / "a" / "b" / "models");
    const auto report = everyTableReport();
    std::string error;
    REQUIRE(cache.store(*report, "k1", error));
    REQUIRE(cache.store(*report, "k2", error));
    CHECK(mode(root / "a") == 0700);
    CHECK(mode(cache.dir()) == 0700);
    CHECK(mode(cache.entryPath("k1")) == 0600);
    CHECK(entryNames(cache.dir()) == std::vector<std::string>{"k1.model", "k2.model"});

    // A folder that cannot be made: a one-line reason, no exception.
    writeBytes(root / "file", "x");
    const ReportCache blocked(root / "file" / "models");
    CHECK_FALSE(blocked.store(*report, "k", error));
    CHECK(error.find("cannot create the cache folder") != std::string::npos);
    std::filesystem::remove_all(root);
}

TEST_CASE("keys follow the content, not the path; a hit names the file opened now") {
    TempCache temp("keys");
    const auto original = dataFile("nsys-2025.3/cuda_graphs.sqlite");
    const auto copy = temp.root / "renamed_copy.sqlite";
    std::filesystem::copy_file(original, copy);
    const auto key = ReportCache::key(original, "native");
    REQUIRE(key);
    CHECK(ReportCache::key(copy, "native") == key);
    CHECK(ReportCache::key(original, "native+view-lanes") != key);
    CHECK(ReportCache::key(dataFile("nsys-2025.3/cuda_graphs_nodes.sqlite"), "native") != key);
    CHECK(key->find(LANESCOPE_VERSION) != std::string::npos);
    // The content: the XXH64 of the digests of the file's blocks, then its size.
    {
        const std::string content = readFile(original);
        std::vector<uint64_t> digests;
        for (size_t at = 0; at < content.size(); at += ReportCache::kKeyBlockBytes)
            digests.push_back(
                fastHash(content.data() + at, std::min<size_t>(ReportCache::kKeyBlockBytes, content.size() - at)));
        char start[40];
        std::snprintf(start, sizeof start, "%016" PRIx64 "-%016" PRIx64,
                      fastHash(digests.data(), digests.size() * sizeof(uint64_t)), uint64_t(content.size()));
        CHECK(key->starts_with(start));
    }
    // The build: this test program's own executable, hashed here apart.
    const std::string exe = readFile("/proc/self/exe");
    char build[18];
    std::snprintf(build, sizeof build, "+%016" PRIx64, fastHash(exe.data(), exe.size()));
    CHECK(key->find(build) != std::string::npos);
    CHECK_FALSE(ReportCache::key(temp.root / "missing.sqlite", "native"));

    // One changed byte, same size: another key.
    std::string bytes = readFile(copy);
    bytes[bytes.size() / 2] ^= 1;
    writeBytes(copy, bytes);
    CHECK(ReportCache::key(copy, "native") != key);

    const auto fresh = importOk(original);
    std::string error, why;
    REQUIRE(temp.cache.store(*fresh, *key, error));
    const auto loaded = temp.cache.load(*key, copy, why);
    REQUIRE(loaded);
    CHECK(loaded->meta.source_path == copy.string());
    CHECK(reportTitle(*loaded) == "renamed_copy.sqlite");
}

TEST_CASE("a load on any number of threads gives the rows first, then the same report") {
    TempCache temp("skeleton");
    const auto file = dataFile("nsys-2025.3/train_1gpu.nsys-rep");
    const auto viewed = importAsViewed(file);
    const auto built = everyTableReport();
    std::string error;
    REQUIRE(temp.cache.store(*viewed, "viewed", error));
    REQUIRE(temp.cache.store(*built, "built", error));
    for (const auto& [key, report] : {std::pair{"viewed", viewed.get()}, std::pair{"built", built.get()}})
        for (const unsigned threads : {1u, 2u, 3u, 8u, 0u}) {
            INFO(key << " on " << threads << " threads");
            std::vector<std::shared_ptr<const Report>> skeletons;
            bool loadReturned = false;
            std::string why;
            const auto loaded =
                temp.cache.load(key, report->meta.source_path, why, {}, threads, [&](std::shared_ptr<const Report> s) {
                    CHECK_FALSE(loadReturned);
                    skeletons.push_back(std::move(s));
                });
            loadReturned = true;
            INFO(why);
            REQUIRE(loaded);
            requireEqual(*report, *loaded);
            REQUIRE(skeletons.size() == 1);
            requireSkeletonOf(*skeletons.front(), *loaded);
        }
    // The lanes the viewer adds (NVTX on the GPU) are rows of the skeleton too.
    std::string why;
    std::shared_ptr<const Report> skeleton;
    REQUIRE(temp.cache.load("viewed", "/elsewhere/train_1gpu.nsys-rep", why, {}, 2,
                            [&](std::shared_ptr<const Report> s) { skeleton = std::move(s); }));
    REQUIRE(skeleton);
    CHECK(skeleton->meta.source_path == "/elsewhere/train_1gpu.nsys-rep");
    CHECK(std::any_of(skeleton->lanes.begin(), skeleton->lanes.end(),
                      [](const Lane& l) { return l.kind == LaneKind::NvtxGpuProjection; }));
}

TEST_CASE("the rows are given only once what they are made of is sound; damage after them still rejects") {
    TempCache temp("skeleton-damaged");
    const auto report = everyTableReport();
    std::string error;
    REQUIRE(temp.cache.store(*report, "k", error));
    const auto entry = temp.cache.entryPath("k");
    const std::string good = readFile(entry);
    const SectionTable table = sectionTable(good);
    const auto flippedIn = [&](cache::Section s) {
        const cache::SectionEntry& e = table[size_t(s)];
        REQUIRE(e.bytes > 0);
        std::string bytes = good;
        bytes[e.offset + e.bytes / 2] ^= 0x10;
        return bytes;
    };
    struct Case {
        const char* reason;
        std::string bytes;
        bool rows;  // whether the skeleton is given before the load fails
    };
    // A lane whose process is out of range, the hashes right.
    auto broken = everyTableReport();
    broken->lanes[0].process = 5;
    REQUIRE(temp.cache.store(*broken, "broken", error));
    const std::string brokenBytes = readFile(temp.cache.entryPath("broken"));
    auto expected = everyTableReport();  // the rows of the intact sections
    expected->meta.source_path = "/x";
    const Case cases[] = {
        {"checksum mismatch in section lanes.events.start_ns", flippedIn(cache::Section::EventStart), true},
        {"checksum mismatch in section kernels", flippedIn(cache::Section::Kernels), true},
        {"checksum mismatch in section lanes", flippedIn(cache::Section::Lanes), false},
        {"checksum mismatch in section threads", flippedIn(cache::Section::Threads), false},
        {"checksum mismatch in section strings.chars", flippedIn(cache::Section::PoolChars), false},
        {"lanes[0].process", brokenBytes, false},
    };
    for (const Case& c : cases)
        for (const unsigned threads : {1u, 2u}) {
            INFO(c.reason << " on " << threads << " threads");
            writeBytes(entry, c.bytes);
            std::string why;
            int given = 0;
            CHECK_FALSE(temp.cache.load("k", "/x", why, {}, threads, [&](std::shared_ptr<const Report> s) {
                ++given;
                requireSkeletonOf(*s, *expected);
            }));
            CHECK(why.find(c.reason) != std::string::npos);
            CHECK(given == (c.rows ? 1 : 0));
            CHECK_FALSE(std::filesystem::exists(entry));
        }
    // Stopped: no rows either.
    writeBytes(entry, good);
    std::stop_source stop;
    stop.request_stop();
    std::string why;
    bool given = false;
    CHECK_FALSE(temp.cache.load("k", "/x", why, stop.get_token(), 2, [&](auto) { given = true; }));
    CHECK_FALSE(given);
    CHECK(std::filesystem::exists(entry));
}

TEST_CASE("the key's content hash is the hash of its blocks' hashes, on any number of threads") {
    const auto file = dataFile("nsys-2025.3/cuda_graphs.sqlite");
    const std::string content = readFile(file);
    REQUIRE(content.size() > 100'000);
    for (const uint64_t block : {uint64_t{4096}, uint64_t{65'537}, uint64_t(content.size()), uint64_t{1} << 30}) {
        std::vector<uint64_t> digests;
        for (size_t at = 0; at < content.size(); at += block)
            digests.push_back(fastHash(content.data() + at, std::min<size_t>(block, content.size() - at)));
        const uint64_t expected = fastHash(digests.data(), digests.size() * sizeof(uint64_t));
        for (const unsigned threads : {1u, 2u, 3u, 8u}) {
            INFO("blocks of " << block << " bytes on " << threads << " threads");
            uint64_t size = 0;
            CHECK(ReportCache::contentHash(file, size, {}, block, threads) == expected);
            CHECK(size == content.size());
        }
    }
    // An empty file: the hash of no digests.
    TempCache temp("content-hash");
    std::filesystem::create_directories(temp.root);
    writeBytes(temp.root / "empty", "");
    uint64_t size = 1;
    CHECK(ReportCache::contentHash(temp.root / "empty", size) == fastHash(nullptr, 0));
    CHECK(size == 0);
    // Stopped: nothing.
    std::stop_source stop;
    stop.request_stop();
    CHECK_FALSE(ReportCache::contentHash(file, size, stop.get_token(), 4096, 2));
}

TEST_CASE("a file's content hash is noted and used while the file is unchanged; a change is hashed again") {
    const auto root = tempDir("cache-notes");
    std::filesystem::create_directories(root);
    const auto file = root / "report.sqlite";
    std::filesystem::copy_file(dataFile("nsys-2025.3/cuda_graphs.sqlite"), file);
    const ReportCache cache(root / "models", ReportCache::kDefaultMaxBytes, 0);  // notes trusted at once
    const cache::ContentNotes notes(cache.dir(), 0);
    const auto key = ReportCache::key(file, "native");
    REQUIRE(key);
    uint64_t size = 0;
    const auto content = ReportCache::contentHash(file, size);

    // The first key hashes the file and notes its hash; the next ones take it from the note.
    CHECK(cache.keyFor(file, "native") == key);
    const auto identity = cache::identityOf(file);
    REQUIRE(identity);
    CHECK(notes.find(*identity) == content);
    CHECK(mode(notes.notePath(*identity)) == 0600);
    notes.note(*identity, 0x1234, cache::wallClockNs());  // a note the file does not match
    const auto fromNote = cache.keyFor(file, "native");
    REQUIRE(fromNote);
    CHECK(fromNote->starts_with("0000000000001234-"));  // so the file was not read

    // One byte changed, same size, the modification time set back: its change time differs,
    // so it is hashed again.
    std::string bytes = readFile(file);
    bytes[bytes.size() / 3] ^= 1;
    writeBytes(file, bytes);
    const timespec times[2] = {{0, UTIME_OMIT},
                               {identity->modified_ns / 1'000'000'000, long(identity->modified_ns % 1'000'000'000)}};
    REQUIRE(::utimensat(AT_FDCWD, file.c_str(), times, 0) == 0);
    CHECK(cache::identityOf(file)->modified_ns == identity->modified_ns);
    const auto changed = cache.keyFor(file, "native");
    CHECK(changed == ReportCache::key(file, "native"));
    CHECK(changed != key);

    // A damaged note is not used.
    const auto now = cache::identityOf(file);
    REQUIRE(now);
    std::string note = readFile(notes.notePath(*now));
    note[note.size() / 2] ^= 1;
    writeBytes(notes.notePath(*now), note);
    CHECK_FALSE(notes.find(*now));
    CHECK(cache.keyFor(file, "native") == changed);

    // A note taken within racy_ns of the file's last change is not trusted.
    const cache::ContentNotes racy(cache.dir(), 2'000'000'000);
    const int64_t changedAt = std::max(now->modified_ns, now->changed_ns);
    racy.note(*now, 0x5678, changedAt + 1'000'000'000);
    CHECK_FALSE(racy.find(*now));
    racy.note(*now, 0x5678, changedAt + 2'000'000'000);
    CHECK(racy.find(*now) == 0x5678);
    std::filesystem::remove_all(root);
}

TEST_CASE("the cache notes at most kMaxNotes files, dropping the oldest notes") {
    const auto root = tempDir("cache-notes-bound");
    std::filesystem::create_directories(root);
    const cache::ContentNotes notes(root, 0);
    const size_t count = cache::ContentNotes::kMaxNotes + 5;
    for (uint64_t i = 0; i < count; ++i) notes.note({1, i, 10, 0, 0}, i, 1);
    size_t files = 0;
    for ([[maybe_unused]] const auto& item : std::filesystem::directory_iterator(root)) ++files;
    CHECK(files == cache::ContentNotes::kMaxNotes);
    CHECK(notes.find({1, count - 1, 10, 0, 0}) == count - 1);  // the newest is kept
    std::filesystem::remove_all(root);
}

TEST_CASE("LANESCOPE_CACHE=off turns the cache off") {
    ::unsetenv("LANESCOPE_CACHE");
    CHECK(ReportCache::enabled());
    ::setenv("LANESCOPE_CACHE", "off", 1);
    CHECK_FALSE(ReportCache::enabled());
    ::setenv("LANESCOPE_CACHE", "on", 1);
    CHECK(ReportCache::enabled());
    ::unsetenv("LANESCOPE_CACHE");
}
