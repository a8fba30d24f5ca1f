// The CPU profile (docs/analyses.md, "CPU profile") against SQL over the exports' own tables.
#include <sqlite3.h>

#include <algorithm>
#include <climits>
#include <map>
#include <tuple>

#include "Absent.h"
#include "analysis/CpuProfile.h"
#include "importers/ImportHelpers.h"

using namespace lanescope;
using namespace lanescope::test;

namespace {

// Rows of a query as text cells, on a SQLite file opened read-only.
std::vector<std::vector<std::string>> query(const std::filesystem::path& path, const std::string& sql) {
    sqlite3* db = nullptr;
    std::vector<std::vector<std::string>> rows;
    REQUIRE(sqlite3_open_v2(("file:" + path.string() + "?immutable=1").c_str(), &db,
                            SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr) == SQLITE_OK);
    sqlite3_stmt* stmt = nullptr;
    REQUIRE(sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) == SQLITE_OK);
    while (sqlite3_step(stmt) == SQLITE_ROW) {
        std::vector<std::string> row;
        for (int c = 0; c < sqlite3_column_count(stmt); ++c) {
            const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(stmt, c));
            row.emplace_back(text ? text : "");
        }
        rows.push_back(std::move(row));
    }
    sqlite3_finalize(stmt);
    sqlite3_close(db);
    return rows;
}

using FlatKey = std::pair<std::string, std::string>;                  // function, module
using FlatCounts = std::map<FlatKey, std::pair<uint64_t, uint64_t>>;  // self, total

// Self and total per (function, module) by SQL, for samples starting in [b, e).
FlatCounts flatBySql(const std::filesystem::path& db, int64_t b, int64_t e) {
    FlatCounts out;
    const std::string sql =
        "SELECT s.value, m.value, SUM(c.stackDepth = 0), COUNT(DISTINCT c.id) FROM SAMPLING_CALLCHAINS c "
        "JOIN COMPOSITE_EVENTS e ON e.id = c.id JOIN StringIds s ON s.id = c.symbol JOIN StringIds m ON m.id = "
        "c.module WHERE e.start >= " +
        std::to_string(b) + " AND e.start < " + std::to_string(e) + " GROUP BY s.value, m.value";
    for (const auto& r : query(db, sql)) out[{r[0], r[1]}] = {std::stoull(r[2]), std::stoull(r[3])};
    return out;
}

FlatCounts flatByLanescope(const Report& r, const std::vector<FlatProfileRow>& rows) {
    FlatCounts out;
    for (const FlatProfileRow& row : rows)
        out[{std::string(r.str(r.stacks.frame_function[row.frame])),
             std::string(r.str(r.stacks.frame_module[row.frame]))}] = {row.self, row.total};
    return out;
}

// Per thread (pid, tid): samples, running ns and switch-ins by SQL, each switch-in paired with
// the thread's next scheduling event when that is a switch-out.
std::map<std::pair<int64_t, int64_t>, std::tuple<uint64_t, int64_t, uint64_t>> threadsBySql(
    const std::filesystem::path& db) {
    std::map<std::pair<int64_t, int64_t>, std::tuple<uint64_t, int64_t, uint64_t>> out;
    auto key = [](const std::string& gtid) {
        const int64_t g = std::stoll(gtid);
        return std::pair<int64_t, int64_t>{(g >> 24) & 0xFFFFFF, g & 0xFFFFFF};
    };
    for (const auto& r : query(db, "SELECT globalTid, count(*) FROM COMPOSITE_EVENTS GROUP BY globalTid"))
        std::get<0>(out[key(r[0])]) = std::stoull(r[1]);
    const std::string sched =
        "SELECT globalTid, SUM(isSchedIn != 0), SUM(CASE WHEN isSchedIn != 0 AND nextIn = 0 THEN nextStart - start "
        "ELSE 0 END) FROM (SELECT globalTid, isSchedIn, start, LEAD(start) OVER w AS nextStart, LEAD(isSchedIn) "
        "OVER w AS nextIn FROM SCHED_EVENTS WINDOW w AS (PARTITION BY globalTid ORDER BY start, rowid)) GROUP BY "
        "globalTid";
    for (const auto& r : query(db, sched)) {
        auto& row = out[key(r[0])];
        std::get<2>(row) = std::stoull(r[1]);
        std::get<1>(row) = std::stoll(r[2]);
    }
    return out;
}

