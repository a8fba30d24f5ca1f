// The CPU-side SQL tables (SCHED_EVENTS, COMPOSITE_EVENTS, SAMPLING_CALLCHAINS, OSRT_CALLCHAINS,
// CUDA_CALLCHAINS and the callchainId columns that join them, MPI_OTHER_EVENTS) give the rows
// sqlite3 gives on nsys 2025.3's export of the same report, read natively and from the export;
// Lanescope's own tables (lanes, slices, instants, counters, diagnostics, report) agree with the
// model they read, on nsys reports and on a PyTorch trace.
#include <sqlite3.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "Absent.h"
#include "TestPaths.h"
#include "importers/ImportHelpers.h"
#include "model/EventDetails.h"
#include "query/ReportSql.h"
#include "tests/query/SqlRows.h"

namespace lanescope::test {
namespace {

// A SQLite file opened read-only for the test's queries.
class ExportDb {
public:
    explicit ExportDb(const std::filesystem::path& file) {
        REQUIRE(sqlite3_open_v2(("file:" + file.string() + "?immutable=1").c_str(), &db_,
                                SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr) == SQLITE_OK);
    }
    ~ExportDb() { sqlite3_close(db_); }
    ExportDb(const ExportDb&) = delete;
    ExportDb& operator=(const ExportDb&) = delete;

