#include "query/GpuMetricTables.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <string_view>

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

// GPU_METRICS: one segment per GPU-metric counter, its samples in time order; rows come merged
// by timestamp. typeId and metricId are segment columns. rawTimestamp is the timestamp: both are
// the generic event's time (its field 2) in the file, equal in every row of nsys's export.
class GpuMetricsTable : public TableSpec {
public:
    enum Column { RawTimestamp, Timestamp, TypeId, MetricId, Value };
    GpuMetricsTable(const Report& report, std::shared_ptr<const std::vector<GpuMetric>> metrics)
        : report_(report), metrics_(std::move(metrics)) {}

    const std::string& name() const override { return name_; }
    const std::vector<ColumnDef>& columns() const override { return columns_; }
    size_t segmentCount() const override { return metrics_->size(); }
    uint32_t segmentSize(size_t segment) const override { return uint32_t(counter(segment).time_ns.size()); }
    int sortedColumn() const override { return Timestamp; }
    int64_t sortedValue(size_t segment, uint32_t row) const override { return counter(segment).time_ns[row]; }
    bool isSegmentColumn(int column) const override { return column == TypeId || column == MetricId; }
    std::optional<int64_t> segmentValue(size_t segment, int column) const override {
        const GpuMetric& m = (*metrics_)[segment];
        return column == TypeId ? m.type_id : m.metric_id;
    }

    void value(size_t segment, uint32_t row, int column, sqlite3_context* ctx) const override {
        switch (column) {
            case RawTimestamp:
            case Timestamp:
                return resultInt(ctx, counter(segment).time_ns[row]);
            case TypeId:
            case MetricId:
                return resultInt(ctx, segmentValue(segment, column));
            case Value:
                return resultSample(ctx, counter(segment).value[row]);
            default:
                return resultNull(ctx);
        }
    }

private:
    const Counter& counter(size_t segment) const { return report_.counters[(*metrics_)[segment].counter]; }

    const Report& report_;
    std::shared_ptr<const std::vector<GpuMetric>> metrics_;
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
