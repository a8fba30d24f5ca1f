// nsys analyze rules (cuda_api_sync, cuda_memcpy_async, cuda_memcpy_sync, cuda_memset_sync,
// gpu_time_util) against Nsight Systems' own output:
// - tests/data/expected/<report>/<rule>.csv: nsys 2025.3 on the corpus reports (an empty
//   file: nsys printed nothing);
// - tests/data/expected/<report>/nsys-2022.4/<rule>.<case>.csv: `nsys analyze` of nsys
//   2022.4 (Debian bookworm's nsight-systems; its rules run the same SQL as 2025.3's, and give
//   the 2025.3 files above on the corpus) run on the same 2025.3 .sqlite files with options,
//   or on copies edited by the SQL in this file (`edited_*` cases). 2022.4 prints no
//   "Green Context ID" column; those comparisons drop it from our table.
#include <sqlite3.h>

#include <algorithm>
#include <filesystem>
#include <sstream>

#include "Absent.h"
#include "analysis/GpuUtilization.h"
#include "analysis/Registry.h"
#include "analysis/Rules.h"
#include "importers/ImportHelpers.h"
#include "model/Correlation.h"

using namespace lanescope;
using namespace lanescope::test;

namespace {

const char* const kReports[] = {"train_1gpu", "ddp_rank0", "ddp_rank1"};

std::filesystem::path corpus(const std::string& report) { return dataFile("nsys-2025.3/" + report + ".sqlite"); }

// The CSV nsys prints for a table: nothing at all when it has no rows.
std::string nsysCsv(const StatsTable& table) { return table.rows.empty() ? std::string() : toCsv(table); }

// `csv` without the column named `header` (no quoted fields in these files).
std::string dropColumn(const std::string& csv, const std::string& header) {
    std::istringstream in(csv);
    std::string line, out;
    long column = -1;
    while (std::getline(in, line)) {
        std::vector<std::string> cells;
        std::stringstream fields(line);
        for (std::string cell; std::getline(fields, cell, ',');) cells.push_back(cell);
        if (!line.empty() && line.back() == ',') cells.emplace_back();
        if (column < 0) {
            auto it = std::find(cells.begin(), cells.end(), header);
            if (it == cells.end()) return csv;
            column = it - cells.begin();
        }
        cells.erase(cells.begin() + column);
        for (size_t i = 0; i < cells.size(); ++i) out += (i ? "," : "") + cells[i];
        out += '\n';
    }
    return out;
}

// A copy of a corpus report changed by `sql`, imported.
std::unique_ptr<Report> importEdited(const std::string& report, const std::string& sql) {
    const auto dir = tempDir("rules-" + report);
    const auto copy = dir / (report + ".sqlite");
    std::filesystem::copy_file(corpus(report), copy);
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open(copy.string().c_str(), &db) == SQLITE_OK);
    char* message = nullptr;
    const int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &message);
    INFO((message ? message : ""));
    sqlite3_free(message);
    sqlite3_close(db);
    REQUIRE(rc == SQLITE_OK);
    auto imported = importOk(copy);
    std::filesystem::remove_all(dir);
    return imported;
}

// A rule found by name in the registry, as the command line and the Rules panel run it.
std::optional<RuleResult> runRule(const Report& report, std::string_view name, const RuleOptions& options = {}) {
    const RuleEntry* rule = findRule(name);
    if (!rule) return std::nullopt;
    return rule->run(report, options);
}

RuleOptions opts(std::initializer_list<std::pair<const std::string, std::string>> values) { return {values}; }

// Runs `rule` and compares with nsys 2022.4's file (dropping Green Context ID, which 2022.4 lacks).
void checkOracle(const Report& report, const std::string& reportName, const std::string& rule,
                 const std::string& caseName, const RuleOptions& options) {
    INFO(reportName << " " << rule << "." << caseName);
    const std::string expected =
        readFile(dataFile("expected/" + reportName + "/nsys-2022.4/" + rule + "." + caseName + ".csv"));
    const auto result = runRule(report, rule, options);
    REQUIRE(result);
    CHECK(dropColumn(nsysCsv(result->table), "Green Context ID") == expected);
}

