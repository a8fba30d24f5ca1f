#include <zlib.h>

#include <catch2/catch.hpp>
#include <fstream>
#include <map>
#include <sstream>

#include "Absent.h"
#include "TestPaths.h"
#include "analysis/Registry.h"
#include "importers/FinishReport.h"
#include "importers/Importer.h"
#include "importers/kineto/KinetoImporter.h"
#include "tests/bench/KinetoTraceWriter.h"
#include "tests/support/ColumnEquality.h"

using namespace lanescope;
using namespace lanescope::test;

namespace {

std::unique_ptr<Report> importOk(const std::filesystem::path& path) {
    NullProgress progress;
    ImportResult result = importFile(path, {}, progress);
    INFO(path.string() << ": " << (result.ok() ? "" : result.error().message));
    REQUIRE(result.ok());
    return std::move(result.report());
}

ImportError importError(const std::filesystem::path& path) {
    NullProgress progress;
    ImportResult result = importFile(path, {}, progress);
    REQUIRE_FALSE(result.ok());
    return result.error();
}

// The file's text, inflated when gzip (an independent reader: zlib's gzread).
std::string inflated(const std::filesystem::path& path) {
    gzFile f = gzopen(path.c_str(), "rb");
    REQUIRE(f);
    std::string out;
    char buf[1 << 16];
    int n;
    while ((n = gzread(f, buf, sizeof buf)) > 0) out.append(buf, static_cast<size_t>(n));
    gzclose(f);
    return out;
}

// Occurrences of an exact text: Kineto writes `"ph": "X", "cat": "kernel"` once per event.
uint64_t occurrences(const std::string& text, const std::string& what) {
    uint64_t n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
    return n;
}
uint64_t xEvents(const std::string& text, const std::string& cat) {
    return occurrences(text, "\"ph\": \"X\", \"cat\": \"" + cat + "\"");
}

std::filesystem::path writeFile(const std::string& name, const std::string& bytes) {
    const auto path = tempDir("kineto") / name;
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
}

void checkLaneInvariants(const Report& r) {
    for (const Lane& lane : r.lanes) {
        const IntervalColumns& ev = lane.events;
        for (size_t i = 0; i < ev.size(); ++i) REQUIRE(ev.endNs(i) >= ev.start_ns[i]);
        for (size_t i = 1; i < ev.size(); ++i) REQUIRE(ev.start_ns[i - 1] <= ev.start_ns[i]);
        REQUIRE(lane.depth_begin.size() == size_t{lane.depth_count} + 1);
        for (uint8_t d = 0; d < lane.depth_count; ++d)
            for (uint32_t k = lane.depth_begin[d] + 1; k < lane.depth_begin[d + 1]; ++k)
                REQUIRE(ev.endNs(lane.eventAtPosition(k - 1)) <= ev.start_ns[lane.eventAtPosition(k)]);
        for (size_t i = 1; i < lane.instants.size(); ++i)
            REQUIRE(lane.instants.time_ns[i - 1] <= lane.instants.time_ns[i]);
    }
}

void checkKernelStats(const Report& r) {
    auto table = computeStats(r, "cuda_gpu_kern_sum");
    REQUIRE(table);
    const auto& cols = table->header;
    size_t instancesCol = cols.size();
    for (size_t c = 0; c < cols.size(); ++c)
        if (cols[c] == "Instances") instancesCol = c;
    REQUIRE(instancesCol < cols.size());
    uint64_t instances = 0;
    for (const auto& row : table->rows) instances += static_cast<uint64_t>(std::stoll(formatCell(row[instancesCol])));
    CHECK(instances == r.counts().kernels);
}

// Imports with the Kineto importer and the given block sizes of its stream, then finishes the
// report as importFile does.
ImportResult importWith(const std::filesystem::path& path, kineto::StreamSizes sizes) {
    NullProgress progress;
    ImportResult result = KinetoImporter(sizes).import(path, {}, progress, {});
    if (result.ok()) finishReport(*result.report(), 0);
    return result;
}

// The whole file (of the test files, inflated too) in one block and one piece: what the
// streamed imports must equal.
constexpr kineto::StreamSizes kWholeBuffer{16u << 20, 1u << 30, 1u << 30};

// Everything an import produced, as text: two imports are the same when their dumps are.
std::string dump(const Report& r) {
    std::ostringstream o;
    o << r.meta.format << ' ' << r.meta.version << ' ' << r.meta.rank << ' ' << r.meta.start_utc_ns << ' '
      << r.meta.begin_ns << ' ' << r.meta.end_ns << '\n';
    for (const auto& [name, n] : r.diagnostics) o << "diagnostic " << name << ' ' << n << '\n';
    for (const Process& p : r.processes) o << "process " << p.pid << ' ' << r.str(p.name_id) << '\n';
    for (const Thread& t : r.threads) o << "thread " << t.tid << ' ' << t.process << ' ' << r.str(t.name_id) << '\n';
    for (const Gpu& g : r.gpus) o << "gpu " << g.device_id << ' ' << r.str(g.name_id) << '\n';
    for (const Lane& l : r.lanes) {
        o << "lane " << static_cast<int>(l.kind) << ' ' << r.str(l.name_id) << ' ' << l.process << ' ' << l.thread
          << ' ' << l.gpu << ' ' << l.stream_id << ' ' << l.context_id << '\n';
        const IntervalColumns& e = l.events;
        for (size_t i = 0; i < e.size(); ++i)
            o << e.start_ns[i] << ' ' << e.endNs(i) << ' ' << r.str(e.name_id[i]) << ' ' << e.payload[i] << ' '
              << static_cast<int>(e.kind[i]) << ' ' << int{e.depth[i]} << '\n';
        for (size_t i = 0; i < l.instants.size(); ++i)
            o << "instant " << l.instants.time_ns[i] << ' ' << r.str(l.instants.name_id[i]) << '\n';
    }
    for (const Counter& c : r.counters) {
        o << "counter " << r.str(c.name_id) << ' ' << c.process << '\n';
        for (size_t i = 0; i < c.time_ns.size(); ++i) o << c.time_ns[i] << ' ' << c.value[i] << '\n';
    }
    for (const KernelInfo& k : r.kernels) o << "kernel " << k.config << ' ' << k.correlation_id << '\n';
    for (const KernelConfig& k : r.kernel_configs)
        o << "config " << k.grid[0] << ',' << k.grid[1] << ',' << k.grid[2] << ' ' << k.block[0] << ',' << k.block[1]
          << ',' << k.block[2] << ' ' << k.registers_per_thread << ' ' << k.static_shared_bytes << ' '
          << k.blocks_per_sm << ' ' << k.warps_per_sm << ' ' << k.est_achieved_occupancy_pct << '\n';
    for (const MemcpyInfo& m : r.memcpys)
        o << "memcpy " << m.bytes << ' ' << m.correlation_id << ' ' << static_cast<int>(m.copy_kind) << '\n';
    for (const MemsetInfo& m : r.memsets) o << "memset " << m.bytes << ' ' << m.correlation_id << '\n';
    for (const PytorchMemoryEvent& m : r.pytorch_memory)
        o << "memory " << m.time_ns << ' ' << m.address << ' ' << m.bytes << ' ' << m.total_allocated << ' '
          << m.total_reserved << ' ' << m.thread << ' ' << m.device_id << ' ' << int{m.device_type} << '\n';
    return o.str();
}

// The import of `path` with the given sizes dumps the same as the whole-buffer import.
void checkSameAsWhole(const std::filesystem::path& path, const std::vector<kineto::StreamSizes>& sizes) {
    ImportResult whole = importWith(path, kWholeBuffer);
    INFO(path.string() << ": " << (whole.ok() ? "" : whole.error().message));
    REQUIRE(whole.ok());
    const std::string expected = dump(*whole.report());
    for (const kineto::StreamSizes& s : sizes) {
        INFO("block " << s.block << ", piece " << s.piece);
        ImportResult streamed = importWith(path, s);
        INFO((streamed.ok() ? "" : streamed.error().message));
        REQUIRE(streamed.ok());
        CHECK(dump(*streamed.report()) == expected);
    }
}

}  // namespace

