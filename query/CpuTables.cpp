#include "query/CpuTables.h"

#include <algorithm>

#include "analysis/NvtxRangeIds.h"
#include "query/BacktraceChains.h"
#include "query/BuiltOnce.h"
#include "query/FileOrderRows.h"
#include "query/LaneEvents.h"
#include "query/NvtxBinaryData.h"
#include "query/SqlValues.h"
#include "query/TableSpec.h"

namespace lanescope::sql {
namespace {

constexpr auto I = ColumnType::Integer;
constexpr auto R = ColumnType::Real;
constexpr auto T = ColumnType::Text;

// ENUM_NSYS_EVENT_TYPE and ENUM_NSYS_EVENT_CLASS values nsys gives these rows.
constexpr int64_t kNvtxMark = 34, kNvtxPushPopRange = 59, kNvtxStartEndRange = 60, kNvtxDomainCreate = 75,
                  kOsRuntimeClass = 27, kOsRuntimeStart = 31, kOsRuntimeFinish = 32;

// NVTX_EVENTS: the ranges of the threads' NVTX lanes (push/pop and start/end), then their
// marks (instants), each segment in start order, then the named domains' creations and the
// category and thread namings, a segment each. A name that was a registered string is textId
// (its StringIds id) with text NULL, any other is text with textId NULL; domainId is
// nsys's number of the domain (NvtxInfo::domain_id), 0 for the default domain; binaryData holds
// an event's extended payloads as nsys's export with --include-blobs=true does (NvtxBinaryData.h).
// The rowid is nsys's (analysis/NvtxRangeIds.h): a range's is its RangeId.
class NvtxTable : public TableSpec {
public:
    enum Column {
        Start,
        End,
        EventType,
        RangeId,
        Category,
        Color,
        Text,
        GlobalTid,
        EndGlobalTid,
        TextId,
        DomainId,
        Uint64Value,
        Int64Value,
        DoubleValue,
        Uint32Value,
        Int32Value,
        FloatValue,
        JsonTextId,
        JsonText,
        BinaryData
    };
    explicit NvtxTable(const Report& report)
        : report_(report),
          ranges_(
              report, [](const Lane& l) { return l.kind == LaneKind::Nvtx || l.kind == LaneKind::NvtxStartEnd; },
              LaneEvents::Part::Intervals),
          marks_(
              report, [](const Lane& l) { return l.kind == LaneKind::Nvtx; }, LaneEvents::Part::Instants) {
        for (uint32_t i = 0; i < report.nvtx_domains.size(); ++i)
            others_.push_back({report.nvtx_domains[i].start_ns, false, i});
        for (uint32_t i = 0; i < report.nvtx_namings.size(); ++i)
            others_.push_back({report.nvtx_namings[i].start_ns, true, i});
        std::stable_sort(others_.begin(), others_.end(),
                         [](const OtherRow& a, const OtherRow& b) { return a.start_ns < b.start_ns; });
    }

    const std::string& name() const override { return name_; }
    const std::vector<ColumnDef>& columns() const override { return columns_; }
    size_t segmentCount() const override { return laneSegments() + others_.size(); }
    uint32_t segmentSize(size_t s) const override {
        if (s >= laneSegments()) return 1;
        return s < ranges_.segmentCount() ? ranges_.segmentSize(s) : marks_.segmentSize(s - ranges_.segmentCount());
    }
    int sortedColumn() const override { return Start; }
    int64_t sortedValue(size_t s, uint32_t row) const override {
        if (s >= laneSegments()) return otherAt(s).start_ns;
        return s < ranges_.segmentCount() ? ranges_.startNs(s, row) : marks_.startNs(s - ranges_.segmentCount(), row);
    }
    bool isSegmentColumn(int column) const override { return column == GlobalTid; }
    std::optional<int64_t> segmentValue(size_t s, int) const override {
        return globalTidOf(report_, s >= laneSegments() ? otherThread(otherAt(s)) : laneOf(s).thread);
    }
    bool numbersRowsAsNsys() const override { return true; }
    int64_t nsysRowId(size_t s, uint32_t row) const override {
        const Ids& ids = ids_.get([&] { return numbered(); });
        if (s >= laneSegments()) return ids.others[s - laneSegments()];
        const bool isRange = s < ranges_.segmentCount();
        const uint32_t lane = isRange ? ranges_.laneIndex(s) : marks_.laneIndex(s - ranges_.segmentCount());
        const uint32_t e = isRange ? ranges_.event(s, row) : marks_.event(s - ranges_.segmentCount(), row);
        return (isRange ? ids.events.ranges : ids.events.marks)[lane][e];
    }

