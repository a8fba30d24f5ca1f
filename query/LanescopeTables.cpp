#include "query/LanescopeTables.h"

#include <iterator>
#include <string>

#include "model/DiagnosticKinds.h"
#include "model/EventDetails.h"
#include "model/MpiRank.h"
#include "query/FunctionTable.h"
#include "query/LaneEventTable.h"
#include "query/SqlValues.h"

namespace lanescope::sql {
namespace {

constexpr auto I = ColumnType::Integer;
constexpr auto R = ColumnType::Real;
constexpr auto T = ColumnType::Text;

// Text made for one value (not the report's own): SQLite copies it.
void resultMadeText(sqlite3_context* ctx, const std::string& text) {
    sqlite3_result_text(ctx, text.c_str(), int(text.size()), SQLITE_TRANSIENT);
}
// Empty text (not known) as NULL.
void resultTextOrNull(sqlite3_context* ctx, const std::string& text) {
    text.empty() ? resultNull(ctx) : resultText(ctx, text);
}
std::optional<int64_t> unlessNegative(int64_t v) { return v >= 0 ? std::optional<int64_t>(v) : std::nullopt; }
std::optional<int64_t> payloadOf(uint32_t payload) {
    return payload != kNoPayload ? std::optional<int64_t>(payload) : std::nullopt;
}
std::optional<int64_t> deviceIdOf(const Report& report, int32_t gpu) {
    return gpu >= 0 ? std::optional<int64_t>(report.gpus[size_t(gpu)].device_id) : std::nullopt;
}

// lanes: one row per Report::lanes entry, laneId its index (the key). Owners (process, thread,
// GPU, stream, context, core) are NULL where the lane has none; events, instants and depths are
// its counts; derived is 1 for a lane of copies or projections of other lanes' events.
std::unique_ptr<TableSpec> lanesTable(const Report& r) {
    enum Column {
        LaneId,
        Kind,
        Name,
        GlobalPid,
        GlobalTid,
        DeviceId,
        StreamId,
        ContextId,
        Cpu,
        Events,
        Instants,
        Depths,
        Derived
    };
    return std::make_unique<FunctionTable>(
        "lanes",
        std::vector<ColumnDef>{{"laneId", I},
                               {"kind", T},
                               {"name", T},
                               {"globalPid", I},
                               {"globalTid", I},
                               {"deviceId", I},
                               {"streamId", I},
                               {"contextId", I},
                               {"cpu", I},
                               {"events", I},
                               {"instants", I},
                               {"depths", I},
                               {"derived", I}},
        [&r] { return uint32_t(r.lanes.size()); },
        [&r](uint32_t row, int column, sqlite3_context* ctx) {
            const Lane& lane = r.lanes[row];
            switch (column) {
                case LaneId:
                    return resultInt(ctx, row);
                case Kind:
                    return resultText(ctx, laneKindName(lane.kind));
                case Name:
                    return resultText(ctx, r.str(lane.name_id));
                case GlobalPid:
                    return resultInt(ctx, globalPidOf(r, lane.process));
                case GlobalTid:
                    return resultInt(ctx, globalTidOf(r, lane.thread));
                case DeviceId:
                    return resultInt(ctx, deviceIdOf(r, lane.gpu));
                case StreamId:
                    return resultInt(ctx, unlessNegative(lane.stream_id));
                case ContextId:
                    return resultInt(ctx, unlessNegative(lane.context_id));
                case Cpu:
                    return resultInt(ctx, unlessNegative(lane.cpu));
                case Events:
                    return resultInt(ctx, int64_t(lane.events.size()));
                case Instants:
                    return resultInt(ctx, int64_t(lane.instants.size()));
                case Depths:
                    return resultInt(ctx, lane.depth_count);
                default:
                    return resultInt(ctx, holdsDerivedEvents(lane.kind) ? 1 : 0);
            }
        },
        FunctionKey{LaneId, {}});
}

// slices: every interval event of every lane, one segment per lane holding any, in start order
// (the sorted column; laneId is the segment column). Times in ns on the report's timeline; name
// is the text of nameId; kind the event kind's name ("Kernel", "CUDA API", ...); payload what
// the kind's payload holds (a row of a side table, a correlation id: docs/model.md), NULL for
// none.
class SlicesTable : public LaneEventTable {
public:
    enum Column { LaneId, Start, End, Duration, Name, NameId, Depth, Kind, Payload };
    explicit SlicesTable(const Report& report)
        : LaneEventTable(
              report, "slices",
              {{"laneId", I},
               {"start", I},
               {"end", I},
               {"duration", I},
               {"name", T},
               {"nameId", I},
               {"depth", I},
               {"kind", T},
               {"payload", I}},
              [](const Lane&) { return true; }, LaneEvents::Part::Intervals, std::nullopt) {}