// The edit that makes train_1gpu's asynchronous memcpys and memsets synchronous API calls,
// and a third of the memsets pinned, a third managed memory.
const char* const kSyncNamesSql =
    "UPDATE StringIds SET value='cudaMemcpy_v3020' WHERE value='cudaMemcpyAsync_v3020';"
    "UPDATE StringIds SET value='cudaMemset_v3020' WHERE value='cudaMemsetAsync_v3020';"
    "UPDATE CUPTI_ACTIVITY_KIND_MEMSET SET memKind=1 WHERE rowid % 3 = 0;"
    "UPDATE CUPTI_ACTIVITY_KIND_MEMSET SET memKind=4 WHERE rowid % 3 = 1;";

}  // namespace

TEST_CASE("every rule equals nsys analyze 2025.3 on train_1gpu and both DDP ranks") {
    for (const char* name : kReports) {
        const auto report = importOk(corpus(name));
        for (const RuleEntry& entry : rules()) {
            const std::string_view rule = entry.name;
            INFO(name << " " << rule);
            const auto result = runRule(*report, rule);
            REQUIRE(result);
            CHECK(result->table.name == rule);
            CHECK(result->findings.size() == result->table.rows.size());
            CHECK(nsysCsv(result->table) ==
                  readFile(dataFile("expected/" + std::string(name) + "/" + std::string(rule) + ".csv")));
        }
        // The plain functions give the same tables.
        CHECK(toCsv(cudaApiSync(*report)) == toCsv(runRule(*report, "cuda_api_sync")->table));
        CHECK(toCsv(cudaMemcpyAsync(*report)) == toCsv(runRule(*report, "cuda_memcpy_async")->table));
        CHECK(toCsv(cudaMemcpySync(*report)) == toCsv(runRule(*report, "cuda_memcpy_sync")->table));
        CHECK(toCsv(cudaMemsetSync(*report)) == toCsv(runRule(*report, "cuda_memset_sync")->table));
        CHECK(toCsv(gpuTimeUtil(*report)) == toCsv(runRule(*report, "gpu_time_util")->table));
    }
}

TEST_CASE("every rule equals nsys analyze 2025.3 on today's captures, from the export and natively") {
    for (const char* name : {"cuda_graphs", "cuda_graphs_nodes", "unified_memory", "torch_compile",
                             "torch_compile_graphs", "ddp_both_ranks", "two_gpus_one_process", "occupancy"})
        for (const char* ext : {".sqlite", ".nsys-rep"}) {
            const auto report = importOk(dataFile("nsys-2025.3/" + std::string(name) + ext));
            for (const RuleEntry& entry : rules()) {
                INFO(name << ext << " " << entry.name);
                CHECK(nsysCsv(runRule(*report, entry.name)->table) ==
                      readFile(dataFile("expected/" + std::string(name) + "/" + std::string(entry.name) + ".csv")));
            }
        }
}

namespace {

// The rules of a report against nsys analyze 2025.3 run on Lanescope's export of it, in
// tests/data/expected-on-lanescope-export/<name>/; returns the rows found.
size_t checkRulesOnExport(const Report& report, const std::string& name) {
    size_t found = 0;
    for (const RuleEntry& entry : rules()) {
        const std::string_view rule = entry.name;
        INFO(name << " " << rule);
        const auto result = runRule(report, rule);
        REQUIRE(result);
        found += result->table.rows.size();
        CHECK(nsysCsv(result->table) ==
              readFile(dataFile("expected-on-lanescope-export/" + name + "/" + std::string(rule) + ".csv")));
    }
    return found;
}

}  // namespace

