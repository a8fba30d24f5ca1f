// The row skeleton an import hands a viewer before its events are read
// (ImportOptions::on_skeleton): the SQLite importer's first skeleton comes before any event
// table is read and already has every process, thread and GPU of a synthetic report, with the
// lanes a glance at its tables finds; every skeleton's lanes are lanes of the finished report,
// without events and frozen, and the last one has its processes, threads and GPUs; the native
// .nsys-rep reader gives them too.
#include <catch2/catch.hpp>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "TestPaths.h"
#include "importers/Importer.h"
#include "tests/support/SyntheticReport.h"

using namespace lanescope;

namespace {

// What a skeleton and the finished report must agree on, by value: names and ids, never
// indexes (a skeleton orders what it has only named after what the import has made).
std::set<std::string> processesOf(const Report& r) {
    std::set<std::string> out;
    for (const Process& p : r.processes) out.insert(std::to_string(p.pid) + " " + std::string(r.str(p.name_id)));
    return out;
}
std::set<std::string> threadsOf(const Report& r) {
    std::set<std::string> out;
    for (const Thread& t : r.threads)
        out.insert(std::to_string(r.processes[size_t(t.process)].pid) + "/" + std::to_string(t.tid) + " " +
                   std::string(r.str(t.name_id)));
    return out;
}
std::set<std::string> gpusOf(const Report& r) {
    std::set<std::string> out;
    for (const Gpu& g : r.gpus) out.insert(std::to_string(g.device_id) + " " + std::string(r.str(g.name_id)));
    return out;
}
std::set<std::string> lanesOf(const Report& r) {
    std::set<std::string> out;
    for (const Lane& l : r.lanes)
        out.insert(std::string(laneKindName(l.kind)) + " " + std::string(r.str(l.name_id)) + " pid " +
                   (l.process >= 0 ? std::to_string(r.processes[size_t(l.process)].pid) : "-") + " tid " +
                   (l.thread >= 0 ? std::to_string(r.threads[size_t(l.thread)].tid) : "-") + " gpu " +
                   (l.gpu >= 0 ? std::to_string(r.gpus[size_t(l.gpu)].device_id) : "-") + " stream " +
                   std::to_string(l.stream_id) + " context " + std::to_string(l.context_id) + " cpu " +
                   std::to_string(l.cpu));
    return out;
}

struct Imported {
    std::vector<std::shared_ptr<const Report>> skeletons;
    std::unique_ptr<Report> report;
};

Imported importWithSkeletons(const std::filesystem::path& file) {
    Imported out;
    ImportOptions options;
    options.on_skeleton = [&](std::shared_ptr<const Report> skeleton) { out.skeletons.push_back(std::move(skeleton)); };
    NullProgress progress;
    ImportResult result = importFile(file, options, progress);
    REQUIRE(result.ok());
    out.report = std::move(result.report());
    return out;
}

void checkSkeletons(const Imported& imported) {
    const Report& final = *imported.report;
    REQUIRE(!imported.skeletons.empty());
    for (const auto& skeleton : imported.skeletons) {
        CHECK(skeleton->meta.source_path == final.meta.source_path);
        CHECK(skeleton->meta.format == final.meta.format);
        CHECK(reportTitle(*skeleton) == reportTitle(final));
        const std::set<std::string> lanes = lanesOf(*skeleton), finalLanes = lanesOf(final);
        for (const std::string& lane : lanes) CHECK(finalLanes.count(lane) == 1);
        for (const Lane& lane : skeleton->lanes) {
            CHECK(lane.events.size() == 0);
            CHECK(lane.instants.size() == 0);
            CHECK(lane.isFrozen());
        }
    }
    const Report& last = *imported.skeletons.back();
    CHECK(processesOf(last) == processesOf(final));
    CHECK(threadsOf(last) == threadsOf(final));
    CHECK(gpusOf(last) == gpusOf(final));
}

}  // namespace

TEST_CASE("the SQLite importer's first skeleton has the finished report's processes, threads, GPUs and lanes") {
    const auto dir = test::tempDir("skeleton");
    const auto file = dir / "synthetic.sqlite";
    bench::writeSyntheticReport(file, 300'000);
    const Imported imported = importWithSkeletons(file);
    checkSkeletons(imported);
    const Report& first = *imported.skeletons.front();
    const Report& final = *imported.report;
    CHECK(processesOf(first) == processesOf(final));
    CHECK(threadsOf(first) == threadsOf(final));
    CHECK(gpusOf(first) == gpusOf(final));
    // Before any event table is read, the rows a glance at them finds: here all of the stream,
    // CUDA API, OS runtime and NVTX rows (each has thousands of events). A stream is one row: the
    // finished report's two lanes of a stream's kernels and memory operations share it.
    auto sampledRows = [](const Report& r) {
        std::set<std::tuple<LaneKind, int32_t, int32_t, int32_t, int64_t>> rows;
        for (const Lane& lane : r.lanes)
            if (lane.kind == LaneKind::GpuStream || lane.kind == LaneKind::CudaApi ||
                lane.kind == LaneKind::OsRuntime || lane.kind == LaneKind::Nvtx)
                rows.emplace(lane.kind, lane.process, lane.thread, lane.gpu, lane.stream_id);
        return rows;
    };
    CHECK(sampledRows(first).size() == first.lanes.size());
    CHECK(sampledRows(first) == sampledRows(final));
    CHECK(first.meta.begin_ns == first.meta.end_ns);  // the export records no span of its events
    // Lanes only come, never go.
    for (size_t i = 1; i < imported.skeletons.size(); ++i)
        CHECK(imported.skeletons[i]->lanes.size() >= imported.skeletons[i - 1]->lanes.size());
    std::filesystem::remove_all(dir);
}

TEST_CASE("every skeleton of the corpus's SQLite exports holds lanes of the finished report") {
    for (const char* name :
         {"nsys-2025.3/train_1gpu.sqlite", "nsys-2025.3/cpu_1gpu.sqlite", "nsys-2025.3/ddp_rank1.sqlite",
          "nsys-2025.3/unified_memory.sqlite", "nsys-2022.4/cpu_nvtx_threads.sqlite"}) {
        INFO(name);
        checkSkeletons(importWithSkeletons(test::dataFile(name)));
    }
}

TEST_CASE("the native .nsys-rep reader gives skeletons before the events are merged") {
    const Imported imported = importWithSkeletons(test::dataFile("nsys-2025.3/train_1gpu.nsys-rep"));
    checkSkeletons(imported);
    // Before decoding: the report's row (its threads and GPUs are only named so far).
    CHECK(imported.skeletons.front()->lanes.empty());
    CHECK(imported.skeletons.front()->threads.empty());
    CHECK(imported.skeletons.back()->lanes.size() > 0);
}