    int sortedColumn() const override { return Start; }
    bool isSegmentColumn(int column) const override { return column == LaneId; }
    std::optional<int64_t> segmentValue(size_t segment, int) const override { return rows_.laneIndex(segment); }

protected:
    void eventValue(const Lane& lane, uint32_t event, int column, sqlite3_context* ctx) const override {
        const IntervalColumns& e = lane.events;
        switch (column) {
            case LaneId:
                return resultInt(ctx, int64_t(&lane - report_.lanes.data()));
            case Start:
                return resultInt(ctx, e.start_ns[event]);
            case End:
                return resultInt(ctx, e.endNs(event));
            case Duration:
                return resultInt(ctx, e.durationNs(event));
            case Name:
                return resultText(ctx, report_.str(e.name_id[event]));
            case NameId:
                return resultInt(ctx, e.name_id[event]);
            case Depth:
                return resultInt(ctx, e.depth[event]);
            case Kind:
                return resultText(ctx, eventKindLabel(e.kind[event]));
            default:
                return resultInt(ctx, payloadOf(e.payload[event]));
        }
    }
};

// instants: every zero-duration event of every lane (NVTX marks, CPU samples, CUDA event
// records, CPU page faults, ...), one segment per lane holding any, in time order (the sorted
// column; laneId is the segment column). payload by the lane's kind (docs/model.md), NULL for
// none.
class InstantsTable : public LaneEventTable {
public:
    enum Column { LaneId, Time, Name, NameId, Payload };
    explicit InstantsTable(const Report& report)
        : LaneEventTable(
              report, "instants", {{"laneId", I}, {"time", I}, {"name", T}, {"nameId", I}, {"payload", I}},
              [](const Lane&) { return true; }, LaneEvents::Part::Instants, std::nullopt) {}

    int sortedColumn() const override { return Time; }
    bool isSegmentColumn(int column) const override { return column == LaneId; }
    std::optional<int64_t> segmentValue(size_t segment, int) const override { return rows_.laneIndex(segment); }

protected:
    void eventValue(const Lane& lane, uint32_t event, int column, sqlite3_context* ctx) const override {
        const InstantColumns& in = lane.instants;
        switch (column) {
            case LaneId:
                return resultInt(ctx, int64_t(&lane - report_.lanes.data()));
            case Time:
                return resultInt(ctx, in.time_ns[event]);
            case Name:
                return resultText(ctx, report_.str(in.name_id[event]));
            case NameId:
                return resultInt(ctx, in.name_id[event]);
            default:
                return resultInt(ctx, payloadOf(in.payload[event]));
        }
    }
};

// counters: every sample of every counter, one segment per Report::counters entry (counterId its
// index), in time order (the sorted column); counterId, deviceId and globalPid are segment
// columns. A value holds from its time until the next sample's; unit is the counter's ("%",
// "MHz", "bytes", ...).
class CountersTable : public TableSpec {
public:
    enum Column { CounterId, Name, Unit, DeviceId, GlobalPid, Time, Value };
    explicit CountersTable(const Report& report) : report_(report) {}

    const std::string& name() const override { return name_; }
    const std::vector<ColumnDef>& columns() const override { return columns_; }
    size_t segmentCount() const override { return report_.counters.size(); }
    uint32_t segmentSize(size_t s) const override { return uint32_t(report_.counters[s].time_ns.size()); }
    int sortedColumn() const override { return Time; }
    int64_t sortedValue(size_t s, uint32_t row) const override { return report_.counters[s].time_ns[row]; }
    bool isSegmentColumn(int column) const override {
        return column == CounterId || column == DeviceId || column == GlobalPid;
    }
    std::optional<int64_t> segmentValue(size_t s, int column) const override {
        const Counter& c = report_.counters[s];
        if (column == CounterId) return int64_t(s);
        return column == DeviceId ? deviceIdOf(report_, c.gpu) : globalPidOf(report_, c.process);
    }

