#include "query/GpuMetricTables.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <string_view>

#include "query/BuiltOnce.h"
#include "query/FunctionTable.h"
#include "query/SqlValues.h"

namespace lanescope::sql {
namespace {

constexpr auto I = ColumnType::Integer;
constexpr auto T = ColumnType::Text;

// nsys's id of its GPU metrics source, a GlobalId with source number 1: the sourceId of every
// metric, and the typeId of the first set of metrics.
constexpr int64_t kGpuMetricsSource = kGlobalIdBase | (int64_t{1} << 32);

// One GPU-metric counter with the ids the export gives it: the k-th set of metrics (one set a
// GPU, as nsys samples them) has typeId kGpuMetricsSource + k, and its metrics are numbered
// 0, 1, ... in the counters' order (metricId). In Report::counters order.
struct GpuMetric {
    uint32_t counter;
    int64_t type_id;
    int64_t metric_id;
};

// Whether a counter is a GPU metric: read from the file (not made by finishReport), not the
// CUDA memory usage counter of an Nsight Systems report, and either from an Nsight Systems report
// (whose importers leave a metric's GPU unset when the report has several) or on a GPU.
bool isGpuMetric(const Report& r, const Counter& c) {
    if (c.derived || r.str(c.name_id) == "CUDA memory usage") return false;
    return r.meta.format.starts_with("nsys") || c.gpu >= 0;
}

// The report's GPU metrics in counter order. A new set starts where the GPU changes or a name
// comes again (nsys's importers add one counter per metric of each set, a set's metrics in
// order, and give every set the same names).
std::vector<GpuMetric> gpuMetrics(const Report& r) {
    std::vector<GpuMetric> metrics;
    std::vector<std::string_view> names;  // of the current set
    int32_t gpu = -1;
    int64_t set = -1;
    for (uint32_t i = 0; i < r.counters.size(); ++i) {
        const Counter& c = r.counters[i];
        if (!isGpuMetric(r, c)) continue;
        const std::string_view name = r.str(c.name_id);
        if (set < 0 || c.gpu != gpu || std::find(names.begin(), names.end(), name) != names.end()) {
            ++set, gpu = c.gpu;
            names.clear();
        }
        names.push_back(name);
        metrics.push_back({i, kGpuMetricsSource + set, int64_t(names.size()) - 1});
    }
    return metrics;
}

// A sample's value: an integer as nsys writes it when it is one, else the real number.
void resultSample(sqlite3_context* ctx, double v) {
    if (std::trunc(v) == v && std::abs(v) < 9.2e18)
        resultInt(ctx, int64_t(v));
    else
        resultReal(ctx, v);
}

// GPU_METRICS: record by record, as nsys's export lists them: a record (one sample of every
// metric of a set, at one time) gives a row per metric, in metricId order; a set's records come
// in time order (the file's, in every corpus report), one set after the other. A segment is a
// set, its rows record-major; a set whose counters do not hold the same times (a damaged record)
// is a segment per counter instead. rawTimestamp is the timestamp: both are the generic event's
// time (its field 2) in the file, equal in every row of nsys's export. typeId is a segment column.
class GpuMetricsTable : public TableSpec {
public:
    enum Column { RawTimestamp, Timestamp, TypeId, MetricId, Value };
    GpuMetricsTable(const Report& report, std::shared_ptr<const std::vector<GpuMetric>> metrics)
        : report_(report), metrics_(std::move(metrics)) {}

    const std::string& name() const override { return name_; }
    const std::vector<ColumnDef>& columns() const override { return columns_; }
    size_t segmentCount() const override { return segments().size(); }
    uint32_t segmentSize(size_t segment) const override {
        return segments()[segment].metrics * segments()[segment].records;
    }
    int sortedColumn() const override { return Timestamp; }
    int64_t sortedValue(size_t segment, uint32_t row) const override {
        const Sample at = sampleAt(segment, row);
        return counter(at.metric).time_ns[at.index];
    }
    bool isSegmentColumn(int column) const override { return column == TypeId; }
    std::optional<int64_t> segmentValue(size_t segment, int) const override {
        return (*metrics_)[segments()[segment].first].type_id;
    }

