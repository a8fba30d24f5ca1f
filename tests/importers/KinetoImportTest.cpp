#include <zlib.h>

#include <catch2/catch.hpp>
#include <fstream>

#include "TestPaths.h"
#include "importers/Importer.h"
#include "model/NsysStats.h"

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
        for (size_t i = 0; i < ev.size(); ++i) REQUIRE(ev.end_ns[i] >= ev.start_ns[i]);
        for (size_t i = 1; i < ev.size(); ++i) REQUIRE(ev.start_ns[i - 1] <= ev.start_ns[i]);
        REQUIRE(lane.depth_begin.size() == size_t{lane.depth_count} + 1);
        for (uint8_t d = 0; d < lane.depth_count; ++d)
            for (uint32_t k = lane.depth_begin[d] + 1; k < lane.depth_begin[d + 1]; ++k)
                REQUIRE(ev.end_ns[lane.depth_order[k - 1]] <= ev.start_ns[lane.depth_order[k]]);
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
    CHECK(r->profiler_overhead.size() == 2);
    checkLaneInvariants(*r);
    checkKernelStats(*r);

    // Exact microsecond -> nanosecond: the first kernel (dur 0.800 us) is 800 ns.
    bool found800 = false;
    for (const Lane& l : r->lanes)
        if (l.kind == LaneKind::GpuStream)
            for (size_t i = 0; i < l.events.size(); ++i)
                if (l.events.kind[i] == EventKind::Kernel && l.events.end_ns[i] - l.events.start_ns[i] == 800)
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
    const auto path = sharedFile("public/facebookresearch__HolisticTraceAnalysis__rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz");
    if (path.empty()) {
        WARN("public HTA trace absent (../shared/corpus/public): skipped");
        return;
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
                    longest = std::max(longest, l.events.end_ns[i] - l.events.start_ns[i]);
                    total += l.events.end_ns[i] - l.events.start_ns[i];
                }
    CHECK(longest < 10'000'000'000);          // every kernel under 10 s
    CHECK(longest > 100'000);                 // the longest over 100 us (1112.761 us)
    CHECK(total / c.kernels > 1000);          // mean over 1 us
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
                CHECK(l.events.end_ns[i] == 2001);  // 12.0009 us rounds to 12001 ns
                CHECK(l.events.depth[i] == 1);
            }
    CHECK(inner);
    bool named = false;
    for (const Thread& t : r->threads) named |= r->str(t.name_id) == "worker";
    CHECK(named);
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