    void value(size_t s, uint32_t row, int column, sqlite3_context* ctx) const override {
        const Counter& c = report_.counters[s];
        switch (column) {
            case Name:
                return resultText(ctx, report_.str(c.name_id));
            case Unit:
                return resultText(ctx, report_.str(c.unit_id));
            case Time:
                return resultInt(ctx, c.time_ns[row]);
            case Value:
                return resultReal(ctx, c.value[row]);
            default:
                return resultInt(ctx, segmentValue(s, column));
        }
    }

private:
    const Report& report_;
    const std::string name_ = "counters";
    const std::vector<ColumnDef> columns_{{"counterId", I}, {"name", T}, {"unit", T}, {"deviceId", I},
                                          {"globalPid", I}, {"time", I}, {"value", R}};
};

// diagnostics: the report's diagnostics by name (sorted), each with its count and, from its
// declaration (model/DiagnosticKinds.h), its severity ("info", "warning", "error") and a
// one-line explanation.
std::unique_ptr<TableSpec> diagnosticsTable(const Report& r) {
    return std::make_unique<FunctionTable>(
        "diagnostics", std::vector<ColumnDef>{{"name", T}, {"count", I}, {"severity", T}, {"explanation", T}},
        [&r] { return uint32_t(r.diagnostics.size()); },
        [&r](uint32_t row, int column, sqlite3_context* ctx) {
            const auto& [name, count] = *std::next(r.diagnostics.begin(), row);
            if (column == 0) return resultText(ctx, name);
            if (column == 1) return resultInt(ctx, int64_t(count));
            const DiagnosticDescription d = describeDiagnostic(name);
            if (column == 2) return resultText(ctx, severityName(d.severity));
            resultMadeText(ctx, d.explanation);
        });
}

// report: one row about the report. file is the name of the file opened; format the reader's
// format ("nsys-sqlite", ...); producer and version the recording tool's; reader how an Nsight
// Systems report was read ("native" or "nsys-export"); nsys_version the version that recorded
// it; rank the distributed rank (the one the rank comparison uses), NULL when unknown, with
// rank_source where it was found ("recorded", "environment", "distributedInfo", "file name",
// model/MpiRank.h) and rank_label as the viewer titles the report ("rank 1", or the file name);
// start_utc_ns the session's start in UTC ns since the epoch, NULL when unknown; begin_ns and
// end_ns the report's span on its own timeline, in ns. Unknown text is NULL.
std::unique_ptr<TableSpec> reportTable(const Report& r) {
    enum Column {
        File,
        Format,
        Producer,
        Version,
        Reader,
        NsysVersion,
        Rank,
        RankSource,
        RankLabel,
        StartUtcNs,
        BeginNs,
        EndNs
    };
    return std::make_unique<FunctionTable>(
        "report",
        std::vector<ColumnDef>{{"file", T},
                               {"format", T},
                               {"producer", T},
                               {"version", T},
                               {"reader", T},
                               {"nsys_version", T},
                               {"rank", I},
                               {"rank_source", T},
                               {"rank_label", T},
                               {"start_utc_ns", I},
                               {"begin_ns", I},
                               {"end_ns", I}},
        [] { return 1u; },
        [&r](uint32_t, int column, sqlite3_context* ctx) {
            const Metadata& m = r.meta;
            switch (column) {
                case File:
                    return resultMadeText(ctx, m.fileName());
                case Format:
                    return resultTextOrNull(ctx, m.format);
                case Producer:
                    return resultTextOrNull(ctx, m.producer);
                case Version:
                    return resultTextOrNull(ctx, m.version);
                case Reader:
                    return resultTextOrNull(ctx, m.reader);
                case NsysVersion:
                    return resultTextOrNull(ctx, m.nsys_version);
                case Rank:
                    return resultInt(ctx, unlessNegative(rankOf(r)));
                case RankSource: {
                    const std::string source = rankSource(r);  // made here: copied by SQLite
                    return source.empty() ? resultNull(ctx) : resultMadeText(ctx, source);
                }
                case RankLabel:
                    return resultMadeText(ctx, rankLabel(r));
                case StartUtcNs:
                    return resultInt(ctx, m.start_utc_ns != 0 ? std::optional<int64_t>(m.start_utc_ns) : std::nullopt);
                case BeginNs:
                    return resultInt(ctx, m.begin_ns);
                default:
                    return resultInt(ctx, m.end_ns);
            }
        });
}

}  // namespace

void addLanescopeTables(const Report& report, std::vector<std::unique_ptr<TableSpec>>& tables) {
    tables.push_back(lanesTable(report));
    tables.push_back(std::make_unique<SlicesTable>(report));
    tables.push_back(std::make_unique<InstantsTable>(report));
    tables.push_back(std::make_unique<CountersTable>(report));
    tables.push_back(diagnosticsTable(report));
    tables.push_back(reportTable(report));
}

}  // namespace lanescope::sql