TEST_CASE("kineto: single-GPU training trace") {
    const auto path = dataFile("kineto/train_1gpu_rank0.pt.trace.json");
    const std::string text = inflated(path);
    auto r = importOk(path);
    const EventCounts c = r->counts();
    CHECK(r->meta.format == "kineto-json");
    CHECK(r->meta.producer == "PyTorch Profiler (Kineto)");
    CHECK(r->meta.version == "1");
    CHECK(c.kernels == 1300);
    CHECK(c.kernels == xEvents(text, "kernel"));
    CHECK(c.cuda_api == 2102 + 90);
    CHECK(c.memcpy == 60);
    CHECK(c.memset == 90);
    CHECK(c.nvtx == 9270 + 40 + 20);  // cpu_op + user_annotation + gpu_user_annotation
    CHECK(r->gpus.size() == 1);
    CHECK(r->str(r->gpus[0].name_id) == "NVIDIA H200");
    CHECK(r->meta.rank == -1);
    // baseTimeNanoseconds + first ts: November 2026.
    CHECK(r->meta.start_utc_ns / 1'000'000'000 == 1790857026 + 4459284);
    CHECK(r->meta.begin_ns == 0);
    // The profiler's own span ("PyTorch Profiler (0)", skipped) is 373707.445 us; GPU work
    // and buffer flushes run a little past it.
    CHECK(r->meta.end_ns > 300'000'000);
    CHECK(r->meta.end_ns < 400'000'000);
    CHECK(r->diagnostics.count("json_unknown_category:Trace") == 1);
    // fwdbwd flows are counted once per flow (its "s" event); ac2g flows are the correlation ids.
    const std::string fwdbwd = "\"cat\": \"fwdbwd\", \"name\": \"fwdbwd\"";
    CHECK(r->diagnostics["json_fwdbwd_flows_not_shown"] ==
          occurrences(text, fwdbwd) - occurrences(text, fwdbwd + ", \"bp\": \"e\""));
    CHECK(r->diagnostics.count("json_flow_ignored") == 0);
    CHECK(r->profiler_overhead.size() == 2);
    checkLaneInvariants(*r);
    checkKernelStats(*r);

    // Exact microsecond -> nanosecond: the first kernel (dur 0.800 us) is 800 ns.
    bool found800 = false;
    for (const Lane& l : r->lanes)
        if (l.kind == LaneKind::GpuStream)
            for (size_t i = 0; i < l.events.size(); ++i)
                if (l.events.kind[i] == EventKind::Kernel && l.events.endNs(i) - l.events.start_ns[i] == 800)
                    found800 = true;
    CHECK(found800);

    // Memcpy names and copy kinds as nsys labels them.
    uint64_t dtod = 0;
    for (const MemcpyInfo& m : r->memcpys) dtod += m.copy_kind == CopyKind::DtoD;
    CHECK(dtod == occurrences(text, "\"name\": \"Memcpy DtoD"));
    CHECK(r->strings.find("[CUDA memcpy Device-to-Device]") != UINT32_MAX);
    CHECK(r->strings.find("[CUDA memset]") != UINT32_MAX);
}

TEST_CASE("kineto: DDP ranks from distributedInfo, gzip") {
    for (int rank : {0, 1}) {
        const auto path = dataFile("kineto/ddp_rank" + std::to_string(rank) + ".pt.trace.json.gz");
        const std::string text = inflated(path);
        auto r = importOk(path);
        const EventCounts c = r->counts();
        CHECK(r->meta.rank == rank);
        CHECK(c.kernels == xEvents(text, "kernel"));
        CHECK(c.cuda_api == xEvents(text, "cuda_runtime") + xEvents(text, "cuda_driver"));
        CHECK(c.memcpy == xEvents(text, "gpu_memcpy"));
        CHECK(c.memset == xEvents(text, "gpu_memset"));
        CHECK(c.nccl > 0);  // nccl* kernels copied into the NCCL lane
        checkLaneInvariants(*r);
        checkKernelStats(*r);
    }
}

TEST_CASE("kineto: HTA public trace, displayTimeUnit ns with microsecond values") {
    const auto path =
        sharedFile("public/facebookresearch__HolisticTraceAnalysis__rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz");
    if (path.empty()) {
        LANESCOPE_SKIP_ABSENT("../shared/corpus/public (the HTA trace)");
    }
    const std::string text = inflated(path);
    REQUIRE(text.find("\"displayTimeUnit\": \"ns\"") != std::string::npos);
    auto r = importOk(path);
    const EventCounts c = r->counts();
    CHECK(c.kernels == 4350);
    CHECK(c.kernels == xEvents(text, "kernel"));
    CHECK(c.memcpy == 1600);
    CHECK(c.memset == 145);
    CHECK(r->meta.rank == 0);
    // ts are microseconds since the epoch (April 2024): read as ns they would be 1970.
    CHECK(r->meta.start_utc_ns / 1'000'000'000 == 1712195495);
    int64_t longest = 0, total = 0;
    for (const Lane& l : r->lanes)
        if (l.kind == LaneKind::GpuStream)
            for (size_t i = 0; i < l.events.size(); ++i)
                if (l.events.kind[i] == EventKind::Kernel) {
                    longest = std::max(longest, l.events.endNs(i) - l.events.start_ns[i]);
                    total += l.events.endNs(i) - l.events.start_ns[i];
                }
    CHECK(longest < 10'000'000'000);  // every kernel under 10 s
    CHECK(longest > 100'000);         // the longest over 100 us (1112.761 us)
    CHECK(total / c.kernels > 1000);  // mean over 1 us
    checkLaneInvariants(*r);
    checkKernelStats(*r);
}

TEST_CASE("kineto: Chrome trace features (B/E, instants, counters, string pids)") {
    const auto path = writeFile("small.json", R"({"displayTimeUnit": "ns", "traceEvents": [
      {"ph": "M", "name": "thread_name", "pid": 7, "tid": 8, "args": {"name": "worker"}},
      {"ph": "B", "cat": "user_annotation", "name": "outer", "pid": 7, "tid": 8, "ts": 10},
      {"ph": "B", "cat": "user_annotation", "name": "inner", "pid": 7, "tid": 8, "ts": 11.5},
      {"ph": "E", "pid": 7, "tid": 8, "ts": 12.0009},
      {"ph": "E", "pid": 7, "tid": 8, "ts": 20},
      {"ph": "E", "pid": 7, "tid": 8, "ts": 21},
      {"ph": "i", "name": "mark", "pid": "Traces", "tid": "x", "ts": 15, "s": "g"},
      {"ph": "C", "name": "mem", "pid": 7, "ts": 12, "args": {"bytes": 5}},
      {"ph": "C", "name": "mem", "pid": 7, "ts": 11, "args": {"bytes": 3}},
      {"ph": "X", "cat": "weird", "name": "w", "pid": 7, "tid": 8, "ts": 1, "dur": 1},
      {"ph": "B", "cat": "cpu_op", "name": "open", "pid": 7, "tid": 9, "ts": 30}
    ]})");
    auto r = importOk(path);
    const EventCounts c = r->counts();
    CHECK(c.nvtx == 2);
    CHECK(c.instants == 1);
    CHECK(c.counter_samples == 2);
    CHECK(r->diagnostics["json_unmatched_end"] == 1);
    CHECK(r->diagnostics["json_unmatched_begin"] == 1);
    CHECK(r->diagnostics["json_unknown_category:weird"] == 1);
    REQUIRE(r->counters.size() == 1);
    CHECK(r->counters[0].time_ns == std::vector<int64_t>{1000, 2000});  // sorted, origin 10 us
    bool inner = false;
    for (const Lane& l : r->lanes)
        for (size_t i = 0; i < l.events.size(); ++i)
            if (r->str(l.events.name_id[i]) == "inner") {
                inner = true;
                CHECK(l.events.start_ns[i] == 1500);
                CHECK(l.events.endNs(i) == 2001);  // 12.0009 us rounds to 12001 ns
                CHECK(l.events.depth[i] == 1);
            }
    CHECK(inner);
    bool named = false;
    for (const Thread& t : r->threads) named |= r->str(t.name_id) == "worker";
    CHECK(named);
}

namespace {

// Per operator event of the report's "CPU ops" lanes, by name: its input shapes text ("" for
// none), in lane order.
std::map<std::string, std::vector<std::string>> shapesByOperator(const Report& r) {
    std::map<std::string, std::vector<std::string>> shapes;
    for (const Lane& l : r.lanes) {
        if (l.kind != LaneKind::Nvtx || r.str(l.name_id) != kPytorchOperatorLaneName) continue;
        for (size_t i = 0; i < l.events.size(); ++i) {
            REQUIRE(l.events.payload[i] < r.nvtx.size());
            const uint32_t id = r.nvtx[l.events.payload[i]].input_shapes_id;
            shapes[std::string(r.str(l.events.name_id[i]))].push_back(id ? std::string(r.str(id)) : "");
        }
    }
    return shapes;
}

}  // namespace

TEST_CASE("kineto: an operator's input shapes, from Input Dims in one canonical text") {
    SECTION("the profiled GPU trace, as the JSON holds them") {
        const auto r = importOk(dataFile("kineto/pytorch_profiled_gpu.pt.trace.json.gz"));
        const auto shapes = shapesByOperator(*r);
        // In the file: "Input Dims": [[64, 4096], [10, 4096], [10]] on each of 6 calls.
        CHECK(shapes.at("aten::linear") == std::vector<std::string>(6, "[[64, 4096], [10, 4096], [10]]"));
        // A list of tensors nests one level deeper.
        CHECK(shapes.at("aten::_foreach_add_").front() ==
              "[[[32, 3, 3, 3], [32], [32], [32], [64, 32, 3, 3], [64], [64], [64], [10, 4096], [10]], "
              "[[32, 3, 3, 3], [32], [32], [32], [64, 32, 3, 3], [64], [64], [64], [10, 4096], [10]], []]");
        // The autograd engine's functions record no Input Dims.
        CHECK(shapes.at("autograd::engine::evaluate_function: AddmmBackward0") == std::vector<std::string>(6, ""));
        // One row per distinct shapes: 79 in the file, and the rows of annotations and frames.
        uint32_t withShapes = 0;
        for (const NvtxInfo& n : r->nvtx) withShapes += n.input_shapes_id != 0;
        CHECK(withShapes == 79);
        CHECK(r->nvtx.size() <= 79 + 2);
    }
    SECTION("whitespace outside strings goes, one space follows each comma") {
        const auto path = writeFile("shapes.json", R"({"traceEvents": [
          {"ph": "X", "cat": "cpu_op", "name": "a", "pid": 1, "tid": 2, "ts": 10, "dur": 10,
           "args": {"Input Dims": [ [64,3 ,  32],
                                    [ ],[ "x ,y"] ] , "Ev Idx": 1}},
          {"ph": "X", "cat": "cpu_op", "name": "b", "pid": 1, "tid": 2, "ts": 30, "dur": 10,
           "args": {"Input Dims": [[64, 3, 32], [], ["x ,y"]]}},
          {"ph": "X", "cat": "cpu_op", "name": "c", "pid": 1, "tid": 2, "ts": 50, "dur": 1,
           "args": {"Input Dims": "[[1]]"}},
          {"ph": "X", "cat": "user_annotation", "name": "d", "pid": 1, "tid": 2, "ts": 60, "dur": 1,
           "args": {"Input Dims": [[2]]}}
        ]})");
        const auto r = importOk(path);
        const auto shapes = shapesByOperator(*r);
        CHECK(shapes.at("a") == std::vector<std::string>{R"([[64, 3, 32], [], ["x ,y"]])"});
        CHECK(shapes.at("b") == shapes.at("a"));
        CHECK(shapes.at("c") == std::vector<std::string>{""});  // not an array
        // a and b share a row; c and the annotation share the row without shapes.
        REQUIRE(r->nvtx.size() == 2);
        for (const NvtxInfo& n : r->nvtx) CHECK((n.color == 0 && !n.has_color && !n.start_end && n.category == 0));
    }
}

