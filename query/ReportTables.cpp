#include "query/ReportTables.h"

#include <ctime>

#include "query/FunctionTable.h"
#include "query/SqlValues.h"

namespace lanescope::sql {
namespace {

constexpr auto I = ColumnType::Integer;
constexpr auto T = ColumnType::Text;

// "2026-11-22T02:53:47" for UTC nanoseconds since the epoch, as nsys writes utcTime.
std::string utcText(int64_t utcNs) {
    const std::time_t seconds = std::time_t(utcNs / 1'000'000'000);
    std::tm tm{};
    gmtime_r(&seconds, &tm);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%S", &tm);
    return text;
}

}  // namespace

void addReportTables(const Report& r, std::vector<std::unique_ptr<TableSpec>>& tables) {
    tables.push_back(std::make_unique<FunctionTable>(
        "StringIds", std::vector<ColumnDef>{{"id", I}, {"value", T}}, [&r] { return r.strings.size(); },
        [&r](uint32_t row, int column, sqlite3_context* ctx) {
            if (column == 0)
                resultInt(ctx, row);
            else
                resultText(ctx, r.str(row));
        },
        0));
    tables.push_back(std::make_unique<FunctionTable>(
        "ThreadNames", std::vector<ColumnDef>{{"nameId", I}, {"priority", I}, {"globalTid", I}},
        [&r] { return uint32_t(r.threads.size()); },
        [&r](uint32_t row, int column, sqlite3_context* ctx) {
            const Thread& t = r.threads[row];
            if (column == 0)
                resultInt(ctx, t.name_id);
            else if (column == 1)
                t.priority == kNoPriority ? resultNull(ctx) : resultInt(ctx, t.priority);
            else
                resultInt(ctx, globalTidOf(r, int32_t(row)));
        }));
    tables.push_back(std::make_unique<FunctionTable>(
        "PROCESSES", std::vector<ColumnDef>{{"globalPid", I}, {"pid", I}, {"name", T}},
        [&r] { return uint32_t(r.processes.size()); },
        [&r](uint32_t row, int column, sqlite3_context* ctx) {
            const Process& p = r.processes[row];
            if (column == 0)
                resultInt(ctx, globalPidOfPid(p.pid));
            else if (column == 1)
                resultInt(ctx, p.pid);
            else
                resultText(ctx, r.str(p.name_id));
        }));
    // Of nsys's many GPU properties the model keeps the device id and name; the others are NULL.
    std::vector<ColumnDef> gpuColumns{{"vmId", I}, {"id", I}, {"name", T}};
    for (const char* name : {"busLocation",
                             "isDiscrete",
                             "l2CacheSize",
                             "totalMemory",
                             "memoryBandwidth",
                             "clockRate",
                             "smCount",
                             "pwGpuId",
                             "uuid",
                             "luid",
                             "chipName",
                             "cuDevice",
                             "ctxswDevPath",
                             "ctrlDevPath",
                             "revision",
                             "nodeMask",
                             "constantMemory",
                             "maxIPC",
                             "maxRegistersPerBlock",
                             "maxShmemPerBlock",
                             "maxShmemPerBlockOptin",
                             "maxShmemPerSm",
                             "maxRegistersPerSm",
                             "threadsPerWarp",
                             "asyncEngines",
                             "maxWarpsPerSm",
                             "maxBlocksPerSm",
                             "maxThreadsPerBlock",
                             "maxBlockDimX",
                             "maxBlockDimY",
                             "maxBlockDimZ",
                             "maxGridDimX",
                             "maxGridDimY",
                             "maxGridDimZ",
                             "computeMajor",
                             "computeMinor",
                             "smMajor",
                             "smMinor"}) {
        const std::string_view n(name);
        const bool text =
            n == "busLocation" || n == "uuid" || n == "chipName" || n == "ctxswDevPath" || n == "ctrlDevPath";
        gpuColumns.push_back({name, text ? T : I});
    }
    constexpr int kCuDevice = 14;
    tables.push_back(std::make_unique<FunctionTable>(
        "TARGET_INFO_GPU", std::move(gpuColumns), [&r] { return uint32_t(r.gpus.size()); },
        [&r](uint32_t row, int column, sqlite3_context* ctx) {
            const Gpu& g = r.gpus[row];
            if (column == 0)
                resultInt(ctx, kGlobalIdBase);
            else if (column == 1 || column == kCuDevice)
                resultInt(ctx, g.device_id);
            else if (column == 2)
                resultText(ctx, r.str(g.name_id));
            else
                resultNull(ctx);
        }));
    tables.push_back(std::make_unique<FunctionTable>(
        "TARGET_INFO_SESSION_START_TIME", std::vector<ColumnDef>{{"utcEpochNs", I}, {"utcTime", T}, {"localTime", T}},
        [&r] { return r.meta.start_utc_ns != 0 ? 1u : 0u; },
        [&r](uint32_t, int column, sqlite3_context* ctx) {
            if (column == 0) return resultInt(ctx, r.meta.start_utc_ns);
            if (column == 1) {
                const std::string text = utcText(r.meta.start_utc_ns);
                return sqlite3_result_text(ctx, text.c_str(), int(text.size()), SQLITE_TRANSIENT);
            }
            resultNull(ctx);
        }));
}

}  // namespace lanescope::sql
