#include "importers/nsys/NsysSqliteImporter.h"

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <optional>
#include <thread>

#include "importers/nsys/SampledLanes.h"
#include "importers/nsys/TableReaders.h"
#include "importers/nsys/TableScan.h"
#include "model/MpiRank.h"

namespace lanescope {
namespace {

constexpr std::string_view kSqliteMagic{"SQLite format 3\0", 16};

ImportError fail(ImportError::Kind kind, const std::filesystem::path& path, const std::string& why) {
    return {kind, path.string() + ": " + why};
}

// Seconds since the epoch of "YYYY-MM-DDTHH:MM:SS" read as UTC (nsys's utcTime and localTime).
std::optional<int64_t> secondsOfDateTime(const std::string& text) {
    std::tm t{};
    char extra = 0;
    if (std::sscanf(text.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d%c", &t.tm_year, &t.tm_mon, &t.tm_mday, &t.tm_hour, &t.tm_min,
                    &t.tm_sec, &extra) != 6)
        return std::nullopt;
    t.tm_year -= 1900;
    t.tm_mon -= 1;
    return static_cast<int64_t>(::timegm(&t));
}

// Producer, version, session start and clock from whichever metadata tables this schema has.
void readMetadata(const SqliteDb& db, Metadata& meta) {
    for (const char* table : {"META_DATA_EXPORT", "EXPORT_META_DATA"}) {
        if (!db.hasTable(table)) continue;
        SqliteStmt stmt(db, std::string("SELECT name, value FROM ") + table);
        while (stmt.step()) {
            if (stmt.text(0) == "EXPORT_PRODUCT_NAME") meta.producer = stmt.text(1);
            if (stmt.text(0) == "EXPORT_PRODUCT_VERSION") meta.version = stmt.text(1);
        }
    }
    if (meta.producer.empty()) meta.producer = "NVIDIA Nsight Systems";
    if (auto sql = selectByName(db, "TARGET_INFO_SESSION_START_TIME", {"utcEpochNs", "utcTime", "localTime"},
                                {"utcEpochNs"})) {
        SqliteStmt stmt(db, *sql);
        if (stmt.step()) {
            meta.start_utc_ns = stmt.i64(0);
            const auto utc = secondsOfDateTime(std::string(stmt.text(1)));
            const auto local = secondsOfDateTime(std::string(stmt.text(2)));
            constexpr int64_t kDaySeconds = 86'400;  // time zones are within a day of UTC
            if (utc && local && std::abs(*utc - *local) <= kDaySeconds)
                meta.utc_minus_local_ns = (*utc - *local) * 1'000'000'000;
        }
    }
    if (auto sql = selectByName(db, "ANALYSIS_DETAILS", {"startTime", "stopTime"}, {"startTime", "stopTime"})) {
        SqliteStmt stmt(db, *sql);
        if (stmt.step() && !stmt.isNull(0) && !stmt.isNull(1)) {
            meta.session_clock_start_ns = stmt.i64(0);
            meta.session_clock_stop_ns = stmt.i64(1);
        }
    }
    // The target's environment: one row named DeviceEnvironment, "NAME=value;NAME=value;...".
    if (auto sql = selectByName(db, "TARGET_INFO_SYSTEM_ENV", {"value"}, {"name", "value"})) {
        SqliteStmt stmt(db, *sql + " WHERE name = 'DeviceEnvironment'");
        while (stmt.step())
            if (const EnvironmentRank found = rankInEnvironment(stmt.text(0)); found.rank >= 0) {
                meta.rank = found.rank;
                break;
            }
    }
}

// The target's properties (Report::system_properties), in the table's order.
void readSystemProperties(const SqliteDb& db, Report& report) {
    const auto sql =
        selectByName(db, "TARGET_INFO_SYSTEM_ENV", {"devStateName", "nameEnum", "value"}, {"nameEnum", "value"});
    if (!sql) return;
    SqliteStmt stmt(db, *sql);
    while (stmt.step())
        report.system_properties.push_back({static_cast<uint32_t>(stmt.i64(1)), report.strings.intern(stmt.text(0)),
                                            report.strings.intern(stmt.text(2))});
}

// The files kept with the report (Report::process_streams) from ProcessStreams, which every
// export has (ANALYSIS_FILE, of 2025 exports only, lists the same), in its row order; a string id
// StringIds lacks is the empty string.
void readKeptFiles(const SqliteDb& db, const nsys::ReportBuilder& builder, Report& report) {
    const auto sql = selectByName(db, "ProcessStreams", {"globalPid", "filenameId", "contentId"},
                                  {"globalPid", "filenameId", "contentId"});
    if (!sql) return;
    SqliteStmt stmt(db, *sql);
    while (stmt.step())
        report.process_streams.push_back(
            {stmt.i64(0), builder.stringOrEmpty(stmt.i64(1)), builder.stringOrEmpty(stmt.i64(2))});
}

// The capture settings (Report::capture_options) from META_DATA_CAPTURE, in its row order.
void readCaptureOptions(const SqliteDb& db, Report& report) {
    const auto sql = selectByName(db, "META_DATA_CAPTURE", {"name", "value"}, {"name", "value"});
    if (!sql) return;
    SqliteStmt stmt(db, *sql);
    while (stmt.step())
        report.capture_options.push_back({report.strings.intern(stmt.text(0)), report.strings.intern(stmt.text(1))});
}

// The generic-event schema (Report::generic_event_*) from GENERIC_EVENT_SOURCES, _TYPES and
// _TYPE_FIELDS, in their row order.
void readGenericEventSchema(const SqliteDb& db, const nsys::ReportBuilder& builder, Report& report) {
    auto rows = [&](const char* table, const std::vector<std::string>& columns, auto add) {
        const auto sql = selectByName(db, table, columns, columns);
        if (!sql) return;
        SqliteStmt stmt(db, *sql);
        while (stmt.step()) add(stmt);
    };
    rows("GENERIC_EVENT_SOURCES", {"sourceId", "nameId", "timeSourceId"}, [&](const SqliteStmt& s) {
        report.generic_event_sources.push_back(
            {uint64_t(s.i64(0)), builder.stringOrEmpty(s.i64(1)), nsys::clampU32(s.i64(2))});
    });
    rows("GENERIC_EVENT_TYPES", {"typeId", "nameId"}, [&](const SqliteStmt& s) {
        report.generic_event_types.push_back({uint64_t(s.i64(0)), builder.stringOrEmpty(s.i64(1))});
    });
    rows("GENERIC_EVENT_TYPE_FIELDS", {"typeId", "fieldIdx", "fieldNameId", "offset", "size", "type"},
         [&](const SqliteStmt& s) {
             report.generic_event_fields.push_back({uint64_t(s.i64(0)), nsys::clampU32(s.i64(1)),
                                                    builder.stringOrEmpty(s.i64(2)), nsys::clampU32(s.i64(3)),
                                                    nsys::clampU32(s.i64(4)), nsys::clampU32(s.i64(5))});
         });
}

// The CUDA devices, contexts and streams (TARGET_INFO_CUDA_*), in the export's row order; a
// NULL is 0 but in a context's parentContextId and isGreenContext, which older reports lack.
void readCudaTargets(const SqliteDb& db, Report& report) {
    // The first `required` columns must be there; the others read as NULL where absent.
    const auto rows = [&](const char* table, const std::vector<std::string>& columns, size_t required, auto add) {
        const auto sql =
            selectByName(db, table, columns, {columns.begin(), columns.begin() + std::ptrdiff_t(required)});
        if (!sql) return;
        SqliteStmt stmt(db, *sql);
        while (stmt.step()) add(stmt);
    };
    rows("TARGET_INFO_CUDA_DEVICE", {"gpuId", "cudaId", "pid"}, 3, [&](const SqliteStmt& s) {
        report.cuda_devices.push_back({s.i64(0), s.i64(1), s.i64(2)});
    });
    rows("TARGET_INFO_CUDA_CONTEXT_INFO",
         {"nullStreamId", "hwId", "vmId", "processId", "deviceId", "contextId", "parentContextId", "isGreenContext"}, 6,
         [&](const SqliteStmt& s) {
             report.cuda_contexts.push_back({s.i64(0), s.i64(1), s.i64(2), s.i64(3), s.i64(4), s.i64(5),
                                             s.i64OrNull(6).value_or(kNotRecorded),
                                             s.i64OrNull(7).value_or(kNotRecorded)});
         });
    rows("TARGET_INFO_CUDA_STREAM", {"streamId", "hwId", "vmId", "processId", "contextId", "priority", "flag"}, 7,
         [&](const SqliteStmt& s) {
             report.cuda_streams.push_back({s.i64(0), s.i64(1), s.i64(2), s.i64(3), s.i64(4), s.i64(5), s.i64(6)});
         });
}

}  // namespace

bool NsysSqliteImporter::canRead(std::string_view head, const std::filesystem::path&) const {
    return head.starts_with(kSqliteMagic);
}

ImportResult NsysSqliteImporter::import(const std::filesystem::path& path, const ImportOptions& options,
                                        ProgressSink& progress, std::stop_token stop) const {
    return import(path, options, progress, stop, {});
}

ImportResult NsysSqliteImporter::import(const std::filesystem::path& path, const ImportOptions& options,
                                        ProgressSink& progress, std::stop_token stop,
                                        const std::function<void(Metadata&)>& describe) const {
    std::string error;
    auto db = SqliteDb::openReadOnly(path, error);
    if (!db) return fail(ImportError::Kind::Unreadable, path, "cannot open SQLite database: " + error);
    {
        SqliteStmt probe(*db, "SELECT count(*) FROM sqlite_master");
        if (!probe.step() || !probe.ok())
            return fail(ImportError::Kind::Corrupt, path, "damaged SQLite database: " + probe.error());
    }
    if (const std::string cut = db->truncation(); !cut.empty())
        return fail(ImportError::Kind::Corrupt, path, "damaged SQLite database: " + cut);
    if (!db->hasTable("StringIds"))
        return fail(ImportError::Kind::WrongSchema, path, "not an Nsight Systems SQLite export: no StringIds table");

    auto report = std::make_unique<Report>();
    report->meta.format = std::string(formatName());
    report->meta.source_path = path.string();
    readMetadata(*db, report->meta);
    if (describe) describe(report->meta);

    nsys::ReportBuilder builder(*report);
    progress.progress("strings", 0, 0);
    if (!builder.loadStringIds(*db, error))
        return fail(ImportError::Kind::Corrupt, path, "damaged table StringIds: " + error);
    builder.loadProcessesAndThreads(*db);
    builder.loadGpus(*db);
    readSystemProperties(*db, *report);
    readKeptFiles(*db, builder, *report);
    readCaptureOptions(*db, *report);
    readGenericEventSchema(*db, builder, *report);
    readCudaTargets(*db, *report);
    // The rows known so far, for a viewer: at once with the lanes a glance at the event tables
    // finds, then after each reader with the lanes it made (after the CPU samples, with the
    // thread-state and core lanes its context switches will make). The export's
    // ANALYSIS_DETAILS duration is not the events' span (up to twice as long or half as short in
    // the corpus), so the skeleton's span stays unknown.
    std::vector<nsys::LaneKey> foreseen;
    auto showSkeleton = [&] {
        if (options.on_skeleton) options.on_skeleton(builder.skeleton(report->meta, foreseen));
    };
    if (options.on_skeleton) foreseen = nsys::sampledLanes(*db);
    showSkeleton();

    const unsigned threads = options.threads ? options.threads : std::max(1u, std::thread::hardware_concurrency());
    nsys::ImportContext ctx{path, *db, builder, *report, threads, stop, progress, {}};
    for (auto reader : {nsys::readCallchains, nsys::readNvtxPayloadSchemas, nsys::readNvtx, nsys::readCpuCalls,
                        nsys::readGpuActivity, nsys::readUnifiedMemory, nsys::readCpuSamples, nsys::readCounters,
                        nsys::readGraphApiEvents, nsys::readNsysMessages, nsys::readProfilerOverhead}) {
        if (auto failure = reader(ctx)) return *failure;
        if (reader == nsys::readCpuSamples && options.on_skeleton) foreseen = builder.schedLanes();
        showSkeleton();
    }
    if (stop.stop_requested()) return ImportError{ImportError::Kind::Cancelled, "import cancelled"};
    progress.progress("completing the report", 0, 0);
    builder.complete();
    return ImportResult(std::move(report));
}

}  // namespace lanescope
