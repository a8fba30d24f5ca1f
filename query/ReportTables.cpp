#include "query/ReportTables.h"

#include <ctime>
#include <memory>
#include <vector>

#include "model/SystemProperties.h"
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

// The processes and threads PROCESSES and ThreadNames list: the names the report recorded
// (Report::recorded_names, nsys's own rows: every process and named thread of the machine) when
// it keeps them, else its processes and threads with their names, default ones included (the
// rule of model/Report.h listedInThreadNames, which the statistics follow).
class ListedNames {
public:
    explicit ListedNames(const Report& r) : r_(r) {
        for (uint32_t i = 0; i < r.recorded_names.size(); ++i)
            (r.recorded_names[i].tid == kProcessOwnName ? processRows_ : threadRows_).push_back(i);
    }
    uint32_t processCount() const { return uint32_t(recorded() ? processRows_.size() : r_.processes.size()); }
    uint32_t threadCount() const { return uint32_t(recorded() ? threadRows_.size() : r_.threads.size()); }
    RecordedName process(uint32_t row) const {
        if (recorded()) return r_.recorded_names[processRows_[row]];
        const Process& p = r_.processes[row];
        return {p.pid, kProcessOwnName, p.name_id, kNoPriority};
    }
    RecordedName thread(uint32_t row) const {
        if (recorded()) return r_.recorded_names[threadRows_[row]];
        const Thread& t = r_.threads[row];
        return {t.process >= 0 ? r_.processes[size_t(t.process)].pid : 0, t.tid, t.name_id, t.priority};
    }

private:
    bool recorded() const { return !r_.recorded_names.empty(); }

    const Report& r_;
    std::vector<uint32_t> processRows_, threadRows_;  // of Report::recorded_names
};

}  // namespace