    void value(size_t s, uint32_t row, int column, sqlite3_context* ctx) const override {
        if (s >= laneSegments()) return otherValue(otherAt(s), column, ctx);
        const bool isRange = s < ranges_.segmentCount();
        const Lane& lane = laneOf(s);
        const uint32_t e = isRange ? ranges_.event(s, row) : marks_.event(s - ranges_.segmentCount(), row);
        // The range's or mark's attributes, looked up only by the columns that need them.
        const auto info = [&]() -> const NvtxInfo* {
            const uint32_t payload = isRange ? lane.events.payload[e] : lane.instants.payload[e];
            return payload < report_.nvtx.size() ? &report_.nvtx[payload] : nullptr;
        };
        const auto nameId = [&] { return isRange ? lane.events.name_id[e] : lane.instants.name_id[e]; };
        const auto registered = [&] {
            const NvtxInfo* i = info();
            return i && i->registered_name;
        };
        switch (column) {
            case Start:
                return resultInt(ctx, isRange ? lane.events.start_ns[e] : lane.instants.time_ns[e]);
            case End:
                return isRange ? resultInt(ctx, lane.events.endNs(e)) : resultNull(ctx);
            case EventType:
                return resultInt(ctx, !isRange                              ? kNvtxMark
                                      : lane.kind == LaneKind::NvtxStartEnd ? kNvtxStartEndRange
                                                                            : kNvtxPushPopRange);
            case Category:
                if (const NvtxInfo* i = info(); i && i->category != 0) return resultInt(ctx, i->category);
                return resultNull(ctx);
            case Color:
                if (const NvtxInfo* i = info(); i && i->has_color) return resultInt(ctx, i->color);
                return resultNull(ctx);
            case Text:
            case TextId:
                return nameValue(nameId(), registered(), column, ctx);
            case GlobalTid:
                return resultInt(ctx, globalTidOf(report_, lane.thread));
            case DomainId: {
                const NvtxInfo* i = info();
                return resultInt(ctx, i ? i->domain_id : 0);
            }
            case BinaryData: {
                const uint32_t laneIndex =
                    isRange ? ranges_.laneIndex(s) : marks_.laneIndex(s - ranges_.segmentCount());
                const std::vector<uint8_t> blob = nvtxBinaryData(report_, laneIndex, e, !isRange);
                return blob.empty() ? resultNull(ctx) : resultBlob(ctx, blob.data(), blob.size());
            }
            default:
                return resultNull(ctx);
        }
    }

private:
    // A row no lane holds: Report::nvtx_domains[index], or nvtx_namings[index] when `naming`.
    struct OtherRow {
        int64_t start_ns = 0;
        bool naming = false;
        uint32_t index = 0;
    };
    // The rowids: the lanes' events' and, per row of others_, the id of an NVTX event no lane
    // holds that starts when it does (the first such not taken by an earlier row).
    struct Ids {
        NvtxEventIds events;
        std::vector<int64_t> others;  // one per others_
    };
    Ids numbered() const {
        Ids ids{nvtxEventIds(report_), {}};
        const auto& starts = report_.nvtx_other_starts_ns;
        int64_t next = int64_t(starts.size()) + 1;  // past every id, for a row not found there
        size_t taken = 0;                           // the starts before it are taken or earlier
        for (const OtherRow& o : others_) {
            size_t k = size_t(std::lower_bound(starts.begin() + taken, starts.end(), o.start_ns) - starts.begin());
            const bool found = k < starts.size() && starts[k] == o.start_ns;
            ids.others.push_back(found ? int64_t{ids.events.others[k]} : next++);
            if (found) taken = k + 1;
        }
        return ids;
    }
    size_t laneSegments() const { return ranges_.segmentCount() + marks_.segmentCount(); }
    const OtherRow& otherAt(size_t s) const { return others_[s - laneSegments()]; }
    int32_t otherThread(const OtherRow& o) const {
        return o.naming ? report_.nvtx_namings[o.index].thread : report_.nvtx_domains[o.index].thread;
    }
    const Lane& laneOf(size_t s) const {
        return s < ranges_.segmentCount() ? ranges_.lane(s) : marks_.lane(s - ranges_.segmentCount());
    }
    // The Text or TextId column of a name: a registered string is textId with text NULL, any other
    // is text with textId NULL, and no name (a mark without a message) is NULL in both, as in
    // nsys's export.
    void nameValue(uint32_t nameId, bool registered, int column, sqlite3_context* ctx) const {
        if (column == TextId) return registered ? resultStringId(ctx, report_, nameId) : resultNull(ctx);
        return nameId == 0 || registered ? resultNull(ctx) : resultText(ctx, report_.str(nameId));
    }
    void otherValue(const OtherRow& o, int column, sqlite3_context* ctx) const {
        if (!o.naming) {
            const NvtxDomainCreation& d = report_.nvtx_domains[o.index];
            switch (column) {
                case Start:
                    return resultInt(ctx, d.start_ns);
                case EventType:
                    return resultInt(ctx, kNvtxDomainCreate);
                case Text:
                    return resultText(ctx, report_.str(d.name_id));
                case GlobalTid:
                    return resultInt(ctx, globalTidOf(report_, d.thread));
                case DomainId:
                    return resultInt(ctx, d.domain_id);
                default:
                    return resultNull(ctx);
            }
        }
        const NvtxNaming& n = report_.nvtx_namings[o.index];
        switch (column) {
            case Start:
                return resultInt(ctx, n.start_ns);
            case EventType:
                return resultInt(ctx, n.event_type);
            case Category:
                return n.category != 0 ? resultInt(ctx, n.category) : resultNull(ctx);
            case Text:
            case TextId:
                return nameValue(n.name_id, n.registered_name, column, ctx);
            case GlobalTid:
                return resultInt(ctx, globalTidOf(report_, n.thread));
            case DomainId:
                return resultInt(ctx, n.domain_id);
            default:
                return resultNull(ctx);
        }
    }