TEST_CASE("kineto: memory events make pytorch_memory, device counters and stay markers") {
    const auto path = writeFile("memory.json", R"({"traceEvents": [
      {"ph": "X", "cat": "cpu_op", "name": "aten::empty", "pid": 1, "tid": 2, "ts": 10, "dur": 10},
      {"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": 1, "tid": 2, "ts": 15,
       "args": {"Total Reserved": 2097152, "Total Allocated": 512, "Bytes": 512, "Device Id": 0,
                "Device Type": 1, "Addr": 139637976727552, "finished": false, "Ev Idx": 2}},
      {"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": 1, "tid": 2, "ts": 12.5,
       "args": {"Total Reserved": 0, "Total Allocated": 256, "Bytes": 256, "Device Id": -1,
                "Device Type": 0, "Addr": 94000000, "finished": false, "Ev Idx": 1}},
      {"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": 1, "tid": 3, "ts": 18,
       "args": {"Total Reserved": 2097152, "Total Allocated": 0, "Bytes": -512, "Device Id": 0,
                "Device Type": 1, "Addr": 139637976727552, "finished": false, "Ev Idx": 3}}
    ]})");
    auto r = importOk(path);
    // Sorted by time, on the timeline that starts at the operator (10 us).
    REQUIRE(r->pytorch_memory.size() == 3);
    const PytorchMemoryEvent &cpu = r->pytorch_memory[0], &alloc = r->pytorch_memory[1], &freed = r->pytorch_memory[2];
    CHECK(cpu.time_ns == 2500);
    CHECK((cpu.device_type == kPytorchDeviceCpu && cpu.device_id == -1 && cpu.bytes == 256 && cpu.address == 94000000));
    CHECK(alloc.time_ns == 5000);
    CHECK((alloc.device_type == kPytorchDeviceCuda && alloc.device_id == 0 && alloc.bytes == 512));
    CHECK((alloc.address == 139637976727552 && alloc.total_allocated == 512 && alloc.total_reserved == 2097152));
    CHECK((freed.time_ns == 8000 && freed.bytes == -512 && freed.total_allocated == 0));
    REQUIRE((alloc.thread >= 0 && freed.thread >= 0));
    CHECK(r->threads[size_t(alloc.thread)].tid == 2);
    CHECK(r->threads[size_t(freed.thread)].tid == 3);
    // Two counters per device, in bytes, a CUDA device's under its GPU.
    std::map<std::string, const Counter*> counters;
    for (const Counter& c : r->counters) counters[std::string(r->str(c.name_id))] = &c;
    REQUIRE(counters.size() == 4);
    const Counter* allocated = counters.at("Allocated memory (CUDA 0)");
    CHECK(allocated->time_ns == std::vector<int64_t>{5000, 8000});
    CHECK(allocated->value == std::vector<double>{512, 0});
    CHECK(counters.at("Reserved memory (CUDA 0)")->value == std::vector<double>{2097152, 2097152});
    CHECK(r->str(allocated->unit_id) == "bytes");
    REQUIRE(allocated->gpu >= 0);
    CHECK(r->gpus[size_t(allocated->gpu)].device_id == 0);
    CHECK(counters.at("Allocated memory (CPU)")->gpu == -1);
    CHECK(counters.at("Allocated memory (CPU)")->process >= 0);
    CHECK(counters.at("Reserved memory (CPU)")->value == std::vector<double>{0});
    // Still markers on their threads' lanes.
    CHECK(r->counts().instants == 3);
}