// A PyTorch trace has no nsys export: nsys analyze 2025.3 ran on Lanescope's export of one
// (tests/data/README.md), and its rules must find what Lanescope's find.
TEST_CASE("every rule equals nsys analyze 2025.3 run on Lanescope's export of a PyTorch trace") {
    const auto report = importOk(dataFile("kineto/pytorch_profiled_gpu.pt.trace.json.gz"));
    CHECK(checkRulesOnExport(*report, "pytorch_profiled_gpu") > 10);  // its synchronizing calls and pageable copies
    checkRulesOnExport(*importOk(dataFile("kineto/torch_compile.pt.trace.json.gz")), "torch_compile_kineto");
}

TEST_CASE("every rule equals nsys analyze 2025.3 run on Lanescope's export of public traces (../shared)") {
    const auto hta =
        sharedFile("public/facebookresearch__HolisticTraceAnalysis__rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz");
    const auto atrium = sharedFile("public/vospascal__atrium__trace.pftrace");
    if (hta.empty() || atrium.empty()) LANESCOPE_SKIP_ABSENT("../shared/corpus/public");
    CHECK(checkRulesOnExport(*importOk(hta), "hta_rank0") > 0);
    checkRulesOnExport(*importOk(atrium), "atrium");
}

TEST_CASE("the memcpy rules' header is the same, so cuda_memcpy_sync's inferred 2025.3 header matches") {
    const auto report = importOk(corpus("train_1gpu"));
    const std::string async = readFile(dataFile("expected/train_1gpu/cuda_memcpy_async.csv"));
    auto header = [](const StatsTable& t) {  // printed only above rows: nothing found prints nothing
        std::string line;
        for (const std::string& h : t.header) line += (line.empty() ? "" : ",") + h;
        return line + "\n";
    };
    CHECK(toCsv(cudaMemcpySync(*report)).empty());
    CHECK(header(cudaMemcpySync(*report)) == async.substr(0, async.find('\n') + 1));
    CHECK(header(cudaMemsetSync(*report)) ==
          "Duration (ns),Start (ns),Memory Kind,Bytes (MB),PID,Device ID,Context ID,Green Context ID,Stream ID,"
          "API Name\n");
}

TEST_CASE("options rows, start, end and nvtx equal nsys 2022.4 on the corpus") {
    const auto rank0 = importOk(corpus("ddp_rank0"));
    // nvtx on the main thread: events of its process; on another thread (NCCL's), API calls
    // of that thread only (none synchronize there) but GPU work of the whole process.
    checkOracle(*rank0, "ddp_rank0", "cuda_api_sync", "nvtx_step3", opts({{"nvtx", "step 3"}}));
    checkOracle(*rank0, "ddp_rank0", "cuda_api_sync", "nvtx_ncclAllReduce", opts({{"nvtx", "ncclAllReduce@NCCL"}}));
    checkOracle(*rank0, "ddp_rank0", "cuda_api_sync", "start_end_rows5",
                opts({{"start", "200000000"}, {"end", "300000000"}, {"rows", "5"}}));
    checkOracle(*rank0, "ddp_rank0", "gpu_time_util", "threshold20_chunks10",
                opts({{"threshold", "20"}, {"chunks", "10"}}));
    checkOracle(*rank0, "ddp_rank0", "gpu_time_util", "chunks100_rows5", opts({{"chunks", "100"}, {"rows", "5"}}));
    checkOracle(*rank0, "ddp_rank0", "gpu_time_util", "nvtx_step3_chunks7",
                opts({{"nvtx", "step 3"}, {"chunks", "7"}}));
    checkOracle(*rank0, "ddp_rank0", "gpu_time_util", "nvtx_ncclAllReduce", opts({{"nvtx", "ncclAllReduce@NCCL"}}));

    const auto train = importOk(corpus("train_1gpu"));
    checkOracle(*train, "train_1gpu", "gpu_time_util", "chunks1000", opts({{"chunks", "1000"}}));
    checkOracle(*train, "train_1gpu", "gpu_time_util", "threshold100_chunks5",
                opts({{"threshold", "100"}, {"chunks", "5"}}));
    checkOracle(*train, "train_1gpu", "gpu_time_util", "start_end_chunks4_threshold30",
                opts({{"start", "100000000"}, {"end", "200000000"}, {"chunks", "4"}, {"threshold", "30"}}));
    checkOracle(*train, "train_1gpu", "cuda_memcpy_async", "start_rows-1",
                opts({{"start", "300000000"}, {"rows", "-1"}}));
    checkOracle(*train, "train_1gpu", "cuda_memcpy_async", "rows0", opts({{"rows", "0"}}));
}