void addReportTables(const Report& r, std::vector<std::unique_ptr<TableSpec>>& tables) {
    tables.push_back(std::make_unique<FunctionTable>(
        "StringIds", std::vector<ColumnDef>{{"id", I}, {"value", T}},
        // The report's own string table where it has one (the strings Lanescope added are left
        // out), else every string.
        [&r] { return r.strings.tableSize() != 0 ? r.strings.tableSize() : r.strings.size(); },
        [&r](uint32_t row, int column, sqlite3_context* ctx) {
            if (column == 0)
                resultInt(ctx, row);
            else
                resultText(ctx, r.strings.exportStr(row));
        },
        FunctionKey{0, {}}));
    const auto names = std::make_shared<const ListedNames>(r);
    tables.push_back(std::make_unique<FunctionTable>(
        "ThreadNames", std::vector<ColumnDef>{{"nameId", I}, {"priority", I}, {"globalTid", I}},
        [names] { return names->threadCount(); },
        [&r, names](uint32_t row, int column, sqlite3_context* ctx) {
            const RecordedName t = names->thread(row);
            if (column == 0)
                resultStringId(ctx, r, t.name_id);
            else if (column == 1)
                t.priority == kNoPriority ? resultNull(ctx) : resultInt(ctx, t.priority);
            else
                resultInt(ctx, globalTidOfTid(t.pid, t.tid));
        },
        FunctionKey{2, [names](uint32_t row) -> std::optional<int64_t> {
                        const RecordedName t = names->thread(row);
                        return globalTidOfTid(t.pid, t.tid);
                    }}));
    tables.push_back(std::make_unique<FunctionTable>(
        "PROCESSES", std::vector<ColumnDef>{{"globalPid", I}, {"pid", I}, {"name", T}},
        [names] { return names->processCount(); },
        [&r, names](uint32_t row, int column, sqlite3_context* ctx) {
            const RecordedName p = names->process(row);
            if (column == 0)
                resultInt(ctx, globalPidOfPid(p.pid));
            else if (column == 1)
                resultInt(ctx, p.pid);
            else
                resultText(ctx, r.str(p.name_id));
        },
        FunctionKey{
            0, [names](uint32_t row) -> std::optional<int64_t> { return globalPidOfPid(names->process(row).pid); }}));
    // Every GPU of the machine with its properties (Report::machine_gpus); a report that
    // describes none (PyTorch, Perfetto) lists the GPUs of its events, their properties NULL but
    // the id, cuDevice and name.
    std::vector<ColumnDef> gpuColumns{{"vmId", I}};
    for (const GpuPropertyColumn& column : gpuPropertyColumns())
        gpuColumns.push_back({column.name.data(), column.text ? T : I});  // names are literals
    const auto gpuRows = [&r] { return uint32_t(r.machine_gpus.empty() ? r.gpus.size() : r.machine_gpus.size()); };
    tables.push_back(std::make_unique<FunctionTable>(
        "TARGET_INFO_GPU", std::move(gpuColumns), gpuRows, [&r](uint32_t row, int column, sqlite3_context* ctx) {
            if (column == 0) return resultInt(ctx, kGlobalIdBase);
            const auto property = GpuProperty(column - 1);
            if (r.machine_gpus.empty()) {
                const Gpu& g = r.gpus[row];
                if (property == GpuProperty::Id || property == GpuProperty::CuDevice)
                    return resultInt(ctx, g.device_id);
                if (property == GpuProperty::Name) return resultText(ctx, r.str(g.name_id));
                return resultNull(ctx);
            }
            const int64_t value = r.machine_gpus[row][property];
            if (value == kNoGpuProperty)
                resultNull(ctx);
            else if (gpuPropertyColumns()[size_t(property)].text)
                resultText(ctx, r.str(uint32_t(value)));
            else
                resultInt(ctx, value);
        }));
    tables.push_back(std::make_unique<FunctionTable>(
        "TARGET_INFO_SESSION_START_TIME", std::vector<ColumnDef>{{"utcEpochNs", I}, {"utcTime", T}, {"localTime", T}},
        [&r] { return r.meta.start_utc_ns != 0 ? 1u : 0u; },
        [&r](uint32_t, int column, sqlite3_context* ctx) {
            if (column == 0) return resultInt(ctx, r.meta.start_utc_ns);
            // utcTime, and localTime: the same on the recording machine's clock, which only an
            // Nsight Systems report gives (with its session clock).
            if (column == 2 && r.meta.session_clock_start_ns == kUnknownTime) return resultNull(ctx);
            // (Wrapping, not overflowing, on a damaged file's values.)
            const uint64_t offset = column == 2 ? static_cast<uint64_t>(r.meta.utc_minus_local_ns) : 0;
            const std::string text = utcText(static_cast<int64_t>(static_cast<uint64_t>(r.meta.start_utc_ns) - offset));
            sqlite3_result_text(ctx, text.c_str(), int(text.size()), SQLITE_TRANSIENT);
        }));
    // The CUDA devices, contexts and streams of the recorded processes, as the report lists them.
    const auto integers = [](std::initializer_list<const char*> names) {
        std::vector<ColumnDef> columns;
        for (const char* name : names) columns.push_back({name, I});
        return columns;
    };
    // A value the report does not record is NULL.
    const auto value = [](int64_t v, sqlite3_context* ctx) {
        if (v == kNotRecorded) return resultNull(ctx);
        resultInt(ctx, v);
    };
    tables.push_back(std::make_unique<FunctionTable>(
        "TARGET_INFO_CUDA_DEVICE", integers({"gpuId", "cudaId", "pid"}),
        [&r] { return uint32_t(r.cuda_devices.size()); },
        [&r, value](uint32_t row, int column, sqlite3_context* ctx) {
            const CudaDevice& d = r.cuda_devices[row];
            const int64_t values[] = {d.gpu_id, d.cuda_id, d.pid};
            value(values[column], ctx);
        }));
    tables.push_back(std::make_unique<FunctionTable>(
        "TARGET_INFO_CUDA_CONTEXT_INFO",
        integers({"nullStreamId", "hwId", "vmId", "processId", "deviceId", "contextId", "parentContextId",
                  "isGreenContext"}),
        [&r] { return uint32_t(r.cuda_contexts.size()); },
        [&r, value](uint32_t row, int column, sqlite3_context* ctx) {
            const CudaContext& c = r.cuda_contexts[row];
            const int64_t values[] = {c.null_stream_id,    c.hw_id,           c.vm_id, c.pid, c.device_id, c.context_id,
                                      c.parent_context_id, c.is_green_context};
            value(values[column], ctx);
        }));
    tables.push_back(std::make_unique<FunctionTable>(
        "TARGET_INFO_CUDA_STREAM", integers({"streamId", "hwId", "vmId", "processId", "contextId", "priority", "flag"}),
        [&r] { return uint32_t(r.cuda_streams.size()); },
        [&r, value](uint32_t row, int column, sqlite3_context* ctx) {
            const CudaStream& s = r.cuda_streams[row];
            const int64_t values[] = {s.stream_id, s.hw_id, s.vm_id, s.pid, s.context_id, s.priority, s.flag};
            value(values[column], ctx);
        }));
    // When the session ran on the profiler's session clock: a row where the report says.
    tables.push_back(std::make_unique<FunctionTable>(
        "ANALYSIS_DETAILS",
        std::vector<ColumnDef>{{"globalVid", I}, {"duration", I}, {"startTime", I}, {"stopTime", I}},
        [&r] {
            return r.meta.session_clock_start_ns != kUnknownTime && r.meta.session_clock_stop_ns != kUnknownTime ? 1u
                                                                                                                 : 0u;
        },
        [&r](uint32_t, int column, sqlite3_context* ctx) {
            const int64_t start = r.meta.session_clock_start_ns, stop = r.meta.session_clock_stop_ns;
            const auto duration = static_cast<int64_t>(static_cast<uint64_t>(stop) - static_cast<uint64_t>(start));
            const int64_t values[] = {kGlobalIdBase, duration, start, stop};  // globalVid: the one machine
            resultInt(ctx, values[column]);
        }));
    // The recording machine's properties, named as nsys's export names them (NULL for a number
    // none of the corpus's exports names, model/SystemProperties.h).
    tables.push_back(std::make_unique<FunctionTable>(
        "TARGET_INFO_SYSTEM_ENV",
        std::vector<ColumnDef>{{"globalVid", I}, {"devStateName", T}, {"name", T}, {"nameEnum", I}, {"value", T}},
        [&r] { return uint32_t(r.system_properties.size()); },
        [&r](uint32_t row, int column, sqlite3_context* ctx) {
            const SystemProperty& p = r.system_properties[row];
            switch (column) {
                case 0:
                    return resultInt(ctx, kGlobalIdBase);
                case 1:
                    return resultText(ctx, r.str(p.device_state_id));
                case 2:
                    if (const std::string_view name = systemPropertyName(p.name_enum); !name.empty())
                        return resultText(ctx, name);
                    return resultNull(ctx);
                case 3:
                    return resultInt(ctx, p.name_enum);
                default:
                    return resultText(ctx, r.str(p.value_id));
            }
        }));
}

}  // namespace lanescope::sql