TEST_CASE("kineto: broken inputs") {
    SECTION("truncated gzip is Corrupt with one line") {
        std::string gz = test::readFile(dataFile("kineto/ddp_rank0.pt.trace.json.gz"));
        const auto path = writeFile("cut.json.gz", gz.substr(0, gz.size() / 2));
        const ImportError e = importError(path);
        CHECK(e.kind == ImportError::Kind::Corrupt);
        CHECK(e.message.find('\n') == std::string::npos);
        CHECK(e.message.find("truncated gzip") != std::string::npos);
        CHECK(e.message.find("cut.json.gz") != std::string::npos);
    }
    SECTION("truncated JSON is Corrupt") {
        std::string json = test::readFile(dataFile("kineto/train_1gpu_rank0.pt.trace.json"));
        const auto path = writeFile("cut.json", json.substr(0, json.size() / 2));
        const ImportError e = importError(path);
        CHECK(e.kind == ImportError::Kind::Corrupt);
        CHECK(e.message.find('\n') == std::string::npos);
        CHECK(e.message.find("cut.json") != std::string::npos);
    }
    SECTION("JSON that is not a trace") {
        const ImportError e = importError(writeFile("other.json", R"({"schemaVersion": 1, "hello": [1, 2]})"));
        CHECK(e.kind == ImportError::Kind::UnknownFormat);
        CHECK(e.message.find("no traceEvents") != std::string::npos);
        // Without any trace key in the head, no importer claims it.
        CHECK(importError(writeFile("plain.json", R"({"a": 1})")).kind == ImportError::Kind::UnknownFormat);
    }
    SECTION("gzip of something else") {
        const auto path = tempDir("kineto") / "text.json.gz";
        gzFile f = gzopen(path.c_str(), "wb");
        gzputs(f, "hello, not json");
        gzclose(f);
        CHECK(importError(path).kind == ImportError::Kind::UnknownFormat);  // inflates fine, is no trace
    }
    SECTION("empty traceEvents opens with no events") {
        auto r = importOk(writeFile("empty.json", R"({"schemaVersion": 1, "traceEvents": []})"));
        CHECK(r->lanes.empty());
        CHECK(r->counts().slices == 0);
    }
}