void checkAgainstSql(const std::filesystem::path& db, const Report& r) {
    INFO(db.filename().string());
    const uint64_t samples = static_cast<uint64_t>(sqliteInt(db, "SELECT count(*) FROM COMPOSITE_EVENTS"));
    const StackCounts all = countSamples(r, {});
    CHECK(all.samples == samples);
    CHECK(r.counts().cpu_samples == samples);
    const auto flat = flatProfile(r, all);
    CHECK(flatByLanescope(r, flat) == flatBySql(db, INT64_MIN, INT64_MAX));
    for (size_t i = 1; i < flat.size(); ++i)  // Self, then Total, descending
        CHECK(std::tie(flat[i - 1].self, flat[i - 1].total) >= std::tie(flat[i].self, flat[i].total));

    // The middle half of the report's samples only.
    const int64_t b = sqliteInt(
        db, "SELECT start FROM COMPOSITE_EVENTS ORDER BY start LIMIT 1 OFFSET " + std::to_string(samples / 4));
    const int64_t e = sqliteInt(
        db, "SELECT start FROM COMPOSITE_EVENTS ORDER BY start LIMIT 1 OFFSET " + std::to_string(samples * 3 / 4));
    SampleSelection middle;
    middle.range = {b, e};
    const StackCounts part = countSamples(r, middle);
    CHECK(part.samples == static_cast<uint64_t>(sqliteInt(
                              db, "SELECT count(*) FROM COMPOSITE_EVENTS WHERE start >= " + std::to_string(b) +
                                      " AND start < " + std::to_string(e))));
    CHECK(flatByLanescope(r, flatProfile(r, part)) == flatBySql(db, b, e));

    // Threads: every thread with samples or switches, as SQL pairs them (no unmatched switches here).
    REQUIRE(r.diagnostics.count("sched_switch_in_without_switch_out") == 0);
    std::map<std::pair<int64_t, int64_t>, std::tuple<uint64_t, int64_t, uint64_t>> mine;
    for (const ThreadActivityRow& row : threadActivity(r, {})) {
        const Thread& t = r.threads[static_cast<size_t>(row.thread)];
        mine[{r.processes[static_cast<size_t>(t.process)].pid, t.tid}] = {row.samples, row.running_ns, row.switches};
    }
    CHECK(mine == threadsBySql(db));
}

// Trees: top-down, a node's total is its self plus its children's totals; bottom-up, a node's
// callers account for at most its samples (the rest stop there), and self is the roots' total.
// The roots hold every sample with a stack; bottom-up roots are the flat view's self counts.
void checkTrees(const Report& r) {
    const StackCounts c = countSamples(r, {});
    for (const bool topDown : {true, false}) {
        const auto tree = topDown ? topDownTree(r, c) : bottomUpTree(r, c);
        uint64_t roots = 0;
        for (size_t i = 0; i < tree.size(); ++i) {
            if (tree[i].depth == 0) roots += tree[i].total;
            uint64_t children = 0;
            for (size_t j = i + 1; j < tree.size() && tree[j].depth > tree[i].depth; ++j)
                if (tree[j].depth == tree[i].depth + 1) children += tree[j].total;
            if (topDown)
                CHECK(tree[i].total == tree[i].self + children);
            else
                CHECK((tree[i].total >= children && tree[i].self == (tree[i].depth == 0 ? tree[i].total : 0)));
            if (i > 0) CHECK(tree[i].depth <= tree[i - 1].depth + 1);
        }
        CHECK(roots == c.samples - c.without_stack);
    }
    std::map<uint32_t, uint64_t> selfOfFrame, rootsOfFrame;
    for (const FlatProfileRow& row : flatProfile(r, c))
        if (row.self) selfOfFrame[row.frame] = row.self;
    for (const CallTreeRow& row : bottomUpTree(r, c))
        if (row.depth == 0) rootsOfFrame[row.frame] = row.total;
    CHECK(selfOfFrame == rootsOfFrame);
}

}  // namespace

