// The check of issue 24: queries written for an nsys export return the same rows on the report
// itself (read natively, any version) as sqlite3 returns on nsys 2025.3's export of it, and the
// same rows again on that export read by Lanescope.
#include <sqlite3.h>

#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <iterator>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "Absent.h"
#include "TestPaths.h"
#include "analysis/Registry.h"
#include "analysis/Rules.h"
#include "importers/ImportHelpers.h"
#include "query/ExportQueries.h"
#include "query/ReportSql.h"
#include "query/SqliteExport.h"
#include "tests/query/SqlRows.h"

namespace lanescope::test {
namespace {

void checkPair(const std::filesystem::path& report, const std::filesystem::path& exported) {
    INFO(report.filename().string());
    // The range: the middle third of the kernels' span, from the export.
    const int64_t first = sqliteInt(exported, "SELECT coalesce(min(start), 0) FROM CUPTI_ACTIVITY_KIND_KERNEL");
    const int64_t last = sqliteInt(exported, "SELECT coalesce(max(start), 0) FROM CUPTI_ACTIVITY_KIND_KERNEL");
    auto queries = sql::exportQueries(first + (last - first) / 3, first + 2 * (last - first) / 3);
    // Beyond the issue's: the event classes of the CUDA calls (with a backtrace: 67).
    queries.push_back({"cuda_api_classes", "SELECT eventClass, count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME GROUP BY 1"});
    const auto dir = tempDir("lanescope-sql-pair");
    const auto ours = dir / "ours.sqlite";
    for (const auto& input : {report, exported}) {
        const auto model = importOk(input);
        std::string error;
        auto session = sql::ReportSql::open(*model, error);
        REQUIRE(session);
        // Lanescope's own export of the report, read by sqlite3 below.
        if (input == report) REQUIRE(sql::exportSqlite(*session, *model, ours, {}) == "");
        for (const auto& [name, q] : queries) {
            INFO("on " << input.filename().string() << ": " << q);
            const auto nsysRows = exportRows(exported, q);
            if (!nsysRows) continue;  // the report has none of that kind of event
            const Rows& expected = *nsysRows;
            const Rows got = lanescopeRows(*session, q);
            INFO("only in Lanescope's: " << onlyIn(got, expected)
                                         << "\nonly in the export's: " << onlyIn(expected, got));
            CHECK(got == expected);
            if (input == report) CHECK(exportRows(ours, q) == expected);
        }
    }
    std::filesystem::remove_all(dir);
}

}  // namespace

TEST_CASE("nsys export queries give the export's rows on every 2025.3 report", "[sql]") {
    for (const char* name : {"train_1gpu", "cpu_1gpu", "cuda_graphs", "cuda_graphs_nodes", "ddp_rank0", "ddp_rank1",
                             "train_metrics", "unified_memory", "torch_compile", "torch_compile_graphs",
                             "ddp_both_ranks", "two_gpus_one_process", "occupancy"}) {
        const std::string base = std::string("nsys-2025.3/") + name;
        checkPair(dataFile(base + ".nsys-rep"), dataFile(base + ".sqlite"));
    }
}

TEST_CASE("nsys export queries give the 2025.3 export's rows on a 2022.4 report", "[sql]") {
    const auto exported = sharedFile("nsys-2025.3-exports/cpu_nvtx_threads.sqlite");
    if (exported.empty()) LANESCOPE_SKIP_ABSENT("../shared/corpus/nsys-2025.3-exports/cpu_nvtx_threads.sqlite");
    checkPair(dataFile("nsys-2022.4/cpu_nvtx_threads.nsys-rep"), exported);
}

TEST_CASE("nsys export queries on public reports of 2020 to 2024", "[sql]") {
    const auto baseline = sharedFile("public/openhackathons-org__AI-Profiler__baseline_nvtx.nsys-rep");
    if (baseline.empty()) LANESCOPE_SKIP_ABSENT("../shared/corpus/public");
    const auto dir = tempDir("lanescope-sql-check");
    checkPair(
        baseline,
        inflatedXz(sharedFile("nsys-2025.3-exports/openhackathons-org__AI-Profiler__baseline_nvtx.sqlite.xz"), dir));
    for (const char* n : {"3", "4", "6"}) {
        const std::string name = std::string("openhackathons-org__gpubootcamp__report") + n;
        checkPair(sharedFile("public/mpi-jacobi/" + name + ".qdrep"),
                  inflatedXz(sharedFile("nsys-2025.3-exports/" + name + ".sqlite.xz"), dir));
    }
    std::filesystem::remove_all(dir);
}

TEST_CASE("nsys export queries on a PyTorch trace answer for what it holds", "[sql]") {
    const auto model = importOk(dataFile("kineto/train_1gpu_rank0.pt.trace.json"));
    std::string error;
    auto session = sql::ReportSql::open(*model, error);
    REQUIRE(session);
    const auto count = [&](const std::string& q) {
        sql::SqlResult result;
        INFO(q);
        REQUIRE(session->query(q, result) == "");
        return std::get<int64_t>(result.rows.at(0).at(0));
    };
    const EventCounts& counts = finishedCounts(*model);
    CHECK(count("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL") == int64_t(counts.kernels));
    CHECK(count("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY") == int64_t(counts.memcpy));
    CHECK(count("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMSET") == int64_t(counts.memset));
    CHECK(count("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME") == int64_t(counts.cuda_api));
    CHECK(counts.kernels > 0);
    // Kernels joined to their launches as a user writes it for nsys, against the model's own
    // pairs: a kernel's correlation id among the CUDA API calls of its process.
    std::set<std::pair<int32_t, uint32_t>> launches;  // (process, correlation id)
    for (const Lane& lane : model->lanes)
        if (lane.kind == LaneKind::CudaApi)
            for (uint32_t id : lane.events.payload) launches.emplace(model->threads[size_t(lane.thread)].process, id);
    int64_t launched = 0;
    for (const Lane& lane : model->lanes)
        if (lane.kind == LaneKind::GpuStream)
            for (size_t i = 0; i < lane.events.size(); ++i)
                if (lane.events.kind[i] == EventKind::Kernel)
                    launched += launches.count({lane.process, model->kernels[lane.events.payload[i]].correlation_id});
    CHECK(launched > 0);
    CHECK(count("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN CUPTI_ACTIVITY_KIND_RUNTIME r "
                "ON r.correlationId = k.correlationId AND (r.globalTid >> 24) & 0xFFFFFF = (k.globalPid >> 24) & "
                "0xFFFFFF") == launched);
    // Every query written for nsys exports runs on it.
    for (const auto& [name, q] : sql::exportQueries(model->meta.begin_ns, model->meta.end_ns)) {
        sql::SqlResult result;
        INFO(name);
        CHECK(session->query(q, result) == "");
    }
}

TEST_CASE("the report table says which rank a report is and where that was found", "[sql]") {
    const auto model = importOk(dataFile("nsys-2025.3/ddp_rank1.nsys-rep"));  // torchrun's rank 1
    std::string error;
    auto session = sql::ReportSql::open(*model, error);
    REQUIRE(session);
    sql::SqlResult result;
    REQUIRE(session->query("SELECT file, rank, rank_source, rank_label FROM report", result) == "");
    REQUIRE(result.rows.size() == 1);
    CHECK(sortedRows(result) == Rows{"ddp_rank1.nsys-rep|1|environment|rank 1|"});
}

// The export carries what the statistics read: read back, it gives every table and rule of the
// report it came from, also of a PyTorch trace (whose threads' names, NVTX lanes and ids go
// through ThreadNames, NVTX_EVENTS and globalTid).
TEST_CASE("Lanescope's SQLite export read back gives every statistics table and rule of its report", "[sql]") {
    const auto dir = tempDir("lanescope-sql-round-trip");
    for (const char* name : {"kineto/pytorch_profiled_gpu.pt.trace.json.gz", "nsys-2025.3/cuda_graphs.nsys-rep",
                             "nsys-2025.3/unified_memory.nsys-rep", "nsys-2025.3/ddp_rank0.nsys-rep"}) {
        INFO(name);
        const auto model = importOk(dataFile(name));
        std::string error;
        auto session = sql::ReportSql::open(*model, error);
        REQUIRE(session);
        const auto out = dir / "export.sqlite";
        std::filesystem::remove(out);
        REQUIRE(sql::exportSqlite(*session, *model, out, {}) == "");
        const auto back = importOk(out);
        size_t rows = 0;
        for (const StatsReportEntry& entry : statsReports()) {
            INFO(entry.name);
            const auto table = computeStats(*model, entry.name);
            REQUIRE(table);
            rows += table->rows.size();
            CHECK(toCsv(*computeStats(*back, entry.name)) == toCsv(*table));
        }
        for (const RuleEntry& entry : rules()) {
            INFO(entry.name);
            CHECK(toCsv(entry.run(*back, {}).table) == toCsv(entry.run(*model, {}).table));
        }
        CHECK(rows > 100);
    }
    std::filesystem::remove_all(dir);
}

TEST_CASE("the SQLite export refuses to overwrite, never leaves a partial file, never writes its input", "[sql]") {
    const auto input = dataFile("nsys-2025.3/cuda_graphs.nsys-rep");
    const auto model = importOk(input);
    std::string error;
    auto session = sql::ReportSql::open(*model, error);
    REQUIRE(session);
    const auto dir = tempDir("lanescope-sql-export");
    const auto out = dir / "out.sqlite";
    sql::SqliteExportStats stats;
    REQUIRE(sql::exportSqlite(*session, *model, out, {}, &stats) == "");
    CHECK(stats.rows > 0);
    CHECK(sqliteInt(out, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL") ==
          sqliteInt(dataFile("nsys-2025.3/cuda_graphs.sqlite"), "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL"));
    CHECK(sqliteInt(out, "SELECT count(*) FROM META_DATA_EXPORT WHERE value = 'Lanescope'") == 1);
    const auto size = std::filesystem::file_size(out);

    CHECK(sql::exportSqlite(*session, *model, out, {}).find("exists") != std::string::npos);
    CHECK(std::filesystem::file_size(out) == size);
    CHECK(sql::exportSqlite(*session, *model, out, {.overwrite = true}) == "");  // --force
    CHECK(sql::exportSqlite(*session, *model, dir / "missing" / "out.sqlite", {}) != "");
    CHECK(sql::exportSqlite(*session, *model, input, {.overwrite = true}).find("the report itself") !=
          std::string::npos);
    // Only out.sqlite is left: no partial file of the failed exports.
    size_t files = 0;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) files += entry.is_regular_file() ? 1 : 0;
    CHECK(files == 1);
    // The session still answers queries after exporting.
    sql::SqlResult result;
    CHECK(session->query("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL", result) == "");
    std::filesystem::remove_all(dir);
}

TEST_CASE("ranges on start, id equalities and ORDER BY start are planned on the tables and right", "[sql]") {
    const auto model = importOk(dataFile("nsys-2025.3/cpu_1gpu.nsys-rep"));
    std::string error;
    auto session = sql::ReportSql::open(*model, error);
    REQUIRE(session);
    const auto one = [&](const std::string& q) {
        sql::SqlResult result;
        INFO(q);
        REQUIRE(session->query(q, result) == "");
        REQUIRE(result.rows.size() == 1);
        return cellText(result.rows[0][0]);
    };
    const auto plan = [&](const std::string& q) {
        sql::SqlResult result;
        REQUIRE(session->query("EXPLAIN QUERY PLAN " + q, result) == "");
        std::string text;
        for (const auto& row : result.rows) text += cellText(row.back()) + "\n";
        return text;
    };
    const int64_t first = std::stoll(one("SELECT min(start) FROM CUPTI_ACTIVITY_KIND_RUNTIME"));
    const int64_t last = std::stoll(one("SELECT max(start) FROM CUPTI_ACTIVITY_KIND_RUNTIME"));
    for (const auto& [low, high] : {std::pair{first, last},
                                    {first + (last - first) / 3, first + (last - first) / 2},
                                    {last, last},
                                    {last + 1, last + 100}}) {
        const std::string l = std::to_string(low), h = std::to_string(high);
        // start + 0 hides the column from the planner: a plain scan and filter, the reference.
        for (const auto& [ours, reference] :
             {std::pair{"start >= " + l + " AND start < " + h, "start + 0 >= " + l + " AND start + 0 < " + h},
              {"start > " + l + " AND start <= " + h, "start + 0 > " + l + " AND start + 0 <= " + h},
              {"start = " + l, "start + 0 = " + l},
              {"start BETWEEN " + l + ".5 AND " + h, "start + 0 BETWEEN " + l + ".5 AND " + h}})
            CHECK(one("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE " + ours) ==
                  one("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE " + reference));
    }
    // Equalities on the id and the thread, against the same filters hidden from the planner.
    CHECK(one("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN CUPTI_ACTIVITY_KIND_KERNEL k "
              "ON k.correlationId = r.correlationId") ==
          one("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN CUPTI_ACTIVITY_KIND_KERNEL k "
              "ON k.correlationId + 0 = r.correlationId + 0"));
    const std::string tid = one("SELECT globalTid FROM CUPTI_ACTIVITY_KIND_RUNTIME LIMIT 1");
    CHECK(one("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE globalTid = " + tid) ==
          one("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE globalTid + 0 = " + tid));
    // A process by its globalPid and a thread name by its globalTid are looked up, not scanned
    // (the join of thread names to their processes), and give the rows the hidden key gives.
    struct Lookup {
        std::string joins, on, rest;  // "... JOIN ... ON " + on + rest
    };
    for (const Lookup& l :
         {Lookup{"ThreadNames t JOIN PROCESSES p", "p.globalPid", " = (t.globalTid >> 24) << 24"},
          Lookup{"CUPTI_ACTIVITY_KIND_RUNTIME r JOIN ThreadNames t", "t.globalTid", " = r.globalTid"}}) {
        const std::string looked = "SELECT count(*) FROM " + l.joins + " ON " + l.on + l.rest;
        CHECK(plan(looked).find("SCAN " + l.on.substr(0, 1) + " VIRTUAL TABLE INDEX 0:k") != std::string::npos);
        CHECK(one(looked) == one("SELECT count(*) FROM " + l.joins + " ON " + l.on + " + 0" + l.rest));
        CHECK(one(looked) != "0");
    }
    // ORDER BY start is served by the table, in order, without a sort of SQLite's.
    const std::string ordered = "SELECT start FROM CUPTI_ACTIVITY_KIND_RUNTIME ORDER BY start";
    CHECK(plan(ordered).find("TEMP B-TREE") == std::string::npos);
    CHECK(plan("SELECT start FROM CUPTI_ACTIVITY_KIND_RUNTIME ORDER BY end").find("TEMP B-TREE") != std::string::npos);
    sql::SqlResult rows;
    REQUIRE(session->query(ordered, rows) == "");
    CHECK(rows.rows.size() == size_t(std::stoll(one("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME"))));
    CHECK(std::is_sorted(rows.rows.begin(), rows.rows.end(), [](const auto& a, const auto& b) {
        return std::get<int64_t>(a[0]) < std::get<int64_t>(b[0]);
    }));
}

TEST_CASE("queries cannot write, attach or change anything, and say why in one line", "[sql]") {
    const auto model = importOk(dataFile("nsys-2025.3/train_1gpu.nsys-rep"));
    std::string error;
    auto session = sql::ReportSql::open(*model, error);
    REQUIRE(session);
    sql::SqlResult result;
    for (const char* q :
         {"ATTACH DATABASE '/tmp/x.sqlite' AS x", "CREATE TABLE t(a)", "CREATE TEMP TABLE t(a)",
          "DELETE FROM StringIds", "INSERT INTO StringIds VALUES (1, 'x')", "PRAGMA writable_schema = 1",
          "DROP TABLE StringIds", "SELEC 1", "SELECT nope FROM StringIds"}) {
        const std::string message = session->query(q, result);
        INFO(q << " -> " << message);
        CHECK(!message.empty());
        CHECK(message.find('\n') == std::string::npos);
    }
    CHECK(session->query("SELECT count(*) FROM StringIds", result) == "");
    CHECK(std::get<int64_t>(result.rows.at(0).at(0)) == int64_t(model->strings.tableSize()));  // the file's strings
}

TEST_CASE("a running query is cancelled by its stop flag", "[sql]") {
    const auto model = importOk(dataFile("nsys-2025.3/train_1gpu.nsys-rep"));
    std::string error;
    auto session = sql::ReportSql::open(*model, error);
    REQUIRE(session);
    std::atomic<bool> stop{false};
    size_t rows = 0;
    const std::string message = session->run(
        "SELECT a.start FROM CUPTI_ACTIVITY_KIND_RUNTIME a, CUPTI_ACTIVITY_KIND_RUNTIME b, CUPTI_ACTIVITY_KIND_RUNTIME "
        "c",
        [](const auto&) {},
        [&](sqlite3_stmt*) {
            if (++rows == 1000) stop = true;
            return true;
        },
        &stop);
    CHECK(message == "interrupted");
    CHECK(rows < 100000);
}

}  // namespace lanescope::test