TEST_CASE("kineto: cancel and progress") {
    struct Counting final : ProgressSink {
        int calls = 0;
        void progress(std::string_view, uint64_t, uint64_t) override { ++calls; }
    };
    const auto path = dataFile("kineto/ddp_rank0.pt.trace.json.gz");
    Counting progress;
    std::stop_source stop;
    stop.request_stop();
    ImportResult cancelled = importFile(path, {}, progress, stop.get_token());
    REQUIRE_FALSE(cancelled.ok());
    CHECK(cancelled.error().kind == ImportError::Kind::Cancelled);

    Counting progress2;
    ImportResult ok = importFile(path, {}, progress2);
    CHECK(ok.ok());
    CHECK(progress2.calls >= 2);  // reading, then building lanes
}

namespace {

// A trace whose strings hold escaped quotes, backslashes, brackets, braces and commas, with a
// byte order mark, "traceEvents" as a value before the key, and header keys after the array
// (as older Kineto versions write baseTimeNanoseconds, distributedInfo and deviceProperties).
const std::string kTrickyPrefix =
    "\xEF\xBB\xBF \n{\"schemaVersion\": 1, \"note\": \"traceEvents\", \"odd \\\"key\\\" {[\": \"a \\\\\\\" ] } , [ "
    "{\", "
    "\"traceEvents\": ";
const std::string kTrickyBody = R"(
  {"ph": "M", "name": "thread_name", "pid": 7, "tid": 8, "args": {"name": "worker \"one\" {x}"}},
  {"ph": "X", "cat": "cpu_op", "name": "aten::mm \"q\" \\ [ ] { } ,", "pid": 7, "tid": 8, "ts": 10, "dur": 5,
   "args": {"Input Dims": [[64, 10], [10]], "s": "\\\\", "t": "\\\"}"}},
  {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#0", "pid": 7, "tid": 8, "ts": 9, "dur": 20},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 7, "tid": 8, "ts": 11, "dur": 2,
   "args": {"correlation": 5}},
  {"ph": "X", "cat": "kernel", "name": "k<\"a\">", "pid": 0, "tid": 7, "ts": 14, "dur": 3,
   "args": {"device": 0, "stream": 7, "correlation": 5, "grid": [2, 1, 1], "block": [128, 1, 1], "registers per thread": 32}},
  {"ph": "s", "id": 1, "pid": 7, "tid": 8, "ts": 10, "cat": "fwdbwd", "name": "fwdbwd"},
  {"ph": "f", "id": 1, "pid": 7, "tid": 8, "ts": 12, "cat": "fwdbwd", "name": "fwdbwd", "bp": "e"},
  {"ph": "C", "name": "mem", "pid": 7, "ts": 12, "args": {"bytes": 5}}
 )";
const std::string kTrickySuffix = R"(,
 "traceName": "x ] \" }",
 "baseTimeNanoseconds": 1700000000000000000,
 "distributedInfo": {"backend": "nccl", "rank": 3, "world_size": 4},
 "deviceProperties": [{"id": 0, "name": "NVIDIA \"H100\""}]
}
)";
const std::string kTricky = kTrickyPrefix + "[" + kTrickyBody + "]" + kTrickySuffix;

std::filesystem::path gzipFile(const std::string& name, const std::string& text) {
    const auto path = tempDir("kineto") / name;
    gzFile f = gzopen(path.c_str(), "wb");
    gzwrite(f, text.data(), static_cast<unsigned>(text.size()));
    gzclose(f);
    return path;
}

}  // namespace