TEST_CASE("CPU profile of cpu_1gpu equals SQL over its export, and the native reader gives the same") {
    const auto db = dataFile("nsys-2025.3/cpu_1gpu.sqlite");
    const auto fromSql = importOk(db);
    checkAgainstSql(db, *fromSql);
    checkTrees(*fromSql);
    const auto native = importOk(dataFile("nsys-2025.3/cpu_1gpu.nsys-rep"));
    const StackCounts a = countSamples(*fromSql, {}), b = countSamples(*native, {});
    CHECK(toCsv(flatProfileTable(*native, b)) == toCsv(flatProfileTable(*fromSql, a)));
    CHECK(toCsv(callTreeTable(*native, b, topDownTree(*native, b), "t")) ==
          toCsv(callTreeTable(*fromSql, a, topDownTree(*fromSql, a), "t")));
    CHECK(toCsv(callTreeTable(*native, b, bottomUpTree(*native, b), "t")) ==
          toCsv(callTreeTable(*fromSql, a, bottomUpTree(*fromSql, a), "t")));
    CHECK(toCsv(threadActivityTable(*native, threadActivity(*native, {}))) ==
          toCsv(threadActivityTable(*fromSql, threadActivity(*fromSql, {}))));
}

TEST_CASE("CPU profile: selection by thread and process") {
    const auto r = importOk(dataFile("nsys-2025.3/cpu_1gpu.sqlite"));
    SampleSelection worker;
    worker.tids = {484};
    CHECK(countSamples(*r, worker).samples ==
          static_cast<uint64_t>(sqliteInt(dataFile("nsys-2025.3/cpu_1gpu.sqlite"),
                                          "SELECT count(*) FROM COMPOSITE_EVENTS WHERE globalTid & 16777215 = 484")));
    SampleSelection process;
    process.pids = {452};
    const auto rows = threadActivity(*r, process);
    REQUIRE(!rows.empty());
    for (const ThreadActivityRow& row : rows)
        CHECK(r->processes[static_cast<size_t>(r->threads[static_cast<size_t>(row.thread)].process)].pid == 452);
    SampleSelection nobody;
    nobody.tids = {1};
    CHECK(countSamples(*r, nobody).samples == 0);
    CHECK(flatProfile(*r, countSamples(*r, nobody)).empty());
}

TEST_CASE("CPU profile of the public 2022.2 capture equals SQL over its export (../shared/corpus/public)") {
    const auto db = sharedFile("public/openhackathons-org__AI-Profiler__baseline_nvtx.sqlite");
    if (db.empty()) LANESCOPE_SKIP_ABSENT("../shared/corpus/public");
    const auto r = importOk(db);
    checkAgainstSql(db, *r);
    checkTrees(*r);
}

TEST_CASE("CPU profile: the samples with a frame are its flat Total, over a range and a thread too") {
    const auto r = importOk(dataFile("nsys-2025.3/cpu_1gpu.sqlite"));
    SampleSelection all, part;
    const auto [first, last] = [&] {
        int64_t lo = INT64_MAX, hi = INT64_MIN;
        for (const Lane& lane : r->lanes)
            if (lane.kind == LaneKind::CpuSamples && lane.instants.size()) {
                lo = std::min(lo, lane.instants.time_ns.front());
                hi = std::max(hi, lane.instants.time_ns.back());
            }
        return std::pair{lo, hi};
    }();
    part.range = {first + (last - first) / 3, first + 2 * (last - first) / 3};
    part.tids = {484};
    for (const SampleSelection& selection : {all, part}) {
        const auto flat = flatProfile(*r, countSamples(*r, selection));
        REQUIRE(flat.size() >= 3);
        for (size_t i = 0; i < 3; ++i) {
            uint64_t n = 0;
            for (const LaneSamples& lane : samplesWithFrame(*r, selection, flat[i].frame)) {
                CHECK(std::is_sorted(lane.instants.begin(), lane.instants.end()));
                n += lane.instants.size();
            }
            CHECK(n == flat[i].total);
        }
    }
}