TEST_CASE("synchronous memcpy and memset rules equal nsys 2022.4 on a report edited to call them") {
    const auto edited = importEdited("train_1gpu", kSyncNamesSql);
    // 90 memcpys: the 15 host-to-device ones of 512 bytes are left out (64000 bytes or less);
    // device-to-device ones stay (nsys only drops copies with equal source and destination
    // device ids, which 2025.3 exports leave NULL). Ties by start.
    checkOracle(*edited, "train_1gpu", "cuda_memcpy_sync", "edited_sync_names", {});
    checkOracle(*edited, "train_1gpu", "cuda_memcpy_sync", "edited_sync_names_rows-1", opts({{"rows", "-1"}}));
    CHECK(cudaMemcpySync(*edited, opts({{"rows", "-1"}})).rows.size() == 75);
    // Pinned and managed memsets of cudaMemset (90 of 135).
    checkOracle(*edited, "train_1gpu", "cuda_memset_sync", "edited_sync_names", {});
    checkOracle(*edited, "train_1gpu", "cuda_memset_sync", "edited_sync_names_rows-1", opts({{"rows", "-1"}}));
    CHECK(cudaMemsetSync(*edited, opts({{"rows", "-1"}})).rows.size() == 90);
    checkOracle(*edited, "train_1gpu", "cuda_memcpy_async", "edited_sync_names", {});
}

TEST_CASE("gpu_time_util's Context ID is that of the operation with the latest end") {
    // ddp_rank0's first operation is memcpy rowid 1, its last one memcpy rowid 360.
    const auto minStart =
        importEdited("ddp_rank0", "UPDATE CUPTI_ACTIVITY_KIND_MEMCPY SET contextId=5 WHERE start=45515991;");
    checkOracle(*minStart, "ddp_rank0", "gpu_time_util", "edited_min_start_context", {});
    // A memset moved before every other operation keeps context 1: the max(end) row decides.
    const auto maxEnd =
        importEdited("ddp_rank0",
                     "UPDATE CUPTI_ACTIVITY_KIND_MEMCPY SET contextId=5 WHERE end=502064311;"
                     "UPDATE CUPTI_ACTIVITY_KIND_MEMSET SET contextId=7, start=45000000 WHERE rowid=1;");
    checkOracle(*maxEnd, "ddp_rank0", "gpu_time_util", "edited_max_end_context", {});
}