TEST_CASE("kineto stream: pieces of whole events and the header across block edges") {
    const auto path = writeFile("tricky.json", kTricky);
    for (size_t block : {1, 2, 3, 5, 64, 4096}) {
        for (size_t piece : {1, 40, 1 << 20}) {
            INFO("block " << block << ", piece " << piece);
            kineto::BlockReader reader;
            REQUIRE(reader.open(path));
            kineto::JsonEventStream stream(reader, {block, piece, 1 << 20}, 64);
            std::string events;
            size_t pieces = 0;
            kineto::JsonEventStream::Status status;
            while ((status = stream.next()) == kineto::JsonEventStream::Status::Piece) {
                const std::string_view p = stream.piece();
                REQUIRE(p.size() >= 2);
                CHECK(p.front() == '[');
                CHECK(p.back() == ']');
                if (pieces++) events += ',';
                events += p.substr(1, p.size() - 2);
            }
            CHECK(status == kineto::JsonEventStream::Status::End);
            CHECK(events == kTrickyBody);
            CHECK(stream.header() == kTrickyPrefix.substr(3) + "[]" + kTrickySuffix);  // without the BOM
            CHECK(stream.bytesRead() == kTricky.size());
            if (piece == 1) CHECK(pieces == 8);  // one event a piece
            if (piece == 1 << 20) CHECK(pieces == 1);
        }
    }
}

TEST_CASE("kineto: streamed imports equal the whole-buffer import") {
    SECTION("escaped quotes, brackets in strings, header keys after the array") {
        const auto path = writeFile("tricky.json", kTricky);
        std::vector<kineto::StreamSizes> sizes;
        for (size_t block = 1; block <= 17; ++block)
            for (size_t piece : {1, 7, 100, 1 << 20}) sizes.push_back({block, piece, 1 << 20});
        checkSameAsWhole(path, sizes);

        ImportResult r = importWith(path, {3, 1, 1 << 20});
        INFO((r.ok() ? "" : r.error().message));
        REQUIRE(r.ok());
        const Report& report = *r.report();
        CHECK(report.meta.rank == 3);                                   // after the array
        CHECK(report.meta.start_utc_ns == 1700000000000000000 + 9000);  // after the array, + first ts
        REQUIRE(report.gpus.size() == 1);
        CHECK(report.str(report.gpus[0].name_id) == "NVIDIA \"H100\"");  // after the array
        CHECK(report.counts().kernels == 1);
        CHECK(report.counts().nvtx == 2);
        CHECK(report.strings.find("aten::mm \"q\" \\ [ ] { } ,") != UINT32_MAX);
        CHECK(report.diagnostics.at("json_fwdbwd_flows_not_shown") == 1);
        bool named = false;
        for (const Thread& t : report.threads) named |= report.str(t.name_id) == "worker \"one\" {x}";
        CHECK(named);
        checkSameAsWhole(gzipFile("tricky.json.gz", kTricky),
                         {{1, 1, 1 << 20}, {5, 100, 1 << 20}});  // last: it empties the folder
    }
    SECTION("real traces, JSON and gzip") {
        checkSameAsWhole(dataFile("kineto/train_1gpu_rank0.pt.trace.json"),
                         {{4099, 1000, 1 << 20}, {65536, 1, 1 << 20}});
        checkSameAsWhole(dataFile("kineto/ddp_rank0.pt.trace.json.gz"),
                         {{4099, 1000, 1 << 20}, {1 << 20, 1 << 16, 1 << 20}});
        checkSameAsWhole(dataFile("kineto/pytorch_profiled_gpu.pt.trace.json.gz"), {{4099, 1000, 1 << 20}});
    }
}

TEST_CASE("kineto stream: broken documents at block edges") {
    auto errorWith = [](const std::filesystem::path& path, kineto::StreamSizes sizes) {
        ImportResult r = importWith(path, sizes);
        REQUIRE_FALSE(r.ok());
        CHECK(r.error().message.find('\n') == std::string::npos);
        CHECK(r.error().message.find(path.filename().string()) != std::string::npos);
        return r.error();
    };
    SECTION("truncated inside a string") {
        const size_t cut = kTricky.find("aten::mm") + 4;
        const std::string text = kTricky.substr(0, cut);
        const auto path = writeFile("cut-string.json", text);
        for (size_t block : {size_t{1}, size_t{2}, size_t{3}, cut / 4, cut / 2, cut, cut + 1}) {
            INFO("block " << block);
            const ImportError e = errorWith(path, {block, 1, 1 << 20});
            CHECK(e.kind == ImportError::Kind::Corrupt);
            CHECK(e.message.find("JSON ends inside the traceEvents array: the file is cut short, or a quote or "
                                 "bracket in it is damaged (" +
                                 std::to_string(cut) + " bytes, 1 events read)") != std::string::npos);
        }
        const ImportError gz = errorWith(gzipFile("cut-string.json.gz", text), {7, 1, 1 << 20});
        CHECK(gz.kind == ImportError::Kind::Corrupt);
        CHECK(gz.message.find("inflated JSON ends inside the traceEvents array") != std::string::npos);
    }
    SECTION("gzip stream cut short") {
        std::string gz = test::readFile(dataFile("kineto/ddp_rank0.pt.trace.json.gz"));
        const auto path = writeFile("cut-stream.json.gz", gz.substr(0, gz.size() - 100));
        const ImportError e = errorWith(path, {4096, 1000, 1 << 20});
        CHECK(e.kind == ImportError::Kind::Corrupt);
        CHECK(e.message.find("truncated gzip stream at byte") != std::string::npos);
    }
    SECTION("header or one event over the limit") {
        const ImportError header = errorWith(writeFile("big-header.json", kTricky), {4, 1, 32});
        CHECK(header.kind == ImportError::Kind::Corrupt);
        CHECK(header.message.find("outside the traceEvents array, or in one event") != std::string::npos);
        const std::string longEvent = R"({"traceEvents": [{"ph": "X", "name": ")" + std::string(1000, 'x') + R"("}]})";
        const ImportError event = errorWith(writeFile("big-event.json", longEvent), {16, 1, 100});
        CHECK(event.kind == ImportError::Kind::Corrupt);
        CHECK(importWith(writeFile("big-event.json", longEvent), {16, 1, 2000}).ok());
    }
    SECTION("a brace closes the array") {
        const ImportError e =
            errorWith(writeFile("brace.json", R"({"traceEvents": [{"ph": "i"}}, "x": 1})"), {3, 1, 1 << 20});
        CHECK(e.kind == ImportError::Kind::Corrupt);
        CHECK(e.message.find("a '}' closes the traceEvents array") != std::string::npos);
    }
    SECTION("not an object, no traceEvents, invalid events") {
        for (size_t block : {1, 4096}) {
            CHECK(errorWith(writeFile("number.json", "\xEF\xBB\xBF 42"), {block, 1, 1 << 20}).kind ==
                  ImportError::Kind::UnknownFormat);
            const ImportError none = errorWith(
                writeFile("none.json", R"({"a": [1, {"traceEvents": []}], "b": "traceEvents"})"), {block, 1, 1 << 20});
            CHECK(none.kind == ImportError::Kind::UnknownFormat);
            CHECK(none.message.find("no traceEvents array") != std::string::npos);
            const ImportError invalid =
                errorWith(writeFile("invalid.json", R"({"traceEvents": [{"ph": "i", "ts": 1}, {"ph" "i"}]})"),
                          {block, 1, 1 << 20});
            CHECK(invalid.kind == ImportError::Kind::Corrupt);
            CHECK(invalid.message.find("JSON is invalid") != std::string::npos);
            CHECK(invalid.message.find("after 1 events") != std::string::npos);
        }
    }
}

