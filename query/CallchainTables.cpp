#include "query/CallchainTables.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <string>

#include "query/BacktraceChains.h"
#include "query/BuiltOnce.h"
#include "query/FileOrderRows.h"
#include "query/LaneEvents.h"
#include "query/SqlValues.h"

namespace lanescope::sql {
namespace {

constexpr auto I = ColumnType::Integer;

// The CPU samples (the instants of the CpuSamples lanes) in the report file's order, as segments
// (FileOrderRows), numbered from 0 in that order; sample n is COMPOSITE_EVENTS.id and
// SAMPLING_CALLCHAINS.id n + 1, its 1-based position in the file. Both tables share one. Built
// on first use, 4 bytes a segment.
class SampleNumbers {
public:
    explicit SampleNumbers(const Report& report)
        : samples_(
              report, report.file_order.cpu_samples, [](const Lane& l) { return l.kind == LaneKind::CpuSamples; },
              FileOrderRows::Parts::Instants) {}

    const FileOrderRows& samples() const { return samples_; }
    // The number of segment s's first sample.
    uint32_t first(size_t segment) const { return first()[segment]; }
    uint32_t count() const { return first().back(); }
    // The stack id of sample n (n < count()): its instant's payload.
    uint32_t stackOf(uint32_t n) const {
        const std::vector<uint32_t>& first = this->first();
        const size_t segment = size_t(std::upper_bound(first.begin(), first.end(), n) - first.begin()) - 1;
        return samples_.lane(segment).instants.payload[samples_.event(segment, n - first[segment])];
    }

private:
    // [s]: the number of segment s's first sample, ascending (segments are never empty); then
    // one more entry, the number of samples.
    const std::vector<uint32_t>& first() const {
        return first_.get([this] {
            std::vector<uint32_t> first;
            first.reserve(samples_.segmentCount() + 1);
            uint32_t n = 0;
            for (size_t s = 0; s < samples_.segmentCount(); ++s) {
                first.push_back(n);
                n += samples_.segmentSize(s);
            }
            first.push_back(n);
            return first;
        });
    }

    FileOrderRows samples_;
    BuiltOnce<std::vector<uint32_t>> first_;
};

// COMPOSITE_EVENTS: one row a CPU sample, in the report file's order (SampleNumbers). cpu is the core
// of the thread's ThreadState interval that holds the sample: the core it ran on, or the one it
// left when switched out (as the file records it: the 10 such samples of the 2020.5 report3
// equal its export); NULL before the first context switch or without any. threadState and
// cpuCycles as recorded (sampleCountsAt).
class CompositeEventsTable : public TableSpec {
public:
    enum Column { Id, Start, Cpu, ThreadStateColumn, GlobalTid, CpuCycles };
    CompositeEventsTable(const Report& report, std::shared_ptr<const SampleNumbers> numbers)
        : report_(report), numbers_(std::move(numbers)) {}

    const std::string& name() const override { return name_; }
    const std::vector<ColumnDef>& columns() const override { return columns_; }
    size_t segmentCount() const override { return numbers_->samples().segmentCount(); }
    uint32_t segmentSize(size_t s) const override { return numbers_->samples().segmentSize(s); }
    int sortedColumn() const override { return Start; }
    int64_t sortedValue(size_t s, uint32_t row) const override { return numbers_->samples().startNs(s, row); }
    bool isSegmentColumn(int column) const override { return column == GlobalTid; }
    std::optional<int64_t> segmentValue(size_t s, int) const override {
        return globalTidOf(report_, numbers_->samples().lane(s).thread);
    }
    int keyColumn() const override { return Id; }
    std::optional<int64_t> keyOf(size_t s, uint32_t row) const override {
        return int64_t{numbers_->first(s)} + row + 1;
    }

    void value(size_t s, uint32_t row, int column, sqlite3_context* ctx) const override {
        const Lane& lane = numbers_->samples().lane(s);
        const int64_t time = numbers_->samples().startNs(s, row);
        switch (column) {
            case Id:
                return resultInt(ctx, keyOf(s, row));
            case Start:
                return resultInt(ctx, time);
            case Cpu:
                return resultInt(ctx, coreAt(lane.thread, time));
            case GlobalTid:
                return resultInt(ctx, globalTidOf(report_, lane.thread));
            case ThreadStateColumn:
                return resultInt(ctx, int64_t{sampleCountsAt(report_, lane.thread, time).state});
            case CpuCycles:
                return resultInt(ctx, sampleCountsAt(report_, lane.thread, time).cycles);
            default:
                return resultNull(ctx);
        }
    }

private:
    // The core a thread ran on (or last left) at time t, from its ThreadState lane; nullopt
    // outside its intervals.
    std::optional<int64_t> coreAt(int32_t thread, int64_t t) const {
        const std::vector<int32_t>& stateLane = stateLane_.get([this] { return threadStateLanes(report_); });
        if (thread < 0 || stateLane[size_t(thread)] < 0) return std::nullopt;
        const Lane& states = report_.lanes[size_t(stateLane[size_t(thread)])];
        const auto at = states.eventAt(0, t);
        if (!at) return std::nullopt;
        return threadStateCpu(states.events.payload[*at]);
    }