TEST_CASE("rule findings point at the events of their rows") {
    const auto report = importOk(corpus("ddp_rank1"));
    const CorrelationIndex index(*report);

    const RuleResult api = cudaApiSyncResult(*report, opts({{"rows", "-1"}}));
    REQUIRE(!api.table.rows.empty());
    for (size_t r = 0; r < api.table.rows.size(); ++r) {
        const RuleFinding& f = api.findings[r];
        REQUIRE(f.event);
        const Lane& lane = report->lanes[f.event->lane];
        CHECK(lane.kind == LaneKind::CudaApi);
        CHECK(lane.events.kind[f.event->index] == EventKind::CudaApiCall);
        CHECK(formatCell(api.table.rows[r][1]) == std::to_string(lane.events.start_ns[f.event->index]));
        CHECK(formatCell(api.table.rows[r][4]) == report->str(lane.events.name_id[f.event->index]));
        CHECK(f.begin_ns == lane.events.start_ns[f.event->index]);
        CHECK(f.end_ns == lane.events.endNs(f.event->index));
        CHECK(f.process == lane.process);
        CHECK(!f.api_call);
    }

    const RuleResult copies = cudaMemcpyAsyncResult(*report);
    REQUIRE(copies.table.rows.size() == 24);
    for (size_t r = 0; r < copies.table.rows.size(); ++r) {
        const RuleFinding& f = copies.findings[r];
        REQUIRE(f.event);
        REQUIRE(f.api_call);
        const Lane& lane = report->lanes[f.event->lane];
        CHECK(lane.kind == LaneKind::GpuStream);
        CHECK(lane.events.kind[f.event->index] == EventKind::Memcpy);
        CHECK(formatCell(copies.table.rows[r][0]) ==
              std::to_string(lane.events.endNs(f.event->index) - lane.events.start_ns[f.event->index]));
        CHECK(index.launcherOf(*f.event) == f.api_call);  // one process: the same call
        CHECK(f.gpu == lane.gpu);
        CHECK(report->gpus[f.gpu].device_id == 1);
    }

    const RuleResult util = gpuTimeUtilResult(*report);
    REQUIRE(util.findings.size() == 1);
    CHECK(!util.findings[0].event);
    CHECK(util.findings[0].begin_ns == 60965290);
    CHECK(util.findings[0].end_ns == 60965290 + 454661506);
    CHECK(report->processes[util.findings[0].process].pid == 1368);
    CHECK(report->gpus[util.findings[0].gpu].device_id == 1);
}

TEST_CASE("rule specs parse as name:opt=value:opt2=value") {
    std::string error;
    auto spec = parseRuleSpec("gpu_time_util:threshold=20:chunks=10", &error);
    REQUIRE(spec);
    CHECK(spec->name == "gpu_time_util");
    CHECK(spec->options.values == std::map<std::string, std::string>{{"chunks", "10"}, {"threshold", "20"}});
    spec = parseRuleSpec("cuda_api_sync:nvtx=step 3:rows=5:rows=7");
    REQUIRE(spec);
    CHECK(spec->options.values.at("nvtx") == "step 3");
    CHECK(spec->options.values.at("rows") == "7");  // the last one wins
    spec = parseRuleSpec("cuda_memcpy_async");
    REQUIRE(spec);
    CHECK(spec->options.values.empty());
    CHECK(parseRuleSpec("x:nvtx=a=b")->options.values.at("nvtx") == "a=b");

    CHECK(!parseRuleSpec("", &error));
    CHECK(!error.empty());
    CHECK(!parseRuleSpec(":rows=1"));
    CHECK(!parseRuleSpec("gpu_time_util:threshold", &error));
    CHECK(error.find("threshold") != std::string::npos);
    CHECK(!parseRuleSpec("gpu_time_util:=5"));
    CHECK(!parseRuleSpec("gpu_time_util:"));
}