TEST_CASE("kineto: Chrome's JSON Array Format, its closing bracket optional") {
    // The events of a trace in the object format, written as a bare array.
    const std::string object = test::readFile(dataFile("fuzz/small.json"));
    const size_t begin = object.find("\"traceEvents\": [") + 15, close = object.rfind(']');
    REQUIRE(object.substr(close).find_first_not_of("]}\n") == std::string::npos);  // the last key
    const std::string array = object.substr(begin, close - begin + 1);
    const EventCounts expected = importOk(dataFile("fuzz/small.json"))->counts();
    REQUIRE(expected.slices > 20);
    auto sameEvents = [&](const EventCounts& c) {
        CHECK(c.slices == expected.slices);
        CHECK(c.instants == expected.instants);
        CHECK(c.kernels == expected.kernels);
        CHECK(c.cuda_api == expected.cuda_api);
    };
    // writeFile empties its folder first: each file is written just before it is read.
    const std::pair<const char*, std::string> opening[] = {
        {"array.json", array + "\n"},
        {"array-open.json", array.substr(0, array.size() - 1) + ",\n"},  // a trailing comma, no ']'
        {"array-bare.json", array.substr(0, array.size() - 1)}};
    for (size_t block : {size_t{1}, size_t{7}, size_t{4096}}) {
        INFO("block " << block);
        for (const auto& [name, text] : opening) {
            INFO(name);
            ImportResult r = importWith(writeFile(name, text), {block, 64, 1 << 20});
            INFO((r.ok() ? "" : r.error().message));
            REQUIRE(r.ok());
            sameEvents(r.report()->counts());
        }
        ImportResult cut =
            importWith(writeFile("array-cut.json", array.substr(0, array.size() / 2)), {block, 64, 1 << 20});
        REQUIRE_FALSE(cut.ok());
        CHECK(cut.error().message.find("JSON ends inside the traceEvents array") != std::string::npos);
        ImportResult trailing = importWith(writeFile("array-trailing.json", array + " x"), {block, 64, 1 << 20});
        REQUIRE_FALSE(trailing.ok());
        CHECK(trailing.error().message.find("JSON is invalid") != std::string::npos);
    }
    auto viaImportFile = importOk(writeFile("array.json", array));  // recognised by its content
    CHECK(viaImportFile->meta.format == "kineto-json");
    sameEvents(viaImportFile->counts());
    CHECK(importError(writeFile("numbers.json", "[1, 2, 3]")).kind == ImportError::Kind::UnknownFormat);
}

TEST_CASE("kineto: progress is bytes of the file read") {
    struct Recording final : ProgressSink {
        std::vector<std::pair<uint64_t, uint64_t>> events;
        void progress(std::string_view stage, uint64_t done, uint64_t total) override {
            if (stage == "events") events.emplace_back(done, total);
        }
    };
    for (const char* name : {"kineto/train_1gpu_rank0.pt.trace.json", "kineto/ddp_rank0.pt.trace.json.gz"}) {
        const auto path = dataFile(name);
        Recording progress;
        REQUIRE(KinetoImporter({1 << 16, 1 << 18, 1 << 20}).import(path, {}, progress, {}).ok());
        REQUIRE(progress.events.size() >= 2);
        for (size_t i = 0; i < progress.events.size(); ++i) {
            CHECK(progress.events[i].second == std::filesystem::file_size(path));
            CHECK(progress.events[i].first <= progress.events[i].second);
            if (i) CHECK(progress.events[i].first >= progress.events[i - 1].first);
        }
    }
}

namespace {

// All an import produced, stricter than dump(): also every string in id order (so that equal
// dumps mean equal string ids), the NVTX rows, the profiler overhead and the metadata.
std::string dumpAll(const Report& r) {
    std::ostringstream o;
    o << dump(r) << r.meta.producer << ' ' << r.meta.source_path << ' ' << r.meta.version << '\n';
    for (uint32_t id = 0; id < r.strings.size(); ++id) o << "string " << r.str(id) << '\n';
    for (const NvtxInfo& n : r.nvtx) o << "nvtx " << n.start_end << ' ' << n.input_shapes_id << '\n';
    for (const OverheadRange& v : r.profiler_overhead) o << "overhead " << v.start_ns << ' ' << v.end_ns << '\n';
    for (const Lane& l : r.lanes)
        for (size_t i = 0; i < l.events.size(); ++i) o << l.events.name_id[i] << ' ';
    return o.str();
}

// Imports `path` with the given stream sizes on `threads` threads, finished as importFile does.
ImportResult importOnThreads(const std::filesystem::path& path, kineto::StreamSizes sizes, unsigned threads) {
    NullProgress progress;
    ImportOptions options;
    options.threads = threads;
    ImportResult result = KinetoImporter(sizes).import(path, options, progress, {});
    if (result.ok()) finishReport(*result.report(), 1);
    return result;
}

// The import on 1 thread and on 4 gives the same report, or the same error.
void checkSameOnThreads(const std::filesystem::path& path, kineto::StreamSizes sizes) {
    ImportResult one = importOnThreads(path, sizes, 1);
    ImportResult four = importOnThreads(path, sizes, 4);
    INFO(path.string() << ", piece " << sizes.piece);
    REQUIRE(one.ok() == four.ok());
    if (!one.ok()) {
        CHECK(four.error().message == one.error().message);
        CHECK(four.error().kind == one.error().kind);
        return;
    }
    CHECK(dumpAll(*four.report()) == dumpAll(*one.report()));
}

}  // namespace