    bool hasTable(const std::string& table) const {
        return !rows("SELECT name FROM sqlite_schema WHERE type = 'table' AND name = '" + table + "'").empty();
    }
    Rows rows(const std::string& query) const {
        sqlite3_stmt* stmt = nullptr;
        const bool prepared = sqlite3_prepare_v2(db_, query.c_str(), -1, &stmt, nullptr) == SQLITE_OK;
        INFO(query << ": " << sqlite3_errmsg(db_));
        REQUIRE(prepared);
        Rows result = stepRows(stmt);
        sqlite3_finalize(stmt);
        return result;
    }

private:
    sqlite3* db_ = nullptr;
};

int64_t ownInt(sql::ReportSql& session, const std::string& query) {
    sql::SqlResult result;
    const std::string error = session.query(query, result);
    INFO(query << ": " << error);
    REQUIRE(error.empty());
    REQUIRE(result.rows.size() == 1);
    const auto* value = std::get_if<int64_t>(&result.rows[0][0]);
    REQUIRE(value);
    return *value;
}

// Whether the one column of a query's rows never descends.
bool ascending(sql::ReportSql& session, const std::string& query) {
    sql::SqlResult result;
    const std::string error = session.query(query, result);
    INFO(query << ": " << error);
    REQUIRE(error.empty());
    return std::is_sorted(result.rows.begin(), result.rows.end(), [](const auto& a, const auto& b) {
        return std::get<int64_t>(a[0]) < std::get<int64_t>(b[0]);
    });
}

std::unique_ptr<sql::ReportSql> openSql(const Report& report) {
    std::string error;
    auto session = sql::ReportSql::open(report, error);
    INFO(error);
    REQUIRE(session);
    return session;
}

// A query written for an nsys export, and the export's table it reads (the others it joins, such
// as StringIds, come with it).
struct ExportQuery {
    const char* table;
    std::string sql;
};

const std::vector<ExportQuery>& cpuQueries() {
    static const std::vector<ExportQuery> queries{
        // context switches per thread, and per core
        {"SCHED_EVENTS",
         "SELECT globalTid, isSchedIn, count(*), min(start), max(start) FROM SCHED_EVENTS GROUP BY 1, 2"},
        {"SCHED_EVENTS", "SELECT cpu, isSchedIn, count(*) FROM SCHED_EVENTS GROUP BY 1, 2"},
        // the switches from a third of the way in, by binary search on start
        {"SCHED_EVENTS",
         "SELECT isSchedIn, count(*) FROM SCHED_EVENTS WHERE start >= (SELECT start FROM SCHED_EVENTS ORDER BY start "
         "LIMIT 1 OFFSET (SELECT count(*) / 3 FROM SCHED_EVENTS)) GROUP BY 1"},
        // CPU samples per thread
        {"COMPOSITE_EVENTS", "SELECT globalTid, count(*), min(start), max(start) FROM COMPOSITE_EVENTS GROUP BY 1"},
        {"COMPOSITE_EVENTS",
         "SELECT count(*) FROM COMPOSITE_EVENTS WHERE start < (SELECT start FROM COMPOSITE_EVENTS ORDER BY start "
         "LIMIT 1 OFFSET (SELECT count(*) / 3 FROM COMPOSITE_EVENTS))"},
        // the sampled functions: the innermost frame of each sample, by name
        {"SAMPLING_CALLCHAINS",
         "SELECT s.value, count(*) FROM COMPOSITE_EVENTS c JOIN SAMPLING_CALLCHAINS f ON f.id = c.id "
         "JOIN StringIds s ON s.id = f.symbol WHERE f.stackDepth = 0 GROUP BY s.value"},
        // every frame of every sample by function and module (inclusive samples)
        {"SAMPLING_CALLCHAINS",
         "SELECT s.value, m.value, count(*), count(DISTINCT f.id), sum(f.stackDepth) FROM SAMPLING_CALLCHAINS f "
         "JOIN StringIds s ON s.id = f.symbol JOIN StringIds m ON m.id = f.module GROUP BY 1, 2"},
        {"SAMPLING_CALLCHAINS", "SELECT count(*), count(DISTINCT id), max(stackDepth) FROM SAMPLING_CALLCHAINS"},
        // each OS runtime call's backtrace, frame by frame
        {"OSRT_CALLCHAINS",
         "SELECT o.globalTid, o.start, n.value, f.stackDepth, s.value, m.value FROM OSRT_API o "
         "JOIN OSRT_CALLCHAINS f ON f.id = o.callchainId JOIN StringIds n ON n.id = o.nameId "
         "JOIN StringIds s ON s.id = f.symbol JOIN StringIds m ON m.id = f.module"},
        {"OSRT_CALLCHAINS", "SELECT callchainId != 0, count(*) FROM OSRT_API GROUP BY 1"},
        // each CUDA API call's backtrace, frame by frame
        {"CUDA_CALLCHAINS",
         "SELECT r.globalTid, r.correlationId, n.value, f.stackDepth, s.value, m.value "
         "FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN CUDA_CALLCHAINS f ON f.id = r.callchainId "
         "JOIN StringIds n ON n.id = r.nameId JOIN StringIds s ON s.id = f.symbol JOIN StringIds m ON m.id = f.module"},
        {"CUDA_CALLCHAINS", "SELECT count(*), count(callchainId) FROM CUPTI_ACTIVITY_KIND_RUNTIME"},
        // every NVTX event by its rowid, which nsys's scripts number ranges by (marks of several
        // threads at one time, thread names too): a registered name as textId (compared by its
        // string), any other as text; nsys's domainId, colour and category
        {"NVTX_EVENTS",
         "SELECT n.rowid, n.start, n.end, n.eventType, n.globalTid, n.text, s.value, n.domainId, n.color, "
         "n.category FROM NVTX_EVENTS n LEFT JOIN StringIds s ON s.id = n.textId"},
        {"NVTX_EVENTS", "SELECT eventType, count(*), count(text), count(textId) FROM NVTX_EVENTS GROUP BY 1"},
        // the domains' names, joined to their ranges on domainId
        {"NVTX_EVENTS",
         "SELECT d.text, count(*) FROM NVTX_EVENTS n JOIN NVTX_EVENTS d ON d.domainId = n.domainId "
         "AND d.eventType = 75 WHERE n.eventType IN (59, 60) GROUP BY 1"},
        // MPI calls by name and by thread
        {"MPI_OTHER_EVENTS",
         "SELECT s.value, count(*), sum(m.end - m.start), min(m.start), max(m.end) FROM MPI_OTHER_EVENTS m "
         "JOIN StringIds s ON s.id = m.textId GROUP BY s.value"},
        {"MPI_OTHER_EVENTS", "SELECT globalTid, count(*) FROM MPI_OTHER_EVENTS GROUP BY globalTid"},
    };
    return queries;
}

// Each query on the report and on its export, read by Lanescope, against sqlite3 on the export.
// A table the export lacks (nsys writes only what the report recorded) is empty in Lanescope's.
void checkPair(const std::filesystem::path& report, const std::filesystem::path& exported) {
    INFO(report.filename().string());
    const ExportDb db(exported);
    for (const auto& input : {report, exported}) {
        const auto model = importOk(input);
        const auto session = openSql(*model);
        for (const ExportQuery& q : cpuQueries()) {
            INFO("on " << input.filename().string() << ": " << q.sql);
            if (!db.hasTable(q.table)) {
                CHECK(ownInt(*session, std::string("SELECT count(*) FROM ") + q.table) == 0);
                continue;
            }
            const Rows expected = db.rows(q.sql);
            const Rows got = lanescopeRows(*session, q.sql);
            INFO("only in Lanescope's: " << onlyIn(got, expected)
                                         << "\nonly in the export's: " << onlyIn(expected, got));
            CHECK(got == expected);
        }
        // ORDER BY start needs no sort: the rows are merged across the threads in start order.
        for (const char* table : {"SCHED_EVENTS", "COMPOSITE_EVENTS", "MPI_OTHER_EVENTS"})
            CHECK(ascending(*session, std::string("SELECT start FROM ") + table + " ORDER BY start"));
    }
}

// Lanescope's own tables against the model they read.
void checkOwnTables(const Report& r) {
    const auto session = openSql(r);
    auto& s = *session;

    uint64_t events = 0, instants = 0, derived = 0;
    Rows perLane, perKind;
    std::map<std::string, uint64_t> kinds;
    for (size_t l = 0; l < r.lanes.size(); ++l) {
        const Lane& lane = r.lanes[l];
        events += lane.events.size();
        instants += lane.instants.size();
        derived += holdsDerivedEvents(lane.kind);
        if (lane.events.size() == 0) continue;
        int64_t total = 0, lastEnd = INT64_MIN;
        for (size_t i = 0; i < lane.events.size(); ++i) {
            total += lane.events.durationNs(i);
            lastEnd = std::max(lastEnd, lane.events.endNs(i));
            ++kinds[eventKindLabel(lane.events.kind[i])];
        }
        perLane.push_back(std::to_string(l) + "|" + std::to_string(lane.events.size()) + "|" +
                          std::to_string(lane.events.start_ns.front()) + "|" + std::to_string(lastEnd) + "|" +
                          std::to_string(total) + "|");
    }
    for (const auto& [kind, n] : kinds) perKind.push_back(kind + "|" + std::to_string(n) + "|");
    std::sort(perKind.begin(), perKind.end());
    std::sort(perLane.begin(), perLane.end());

    CHECK(ownInt(s, "SELECT count(*) FROM lanes") == int64_t(r.lanes.size()));
    CHECK(ownInt(s, "SELECT sum(derived) FROM lanes") == int64_t(derived));
    CHECK(ownInt(s, "SELECT coalesce(sum(events), 0) FROM lanes") == int64_t(events));
    CHECK(ownInt(s, "SELECT count(*) FROM slices") == int64_t(events));
    CHECK(ownInt(s, "SELECT count(*) FROM instants") == int64_t(instants));
    CHECK(ownInt(s, "SELECT coalesce(sum(instants), 0) FROM lanes") == int64_t(instants));
    CHECK(
        lanescopeRows(s, "SELECT laneId, count(*), min(start), max(end), sum(duration) FROM slices GROUP BY laneId") ==
        perLane);
    CHECK(lanescopeRows(s, "SELECT kind, count(*) FROM slices GROUP BY kind") == perKind);
    CHECK(ownInt(s, "SELECT count(*) FROM slices WHERE end - start != duration OR name IS NULL") == 0);
    CHECK(ownInt(s, "SELECT count(*) FROM slices s JOIN lanes l ON l.laneId = s.laneId WHERE s.depth >= l.depths") ==
          0);

    // ORDER BY start needs no sort: the rows are merged in start order across the lanes.
    CHECK(ascending(s, "SELECT start FROM slices ORDER BY start"));
    CHECK(ascending(s, "SELECT time FROM instants ORDER BY time"));

    // A range of start times on the busiest lane, and on every lane, against a direct count.
    size_t busiest = 0;
    for (size_t l = 0; l < r.lanes.size(); ++l)
        if (r.lanes[l].events.size() > r.lanes[busiest].events.size()) busiest = l;
    const auto& column = r.lanes[busiest].events.start_ns;
    REQUIRE(column.size() >= 3);
    const int64_t a = column[column.size() / 3], b = column[2 * column.size() / 3];
    const auto inRange = [&](int64_t t) { return t >= a && t < b; };
    int64_t everywhere = 0;
    for (const Lane& lane : r.lanes)
        everywhere += std::count_if(lane.events.start_ns.begin(), lane.events.start_ns.end(), inRange);
    const std::string range = " AND start >= " + std::to_string(a) + " AND start < " + std::to_string(b);
    CHECK(ownInt(s, "SELECT count(*) FROM slices WHERE laneId = " + std::to_string(busiest) + range) ==
          std::count_if(column.begin(), column.end(), inRange));
    CHECK(ownInt(s, "SELECT count(*) FROM slices WHERE 1" + range) == everywhere);

    uint64_t samples = 0;
    Rows perCounter;
    for (size_t c = 0; c < r.counters.size(); ++c) {
        const Counter& counter = r.counters[c];
        samples += counter.time_ns.size();
        if (counter.time_ns.empty()) continue;
        perCounter.push_back(std::to_string(c) + "|" + std::string(r.str(counter.name_id)) + "|" +
                             std::to_string(counter.time_ns.size()) + "|" + std::to_string(counter.time_ns.front()) +
                             "|" + std::to_string(counter.time_ns.back()) + "|");
    }
    std::sort(perCounter.begin(), perCounter.end());
    CHECK(ownInt(s, "SELECT count(*) FROM counters") == int64_t(samples));
    CHECK(lanescopeRows(s, "SELECT counterId, name, count(*), min(time), max(time) FROM counters GROUP BY counterId") ==
          perCounter);

    Rows diagnostics;
    for (const auto& [name, count] : r.diagnostics) diagnostics.push_back(name + "|" + std::to_string(count) + "|");
    std::sort(diagnostics.begin(), diagnostics.end());
    CHECK(lanescopeRows(s, "SELECT name, count FROM diagnostics") == diagnostics);
    CHECK(ownInt(s,
                 "SELECT count(*) FROM diagnostics WHERE severity NOT IN ('info', 'warning', 'error') "
                 "OR explanation = ''") == 0);

    CHECK(lanescopeRows(s, "SELECT file, begin_ns, end_ns FROM report") ==
          Rows{r.meta.fileName() + "|" + std::to_string(r.meta.begin_ns) + "|" + std::to_string(r.meta.end_ns) + "|"});
}

}  // namespace

TEST_CASE("CPU-side tables give the export's rows on every 2025.3 report", "[sql]") {
    for (const char* name : {"cpu_1gpu", "train_1gpu", "train_metrics", "ddp_rank0", "unified_memory"}) {
        const std::string base = std::string("nsys-2025.3/") + name;
        checkPair(dataFile(base + ".nsys-rep"), dataFile(base + ".sqlite"));
    }
}

TEST_CASE("CPU-side tables give the export's rows on the MPI reports of 2020", "[sql]") {
    const auto first = sharedFile("public/mpi-jacobi/openhackathons-org__gpubootcamp__report3.qdrep");
    if (first.empty()) LANESCOPE_SKIP_ABSENT("../shared/corpus/public/mpi-jacobi");
    const auto dir = tempDir("lanescope-sql-cpu");
    for (const char* n : {"3", "4", "6"}) {
        const std::string name = std::string("openhackathons-org__gpubootcamp__report") + n;
        checkPair(sharedFile("public/mpi-jacobi/" + name + ".qdrep"),
                  inflatedXz(sharedFile("nsys-2025.3-exports/" + name + ".sqlite.xz"), dir));
    }
    std::filesystem::remove_all(dir);
}

TEST_CASE("A CPU sample's cpu is the core its thread was running on", "[sql]") {
    // In this report every sample lies in a running interval of its thread, so every cpu is
    // known, and is the one nsys recorded.
    const auto exported = dataFile("nsys-2025.3/cpu_1gpu.sqlite");
    const std::string query = "SELECT cpu, count(*) FROM COMPOSITE_EVENTS GROUP BY cpu";
    const Rows expected = ExportDb(exported).rows(query);
    for (const auto& input : {dataFile("nsys-2025.3/cpu_1gpu.nsys-rep"), exported}) {
        INFO(input.filename().string());
        const auto report = importOk(input);
        const auto session = openSql(*report);
        CHECK(lanescopeRows(*session, query) == expected);
    }
}

TEST_CASE("Lanescope's own tables agree with the model", "[sql]") {
    for (const char* name : {"cpu_1gpu", "train_metrics"}) {
        INFO(name);
        checkOwnTables(*importOk(dataFile(std::string("nsys-2025.3/") + name + ".nsys-rep")));
    }
}

TEST_CASE("Lanescope's own tables on a PyTorch trace", "[sql]") {
    const auto report = importOk(dataFile("kineto/train_1gpu_rank0.pt.trace.json"));
    checkOwnTables(*report);
    const auto session = openSql(*report);
    // The names of the slices, as the model holds them.
    std::map<std::string, int64_t> names;
    for (const Lane& lane : report->lanes)
        for (uint32_t id : lane.events.name_id) ++names[std::string(report->str(id))];
    Rows expected;
    for (const auto& [name, n] : names) expected.push_back(name + "|" + std::to_string(n) + "|");
    std::sort(expected.begin(), expected.end());
    CHECK(lanescopeRows(*session, "SELECT name, count(*) FROM slices GROUP BY name") == expected);
    CHECK(ownInt(*session, "SELECT count(*) FROM lanes WHERE kind = 'CUDA HW' AND deviceId IS NOT NULL") > 0);
    CHECK(ownInt(*session, "SELECT count(*) FROM SCHED_EVENTS") == 0);
    CHECK(ownInt(*session, "SELECT count(*) FROM report WHERE format IS NOT NULL") == 1);
}

}  // namespace lanescope::test
