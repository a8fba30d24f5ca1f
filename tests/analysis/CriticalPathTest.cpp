// The critical path (docs/analyses.md, "Critical path"): the hand-built traces of
// tests/data/critical_path against their hand-written paths, and every corpus report against
// the independent Python implementation (tests/tools/critical_path_reference.py).
#include <algorithm>
#include <array>
#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <future>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "TestPaths.h"
#include "analysis/communication/CollectiveInstances.h"
#include "analysis/critical_path/CriticalPath.h"
#include "importers/ImportHelpers.h"

using namespace lanescope;

namespace {

struct CriticalPathCase {
    std::string expected;            // NAME.expected.csv
    std::vector<std::string> files;  // the trace, or the ranks of one job
};

std::vector<CriticalPathCase> handBuiltCases() {
    return {
        {"gpu_bound", {"gpu_bound.sqlite"}},
        {"launch_bound.pt", {"launch_bound.pt.trace.json"}},
        {"mixed_step", {"mixed_step.sqlite"}},
        {"two_streams_event", {"two_streams_event.sqlite"}},
        {"two_streams_event.pt", {"two_streams_event.pt.trace.json"}},
        {"cuda_graph_launch", {"cuda_graph_launch.sqlite"}},
        {"cuda_graph_launch_nodes", {"cuda_graph_launch_nodes.sqlite"}},
        {"two_ranks_late", {"two_ranks_late_rank0.sqlite", "two_ranks_late_rank1.sqlite"}},
        {"dataloader_blocks_main_thread", {"dataloader_blocks_main_thread.sqlite"}},
    };
}

struct CriticalPathInputs {
    std::vector<std::unique_ptr<Report>> owned;
    std::vector<const Report*> reports;
};

CriticalPathInputs importCriticalPathInputs(const std::vector<std::filesystem::path>& paths) {
    CriticalPathInputs in;
    for (const auto& p : paths) {
        in.owned.push_back(test::importOk(p));
        in.reports.push_back(in.owned.back().get());
    }
    return in;
}

// The reference's CSV of the whole report(s), run with python3.
std::string referenceCsv(const std::vector<std::filesystem::path>& paths) {
    std::string command = "python3 '" + test::dataFile("../tools/critical_path_reference.py").string() + "'";
    for (const auto& p : paths) command += " '" + p.string() + "'";
    command += " --format csv 2>/dev/null";
    std::string out;
    FILE* pipe = ::popen(command.c_str(), "r");
    if (!pipe) return "popen failed";
    std::array<char, 65536> buffer{};
    size_t n = 0;
    while ((n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0) out.append(buffer.data(), n);
    const int status = ::pclose(pipe);
    if (status != 0) out += "\n(reference failed, status " + std::to_string(status) + ")";
    return out;
}

// The invariants every path holds: contiguous, in time order, positive lengths, covering the
// range, each item segment within its event (on the shared timeline: shifted with its report).
void checkPathInvariants(const std::vector<const Report*>& reports, const CriticalPath& path) {
    const PathSegments& s = path.segments;
    int64_t at = path.begin_ns, sum = 0;
    for (size_t i = 0; i < s.size(); ++i) {
        INFO("segment " << i);
        REQUIRE(s.start_ns[i] == at);
        REQUIRE(s.end_ns[i] > s.start_ns[i]);
        at = s.end_ns[i];
        sum += s.end_ns[i] - s.start_ns[i];
        if (s.event[i] >= 0) {
            const Report& rep = *reports[s.report[i]];
            REQUIRE(s.lane[i] >= 0);
            REQUIRE(size_t(s.lane[i]) < rep.lanes.size());
            const IntervalColumns& ev = rep.lanes[size_t(s.lane[i])].events;
            REQUIRE(size_t(s.event[i]) < ev.size());
            CHECK(rep.str(ev.name_id[size_t(s.event[i])]) == rep.str(s.name_id[i]));
            const int64_t offset = path.offsets_ns[s.report[i]];
            CHECK(s.start_ns[i] >= ev.start_ns[size_t(s.event[i])] + offset);
            CHECK(s.end_ns[i] <= ev.endNs(size_t(s.event[i])) + offset);
        }
    }
    CHECK(at == (s.size() ? path.end_ns : path.begin_ns));
    CHECK(sum == path.end_ns - path.begin_ns);
    int64_t byCategory = 0;
    for (int64_t v : path.by_category) byCategory += v;
    CHECK(byCategory == sum);
}

// What if every item of the reports were 2x faster: the path is never longer.
void checkEveryItemFasterNeverLonger(const std::vector<const Report*>& reports, const CriticalPath& path) {
    CriticalPathOptions faster;
    faster.what_if = {{"", 2.0}};
    const CriticalPath shorter = computeCriticalPath(reports, faster);
    REQUIRE(shorter.what_if_length_ns);
    CHECK(*shorter.what_if_length_ns <= path.end_ns - path.begin_ns);
}

std::vector<std::filesystem::path> corpusCriticalPathFiles() {
    std::vector<std::filesystem::path> files;
    for (const char* dir : {"nsys-2025.3", "kineto"})
        for (const auto& entry : std::filesystem::directory_iterator(test::dataFile(dir))) {
            const std::string name = entry.path().filename().string();
            if (name.ends_with(".sqlite") || name.ends_with(".nsys-rep") || name.ends_with(".json") ||
                name.ends_with(".json.gz"))
                files.push_back(entry.path());
        }
    std::sort(files.begin(), files.end());
    return files;
}

}  // namespace

TEST_CASE("critical path: each hand-built trace gives its hand-written path, byte for byte") {
    for (const CriticalPathCase& c : handBuiltCases()) {
        INFO(c.expected);
        std::vector<std::filesystem::path> paths;
        for (const auto& f : c.files) paths.push_back(test::dataFile("critical_path/" + f));
        const CriticalPathInputs in = importCriticalPathInputs(paths);
        const CriticalPath path = computeCriticalPath(in.reports, {});
        CHECK(criticalPathCsv(in.reports, path) ==
              test::readFile(test::dataFile("critical_path/" + c.expected + ".expected.csv")));
        checkPathInvariants(in.reports, path);
    }
}

TEST_CASE("critical path: every corpus report, its invariants and the reference's path") {
    const std::vector<std::filesystem::path> files = corpusCriticalPathFiles();
    REQUIRE(files.size() >= 20);
    // The reference runs in the background while the C++ computes. An .nsys-rep (native reader)
    // must give what its SQLite export gives.
    std::map<std::string, std::shared_future<std::string>> reference;
    for (const auto& f : files) {
        std::filesystem::path source = f;
        if (f.extension() == ".nsys-rep") source.replace_extension(".sqlite");
        const std::string key = source.string();
        if (!reference.count(key))
            reference.emplace(key, std::async(std::launch::async, [source] { return referenceCsv({source}); }).share());
    }
    for (const auto& f : files) {
        INFO(f.filename().string());
        const CriticalPathInputs in = importCriticalPathInputs({f});
        const CriticalPath path = computeCriticalPath(in.reports, {});
        checkPathInvariants(in.reports, path);
        std::filesystem::path source = f;
        if (f.extension() == ".nsys-rep") source.replace_extension(".sqlite");
        CHECK(criticalPathCsv(in.reports, path) == reference.at(source.string()).get());

        // What if: a factor of 1 gives back the same length; every item 2x faster never longer.
        CriticalPathOptions same;
        same.what_if = {{".*", 1.0}};
        const CriticalPath unchanged = computeCriticalPath(in.reports, same);
        REQUIRE(unchanged.what_if_length_ns);
        CHECK(*unchanged.what_if_length_ns == path.end_ns - path.begin_ns);
        checkEveryItemFasterNeverLonger(in.reports, path);
    }
}

TEST_CASE("critical path: two ranks of one job cross ranks through a collective") {
    for (const std::string dir : {"nsys-2025.3/ddp_rank|.sqlite", "kineto/ddp_rank|.pt.trace.json.gz"}) {
        std::vector<std::filesystem::path> paths;
        for (const char* r : {"0", "1"}) {
            std::string name = dir;
            name.replace(name.find('|'), 1, r);
            paths.push_back(test::dataFile(name));
        }
        INFO(paths[0].string());
        const CriticalPathInputs in = importCriticalPathInputs(paths);
        const CriticalPath path = computeCriticalPath(in.reports, {});
        checkPathInvariants(in.reports, path);
        CHECK(criticalPathCsv(in.reports, path) == referenceCsv(paths));
        if (dir.starts_with("nsys")) {
            // A rank change happens at a Communication segment: the walk goes to the rank that
            // arrived last at a matched collective.
            const PathSegments& s = path.segments;
            bool crossed = false;
            for (size_t i = 1; i < s.size(); ++i)
                if (s.report[i] != s.report[i - 1] &&
                    (s.category[i] == PathCategory::Communication || s.category[i - 1] == PathCategory::Communication ||
                     s.category[i - 1] == PathCategory::LaunchLatency))
                    crossed = true;
            CHECK(crossed);
        }
        checkEveryItemFasterNeverLonger(in.reports, path);
    }
}

TEST_CASE("critical path: a collective on the path names its size and bandwidths") {
    // The .nsys-rep files hold NCCL's payloads (the exports above were made without them).
    const std::vector<std::filesystem::path> paths{test::dataFile("nsys-2025.3/ddp_rank0.nsys-rep"),
                                                   test::dataFile("nsys-2025.3/ddp_rank1.nsys-rep")};
    const CriticalPathInputs in = importCriticalPathInputs(paths);
    const CriticalPath path = computeCriticalPath(in.reports, {});
    const CommunicationAnalysis comm = analyzeCommunication(in.reports);
    size_t communication = 0;
    for (size_t i = 0; i < path.segments.size(); ++i)
        if (path.segments.category[i] == PathCategory::Communication && path.segments.event[i] >= 0) ++communication;
    REQUIRE(communication > 0);
    REQUIRE(path.collectives.size() == communication);  // every one of them has a size
    for (const PathCollective& c : path.collectives) {
        const PathSegments& s = path.segments;
        // The same size and bandwidths as the communication analysis gives that kernel.
        size_t row = comm.rows.size();
        for (size_t k = 0; k < comm.rows.size(); ++k)
            if (comm.rows.rank[k] == s.report[c.segment] && int32_t(comm.rows.lane[k]) == s.lane[c.segment] &&
                int32_t(comm.rows.event[k]) == s.event[c.segment])
                row = k;
        REQUIRE(row < comm.rows.size());
        CHECK(c.size_bytes == comm.rows.size_bytes[row]);
        CHECK(c.algbw_gbps == Approx(comm.rows.algbw_gbps[row]));
        CHECK(c.busbw_gbps == Approx(comm.rows.busbw_gbps[row]));
    }
    const std::string json = criticalPathJson(in.reports, path);
    CHECK(json.find("\"size_bytes\": " + std::to_string(path.collectives[0].size_bytes)) != std::string::npos);
    CHECK(json.find("\"busbw_gbps\"") != std::string::npos);
}

TEST_CASE("critical path: a range, a step, an NVTX range and what-if rules") {
    const CriticalPathInputs in = importCriticalPathInputs({test::dataFile("critical_path/mixed_step.sqlite")});
    CriticalPathOptions options;
    options.range = std::pair<int64_t, int64_t>{1100000, 1300000};
    const CriticalPath part = computeCriticalPath(in.reports, options);
    checkPathInvariants(in.reports, part);
    CHECK(part.segments.start_ns.front() == 1100000);
    const auto step = stepOwnedRange(*in.reports[0], 0);
    REQUIRE(step);
    CHECK(step->begin_ns == 1000000);
    CHECK(step->end_ns == 1400000);
    const auto nvtx = nvtxOwnedRange(*in.reports[0], "forward");
    REQUIRE(nvtx);
    CHECK(!nvtxOwnedRange(*in.reports[0], "no such range"));
    CHECK(parseWhatIfRule("kernel_.*=2"));
    CHECK(parseWhatIfRule("a=b=1.5")->regex == "a=b");
    CHECK(!parseWhatIfRule("kernel=0"));
    CHECK(!parseWhatIfRule("kernel"));
    CHECK(!parseWhatIfRule("(=2"));
    // kernel_a and kernel_b 2x faster: the GPU-bound part shrinks by half their time.
    CriticalPathOptions faster;
    faster.what_if = {{"kernel_[ab]", 2.0}};
    const CriticalPath whole = computeCriticalPath(in.reports, {});
    const CriticalPath w = computeCriticalPath(in.reports, faster);
    REQUIRE(w.what_if_length_ns);
    CHECK(*w.what_if_length_ns == whole.end_ns - whole.begin_ns - (88000 + 76000) / 2);
    const std::string json = criticalPathJson(in.reports, w);
    CHECK(json.find("\"what_if_length_ns\"") != std::string::npos);
    CHECK(json.find("\"by_category\"") != std::string::npos);
}