TEST_CASE("kineto: the import on several threads equals the import on one") {
    SECTION("corpus traces, JSON and gzip") {
        for (const char* name : {"kineto/train_1gpu_rank0.pt.trace.json", "kineto/ddp_rank0.pt.trace.json.gz"}) {
            checkSameOnThreads(dataFile(name), {4099, 1000, 1 << 20});  // many pieces
            checkSameOnThreads(dataFile(name), {});                     // one piece
        }
        // gzip inflated ahead on a thread of its own (several threads) or not (one): the same
        // errors where the stream is cut short or damaged.
        const std::string gz = test::readFile(dataFile("kineto/ddp_rank0.pt.trace.json.gz"));
        checkSameOnThreads(writeFile("cut-threads.json.gz", gz.substr(0, gz.size() / 2)), {4099, 1000, 1 << 20});
        std::string damaged = gz;
        damaged[gz.size() / 2] = static_cast<char>(damaged[gz.size() / 2] ^ 0x55);
        const auto damagedPath = writeFile("damaged-threads.json.gz", damaged);
        checkSameOnThreads(damagedPath, {4099, 1000, 1 << 20});
        REQUIRE_FALSE(importOnThreads(damagedPath, {}, 4).ok());
    }
    SECTION("a generated trace of hundreds of pieces, whole, cut short and damaged") {
        const auto dir = tempDir("kineto-threads");
        const auto path = dir / "generated.json";
        bench::writeKinetoTrace(path, 20000);
        const kineto::StreamSizes small{1 << 16, 1 << 15, 1 << 20};
        checkSameOnThreads(path, small);
        ImportResult r = importOnThreads(path, small, 4);
        REQUIRE(r.ok());
        CHECK(r.report()->counts().slices == 20000);

        std::ifstream in(path, std::ios::binary);
        const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        REQUIRE(text.size() > 200 * small.piece);
        checkSameOnThreads(writeFile("cut.json", text.substr(0, text.size() / 2)), small);  // stream error
        std::string damaged = text;
        const size_t at = damaged.find("\"dur\": ", damaged.size() / 2);
        REQUIRE(at != std::string::npos);
        damaged.replace(at, 7, "\"dur\": :");  // invalid JSON in the middle: a parse error
        checkSameOnThreads(writeFile("damaged.json", damaged), small);

        // A stop requested while pieces are being parsed ends the import, its threads too.
        struct StopAtEvents final : ProgressSink {
            std::stop_source stop;
            int events = 0;
            void progress(std::string_view stage, uint64_t, uint64_t) override {
                if (stage == "events" && ++events == 3) stop.request_stop();
            }
        };
        StopAtEvents stopping;
        ImportOptions four;
        four.threads = 4;
        ImportResult stopped = KinetoImporter(small).import(path, four, stopping, stopping.stop.get_token());
        REQUIRE_FALSE(stopped.ok());
        CHECK(stopped.error().kind == ImportError::Kind::Cancelled);
        CHECK(stopping.events == 3);
        ImportResult bad = importOnThreads(writeFile("damaged.json", damaged), small, 4);
        REQUIRE_FALSE(bad.ok());
        CHECK(bad.error().message.find("JSON is invalid") != std::string::npos);
        std::filesystem::remove_all(dir);
    }
}

TEST_CASE("kineto: a trace cut short on disk while it is read gives a one-line error, and the program goes on") {
    // A profiler writing the same path again cuts the file while it is read: the import says
    // so, where the file's end would read as JSON cut short.
    struct CuttingAtFirstEvents final : ProgressSink {
        std::filesystem::path path;
        bool cut = false;
        void progress(std::string_view stage, uint64_t, uint64_t) override {
            if (stage != "events" || cut) return;
            std::filesystem::resize_file(path, 1 << 20);  // of 5.9 MB
            cut = true;
        }
    };
    const auto source = dataFile("kineto/train_1gpu_rank0.pt.trace.json");
    for (const unsigned threads : {1u, 4u}) {
        INFO(threads << " threads");
        const auto path = tempDir("kineto-cut") / "trace.json";
        std::filesystem::copy_file(source, path, std::filesystem::copy_options::overwrite_existing);
        CuttingAtFirstEvents progress;
        progress.path = path;
        ImportOptions options;
        options.threads = threads;
        const ImportResult result = KinetoImporter({1 << 16, 1 << 18, 1 << 20}).import(path, options, progress, {});
        REQUIRE(progress.cut);
        REQUIRE_FALSE(result.ok());
        CHECK(result.error().kind == ImportError::Kind::Unreadable);
        CHECK(result.error().message == path.string() +
                                            ": the file was cut short on disk while it was being read (it had " +
                                            std::to_string(std::filesystem::file_size(source)) + " bytes when opened)");
        // The same file, whole again, imports as before.
        std::filesystem::copy_file(source, path, std::filesystem::copy_options::overwrite_existing);
        NullProgress quiet;
        ImportResult again = KinetoImporter({1 << 16, 1 << 18, 1 << 20}).import(path, options, quiet, {});
        REQUIRE(again.ok());
        CHECK(again.report()->counts().kernels > 0);
    }
}