    const Report& report_;
    std::shared_ptr<const SampleNumbers> numbers_;
    const std::string name_ = "COMPOSITE_EVENTS";
    const std::vector<ColumnDef> columns_{{"id", I},          {"start", I},     {"cpu", I},
                                          {"threadState", I}, {"globalTid", I}, {"cpuCycles", I}};
    BuiltOnce<std::vector<int32_t>> stateLane_;
};

// Where a *_CALLCHAINS table finds its frames' details (model/CallStacks.h FrameDetail): at a
// row's own number (the samples', Report::sample_frame_details), or from each chain's first
// (given by a function: the backtraces', Report::backtrace_frame_details).
struct ChainDetails {
    const Column<FrameDetail>& details;
    std::function<uint32_t(uint32_t n)> firstOf;  // empty: by row
};

// A *_CALLCHAINS table: the frames of numbered stacks as rows. Stack n (given by stackOf(n),
// kNoStack for none) has id firstId + n, and its rows are its frames innermost first (stackDepth 0,
// 1, ...: Report::stacks from the stack's node up to its outermost frame). The rows of stack 0
// come first, then those of stack 1, ...: sorted by id, so an equality or a range on id is a
// binary search. symbol and module are string ids; kernelMode, thumbCode, unresolved, originalIP
// and unwindMethod as the frame recorded them (NULL where it did not, or where the report records
// no details: formats other than Nsight Systems'); specialEntry NULL, as in every corpus export.
class CallchainTable : public TableSpec {
public:
    // The columns of SAMPLING_CALLCHAINS and OSRT_CALLCHAINS, or CUDA_CALLCHAINS' fewer.
    enum class Layout { Full, Cuda };
    enum Column { Id, Symbol, Module };
    CallchainTable(const Report& report, std::string name, Layout layout, int64_t firstId,
                   std::function<uint32_t()> count, std::function<uint32_t(uint32_t)> stackOf, ChainDetails details)
        : report_(report),
          stacks_(report.stacks),
          name_(std::move(name)),
          firstId_(firstId),
          count_(std::move(count)),
          stackOf_(std::move(stackOf)),
          details_(std::move(details)) {
        columns_ = {{"id", I}, {"symbol", I}, {"module", I}};
        const std::vector<const char*> more =
            layout == Layout::Full ? std::vector<const char*>{"kernelMode",   "thumbCode",  "unresolved",
                                                              "specialEntry", "originalIP", "unwindMethod"}
                                   : std::vector<const char*>{"unresolved", "originalIP"};
        for (const char* column : more) {
            columns_.push_back({column, I});
            const std::string_view c = column;
            fields_.push_back(c == "kernelMode"     ? Field::KernelMode
                              : c == "thumbCode"    ? Field::ThumbCode
                              : c == "unresolved"   ? Field::Unresolved
                              : c == "originalIP"   ? Field::OriginalIp
                              : c == "unwindMethod" ? Field::UnwindMethod
                                                    : Field::None);
        }
        columns_.push_back({"stackDepth", I});
    }

    const std::string& name() const override { return name_; }
    const std::vector<ColumnDef>& columns() const override { return columns_; }
    size_t segmentCount() const override { return 1; }
    uint32_t segmentSize(size_t) const override { return firstRow().back(); }
    int sortedColumn() const override { return Id; }
    int64_t sortedValue(size_t, uint32_t row) const override { return firstId_ + stackAt(row); }

    void value(size_t, uint32_t row, int column, sqlite3_context* ctx) const override {
        const uint32_t n = stackAt(row);
        const uint32_t depth = row - firstRow()[n];
        if (column == Id) return resultInt(ctx, firstId_ + n);
        if (column == int(columns_.size()) - 1) return resultInt(ctx, depth);
        if (column != Symbol && column != Module) return detailValue(n, row, depth, fields_[size_t(column - 3)], ctx);
        uint32_t node = stackOf_(n);
        for (uint32_t d = 0; d < depth; ++d) node = stacks_.node_parent[node];
        const uint32_t frame = stacks_.node_frame[node];
        resultStringId(ctx, report_, column == Symbol ? stacks_.frame_function[frame] : stacks_.frame_module[frame]);
    }

private:
    enum class Field { None, KernelMode, ThumbCode, Unresolved, OriginalIp, UnwindMethod };