TEST_CASE("option values: integers as Python reads them; bad values and names throw nsys's message") {
    CHECK(ruleIntOption(opts({{"rows", "12"}}), "rows", 50) == 12);
    CHECK(ruleIntOption(opts({{"rows", "-1"}}), "rows", 50) == -1);
    CHECK(ruleIntOption(opts({{"rows", " +1_000 "}}), "rows", 50) == 1000);
    CHECK(ruleIntOption({}, "rows", 50) == 50);
    for (const char* bad : {"", "abc", "12.5", "1e3", "0x10", "1__0", "_1", "1_", "--1", "99999999999999999999"}) {
        INFO(bad);
        CHECK_THROWS_AS(ruleIntOption(opts({{"rows", bad}}), "rows", 50), std::invalid_argument);
    }
    CHECK_THROWS_WITH(ruleIntOption(opts({{"chunks", "x"}}), "chunks", 30),
                      "argument --chunks: invalid int value: 'x'");

    const auto report = importOk(corpus("train_1gpu"));
    // threshold and chunks: integers, chunks 1..1000; 0 chunks gives nothing, as nsys.
    CHECK(gpuTimeUtil(*report, opts({{"threshold", "0"}})).rows.empty());
    CHECK(gpuTimeUtil(*report, opts({{"threshold", "-5"}})).rows.empty());
    CHECK(gpuTimeUtil(*report, opts({{"chunks", "0"}})).rows.empty());
    CHECK(gpuTimeUtil(*report, opts({{"chunks", "1"}})).rows.size() == 1);
    CHECK_THROWS_WITH(gpuTimeUtil(*report, opts({{"chunks", "1001"}})),
                      "argument --chunks: value must be between 1 and 1000");
    CHECK_THROWS_AS(gpuTimeUtil(*report, opts({{"chunks", "-3"}})), std::invalid_argument);
    CHECK_THROWS_AS(gpuTimeUtil(*report, opts({{"threshold", "12.5"}})), std::invalid_argument);
    CHECK_THROWS_AS(gpuTimeUtil(*report, opts({{"threshold", "high"}})), std::invalid_argument);
    // Options of another rule are unknown here.
    CHECK_THROWS_WITH(cudaApiSync(*report, opts({{"threshold", "20"}})), "unrecognized arguments: threshold=20");
    CHECK_THROWS_AS(cudaMemcpyAsync(*report, opts({{"gap", "1"}})), std::invalid_argument);
    CHECK_THROWS_WITH(cudaMemsetSync(*report, opts({{"nvtx", "no such range"}})),
                      "NVTX range 'no such range' could not be found.");
    CHECK_THROWS_WITH(cudaMemcpySync(*report, opts({{"start", "10"}, {"end", "5"}})),
                      "The start time cannot be greater than the end time.");
    CHECK_THROWS_AS(runRule(*report, "gpu_time_util", opts({{"rows", "many"}})), std::invalid_argument);
    CHECK_THROWS_WITH(runRule(*report, "gpu_gaps", opts({{"threshold", "1"}})), "gpu_gaps takes gap=MS and rows=N");
    CHECK(!runRule(*report, "no_such_rule"));
    // rows: 0 none, negative all.
    CHECK(cudaApiSync(*report, opts({{"rows", "0"}})).rows.empty());
    CHECK(cudaApiSync(*report, opts({{"rows", "-5"}})).rows.size() == 46);
    CHECK(cudaApiSync(*report, opts({{"rows", "3"}})).rows.size() == 3);
}

TEST_CASE("SQL LIKE as SQLite: ASCII case-insensitive, % and _") {
    CHECK(sqlLike("cudaStreamSynchronize%", "cudaStreamSynchronize_v3020"));
    CHECK(sqlLike("cudaStreamSynchronize%", "CUDASTREAMSYNCHRONIZE"));
    CHECK(!sqlLike("cudaStreamSynchronize%", "cudaEventSynchronize_v3020"));
    CHECK(sqlLike("cudaMemcpy%Async%", "cudaMemcpyAsync_v3020"));
    CHECK(sqlLike("cudaMemcpy%Async%", "cudaMemcpy2DAsync_v3020"));
    CHECK(sqlLike("cudaMemcpy%Async%", "cudaMemcpyPeerasync"));
    CHECK(!sqlLike("cudaMemcpy%Async%", "cudaMemcpy_v3020"));
    CHECK(sqlLike("%async%", "cudaMemsetAsync_v3020"));
    CHECK(sqlLike("a_c", "abc"));
    CHECK(!sqlLike("a_c", "ac"));
    CHECK(sqlLike("%", ""));
    CHECK(!sqlLike("a", ""));
    CHECK(sqlLike("%%a%%", "xxa"));
}