    const Report& report_;
    BuiltOnce<Ids> ids_;
    std::vector<OtherRow> others_;  // sorted by start_ns, creations before namings at equal starts
    const std::string name_ = "NVTX_EVENTS";
    const std::vector<ColumnDef> columns_{
        {"start", I},      {"end", I},         {"eventType", I},  {"rangeId", I},      {"category", I},
        {"color", I},      {"text", T},        {"globalTid", I},  {"endGlobalTid", I}, {"textId", I},
        {"domainId", I},   {"uint64Value", I}, {"int64Value", I}, {"doubleValue", R},  {"uint32Value", I},
        {"int32Value", I}, {"floatValue", R},  {"jsonTextId", I}, {"jsonText", T},     {"binaryData", T}};
    LaneEvents ranges_;
    LaneEvents marks_;
};

// OSRT_API: the threads' OS runtime calls and the instants where OS runtime tracing started and
// stopped on a thread (eventClass 31 and 32 as recorded, start = end, nestingLevel NULL; an
// instant whose class the model lacks alternates from a start), in the report file's order
// (FileOrderRows: a segment per run of calls or marks of one thread). nestingLevel is a call's
// depth on its lane; callchainId joins OSRT_CALLCHAINS.id, numbered in this order from 1
// (BacktraceChains), 0 without a backtrace (as nsys writes it); returnValue the call's result
// (Report::cuda_api_results), 0 for an instant.
class OsRuntimeTable : public TableSpec {
public:
    enum Column { Start, End, EventClass, GlobalTid, NameId, ReturnValue, NestingLevel, CallchainId };
    explicit OsRuntimeTable(const Report& report)
        : report_(report),
          rows_(
              report, report.file_order.osrt, [](const Lane& l) { return l.kind == LaneKind::OsRuntime; },
              FileOrderRows::Parts::Both) {}

    const std::string& name() const override { return name_; }
    const std::vector<ColumnDef>& columns() const override { return columns_; }
    size_t segmentCount() const override { return rows_.segmentCount(); }
    uint32_t segmentSize(size_t s) const override { return rows_.segmentSize(s); }
    int sortedColumn() const override { return Start; }
    int64_t sortedValue(size_t s, uint32_t row) const override { return rows_.startNs(s, row); }
    bool isSegmentColumn(int column) const override { return column == GlobalTid; }
    std::optional<int64_t> segmentValue(size_t s, int) const override {
        return globalTidOf(report_, rows_.lane(s).thread);
    }

    void value(size_t s, uint32_t row, int column, sqlite3_context* ctx) const override {
        const bool isCall = !rows_.instants(s);
        const Lane& lane = rows_.lane(s);
        const uint32_t e = rows_.event(s, row);
        switch (column) {
            case Start:
                return resultInt(ctx, isCall ? lane.events.start_ns[e] : lane.instants.time_ns[e]);
            case End:
                return resultInt(ctx, isCall ? lane.events.endNs(e) : lane.instants.time_ns[e]);
            case EventClass:
                if (isCall) return resultInt(ctx, kOsRuntimeClass);
                if (const uint32_t recorded = lane.instants.payload[e];
                    recorded == kOsRuntimeStart || recorded == kOsRuntimeFinish)
                    return resultInt(ctx, recorded);
                return resultInt(ctx, e % 2 == 0 ? kOsRuntimeStart : kOsRuntimeFinish);
            case GlobalTid:
                return resultInt(ctx, globalTidOf(report_, lane.thread));
            case NameId:
                return resultStringId(ctx, report_, isCall ? lane.events.name_id[e] : lane.instants.name_id[e]);
            case ReturnValue:
                return resultInt(ctx, isCall ? cudaApiResult(report_, lane, e) : 0);
            case NestingLevel:
                return isCall ? resultInt(ctx, lane.events.depth[e]) : resultNull(ctx);
            case CallchainId:
                return resultInt(ctx, isCall ? callchainIdOf(report_, lane, e).value_or(0) : 0);
            default:
                return resultNull(ctx);
        }
    }

private:
    const Report& report_;
    const std::string name_ = "OSRT_API";
    const std::vector<ColumnDef> columns_{{"start", I},  {"end", I},         {"eventClass", I},   {"globalTid", I},
                                          {"nameId", I}, {"returnValue", I}, {"nestingLevel", I}, {"callchainId", I}};
    FileOrderRows rows_;
};

}  // namespace

void addCpuTables(const Report& report, std::vector<std::unique_ptr<TableSpec>>& tables) {
    tables.push_back(std::make_unique<NvtxTable>(report));
    tables.push_back(std::make_unique<OsRuntimeTable>(report));
}

}  // namespace lanescope::sql