    // A detail of the frame at `depth` of chain n (table row `row`); NULL when not recorded.
    void detailValue(uint32_t n, uint32_t row, uint32_t depth, Field field, sqlite3_context* ctx) const {
        const lanescope::Column<FrameDetail>& details = details_.details;
        size_t at = row;
        if (details_.firstOf) {
            const uint32_t first = details_.firstOf(n);
            if (first == kNoFrameDetails) return resultNull(ctx);
            at = size_t{first} + depth;
        } else if (details.size() != firstRow().back()) {  // not one a row: none kept
            return resultNull(ctx);
        }
        if (at >= details.size()) return resultNull(ctx);
        const FrameDetail& d = details[at];
        auto flag = [ctx](uint8_t v) { return v == kAbsentFrameField ? resultNull(ctx) : resultInt(ctx, v); };
        switch (field) {
            case Field::KernelMode:
                return flag(d.kernel_mode);
            case Field::ThumbCode:
                return flag(d.thumb_code);
            case Field::Unresolved:
                return flag(d.unresolved);
            case Field::UnwindMethod:
                return flag(d.unwind_method);
            case Field::OriginalIp:
                return d.has_original_ip ? resultInt(ctx, d.original_ip) : resultNull(ctx);
            case Field::None:
                return resultNull(ctx);
        }
    }

    // [n]: the first row of stack n's frames, ascending (equal for a stack of no frames); then
    // one more entry, the number of rows (at most 2^32 - 1: the frames beyond are left out).
    const std::vector<uint32_t>& firstRow() const {
        return firstRow_.get([this] {
            const uint32_t n = count_();
            std::vector<uint32_t> first;
            first.reserve(size_t{n} + 1);
            constexpr uint64_t kMostRows = std::numeric_limits<uint32_t>::max();
            uint64_t rows = 0;
            for (uint32_t i = 0; i < n; ++i) {
                first.push_back(uint32_t(std::min(rows, kMostRows)));
                for (uint32_t node = stackOf_(i); node != kNoStack; node = stacks_.node_parent[node]) ++rows;
            }
            first.push_back(uint32_t(std::min(rows, kMostRows)));
            return first;
        });
    }
    // The stack whose frames hold a row.
    uint32_t stackAt(uint32_t row) const {
        const std::vector<uint32_t>& first = firstRow();
        return uint32_t(std::upper_bound(first.begin(), first.end(), row) - first.begin()) - 1;
    }

    const Report& report_;
    const CallStacks& stacks_;
    std::string name_;
    int64_t firstId_;
    std::vector<ColumnDef> columns_;
    std::function<uint32_t()> count_;
    std::function<uint32_t(uint32_t)> stackOf_;
    ChainDetails details_;
    std::vector<Field> fields_;  // by column after module: the detail it shows
    BuiltOnce<std::vector<uint32_t>> firstRow_;
};

// The stacks of the backtraces of one lane kind's calls, one chain per call (BacktraceChains).
std::unique_ptr<TableSpec> backtraceTable(const Report& report, std::string name, CallchainTable::Layout layout,
                                          LaneKind kind) {
    const bool osrt = kind == LaneKind::OsRuntime;
    auto rows = [&report, osrt]() -> const std::vector<uint32_t>& {
        const BacktraceChains& chains = backtraceChains(report);
        return osrt ? chains.osrt : chains.cuda;
    };
    return std::make_unique<CallchainTable>(
        report, std::move(name), layout, osrt ? BacktraceChains::kFirstOsrtId : BacktraceChains::kFirstCudaId,
        [rows] { return uint32_t(rows().size()); },
        [&report, rows](uint32_t n) { return report.backtraces[rows()[n]].stack; },
        ChainDetails{report.backtrace_frame_details,
                     [&report, rows](uint32_t n) { return report.backtraces[rows()[n]].first_detail; }});
}

}  // namespace

void addCallchainTables(const Report& report, std::vector<std::unique_ptr<TableSpec>>& tables) {
    const auto numbers = std::make_shared<const SampleNumbers>(report);
    tables.push_back(std::make_unique<CompositeEventsTable>(report, numbers));
    tables.push_back(std::make_unique<CallchainTable>(
        report, "SAMPLING_CALLCHAINS", CallchainTable::Layout::Full, 1, [numbers] { return numbers->count(); },
        [numbers](uint32_t n) { return numbers->stackOf(n); }, ChainDetails{report.sample_frame_details, {}}));
    tables.push_back(backtraceTable(report, "OSRT_CALLCHAINS", CallchainTable::Layout::Full, LaneKind::OsRuntime));
    tables.push_back(backtraceTable(report, "CUDA_CALLCHAINS", CallchainTable::Layout::Cuda, LaneKind::CudaApi));
}

}  // namespace lanescope::sql