    void value(size_t segment, uint32_t row, int column, sqlite3_context* ctx) const override {
        const Sample at = sampleAt(segment, row);
        switch (column) {
            case RawTimestamp:
            case Timestamp:
                return resultInt(ctx, counter(at.metric).time_ns[at.index]);
            case TypeId:
                return resultInt(ctx, (*metrics_)[at.metric].type_id);
            case MetricId:
                return resultInt(ctx, (*metrics_)[at.metric].metric_id);
            case Value:
                return resultSample(ctx, counter(at.metric).value[at.index]);
            default:
                return resultNull(ctx);
        }
    }

private:
    // The metrics first .. first + metrics - 1 (of metrics_), `records` samples each.
    struct Segment {
        uint32_t first;
        uint32_t metrics;
        uint32_t records;
    };
    // A row's sample: sample `index` of metric `metric`.
    struct Sample {
        uint32_t metric;
        uint32_t index;
    };
    Sample sampleAt(size_t segment, uint32_t row) const {
        const Segment& s = segments()[segment];
        return {s.first + row % s.metrics, row / s.metrics};
    }
    const Counter& counter(uint32_t metric) const { return report_.counters[(*metrics_)[metric].counter]; }

    const std::vector<Segment>& segments() const {
        return segments_.get([this] { return segmentsOf(report_, *metrics_); });
    }
    // A segment per set whose counters hold the same times, else one per counter of the set.
    static std::vector<Segment> segmentsOf(const Report& r, const std::vector<GpuMetric>& metrics) {
        std::vector<Segment> segments;
        for (uint32_t first = 0, last = 0; first < metrics.size(); first = last) {
            const Counter& lead = r.counters[metrics[first].counter];
            bool sameTimes = true;
            for (last = first + 1; last < metrics.size() && metrics[last].type_id == metrics[first].type_id; ++last)
                sameTimes = sameTimes && r.counters[metrics[last].counter].time_ns == lead.time_ns;
            if (sameTimes) {
                segments.push_back({first, last - first, uint32_t(lead.time_ns.size())});
                continue;
            }
            for (uint32_t m = first; m < last; ++m)
                segments.push_back({m, 1, uint32_t(r.counters[metrics[m].counter].time_ns.size())});
        }
        return segments;
    }

    const Report& report_;
    std::shared_ptr<const std::vector<GpuMetric>> metrics_;
    BuiltOnce<std::vector<Segment>> segments_;
    const std::string name_ = "GPU_METRICS";
    const std::vector<ColumnDef> columns_{
        {"rawTimestamp", I}, {"timestamp", I}, {"typeId", I}, {"metricId", I}, {"value", I}};
};

}  // namespace

void addGpuMetricTables(const Report& r, std::vector<std::unique_ptr<TableSpec>>& tables) {
    auto metrics = std::make_shared<const std::vector<GpuMetric>>(gpuMetrics(r));
    tables.push_back(std::make_unique<GpuMetricsTable>(r, metrics));
    // TARGET_INFO_GPU_METRICS: one row per metric, in GPU_METRICS's segment order. typeName is ''
    // for a report recorded by Nsight Systems: the file's GPU-metric type (index field 14) records
    // no name, and nsys's export writes ''; NULL for another format.
    enum { TypeId, SourceId, TypeName, MetricId, MetricName };
    tables.push_back(std::make_unique<FunctionTable>(
        "TARGET_INFO_GPU_METRICS",
        std::vector<ColumnDef>{{"typeId", I}, {"sourceId", I}, {"typeName", T}, {"metricId", I}, {"metricName", T}},
        [metrics] { return uint32_t(metrics->size()); },
        [&r, metrics](uint32_t row, int column, sqlite3_context* ctx) {
            const GpuMetric& m = (*metrics)[row];
            switch (column) {
                case TypeId:
                    return resultInt(ctx, m.type_id);
                case SourceId:
                    return resultInt(ctx, kGpuMetricsSource);
                case TypeName:
                    if (r.meta.format != "nsys-rep" && r.meta.format != "nsys-sqlite") return resultNull(ctx);
                    return resultText(ctx, "");
                case MetricId:
                    return resultInt(ctx, m.metric_id);
                default:
                    return resultText(ctx, r.str(r.counters[m.counter].name_id));
            }
        }));
}

}  // namespace lanescope::sql
