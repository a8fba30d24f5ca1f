#include "analysis/GpuUtilization.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <stdexcept>
#include <tuple>

namespace lanescope {
namespace {

bool isGpuOp(EventKind kind) {
    return kind == EventKind::Kernel || kind == EventKind::Memcpy || kind == EventKind::Memset;
}

// The overhead ranges nsys's gpustats counts as CUDA GPU work.
bool isCudaOverhead(std::string_view name) {
    return name == "CUDA profiling data flush overhead" || name == "CUDA profiling stop overhead" ||
           name == "CUDA profiling overhead";
}

// SQLite's sum() of REAL values (3.43+): Kahan-Babuska-Neumaier summation.
class KbnSum {
public:
    void add(double r) {
        const double t = sum_ + r;
        if (std::fabs(sum_) > std::fabs(r))
            err_ += (sum_ - t) + r;
        else
            err_ += (r - t) + sum_;
        sum_ = t;
    }
    double value() const { return sum_ + err_; }

private:
    double sum_ = 0, err_ = 0;
};

// round(x, 1) as nsys's SQLite computes it: the value formatCell prints, read back.
double roundTo1(double x) { return std::strtod(formatCell(StatsTable::Real{x, 1}).c_str(), nullptr); }

// The GPU operations of one (pid, device id) group.
struct OpGroup {
    int32_t process = -1, gpu = -1;
    int64_t pid = 0, device_id = -1;
    int64_t begin = 0, end = 0;  // min start, max end
    int64_t context_id = -1;     // of the first operation (nsys table order) with the max end
    std::tuple<int, int64_t, uint32_t, uint32_t> context_key{};  // (table, start, lane, index) of it
    std::vector<std::pair<int64_t, int64_t>> ops;
};

// One coalesced run of low-utilization chunks.
struct LowRun {
    int64_t group_id = 0;  // nsys's groupId: first chunk index - kept chunks before it
    int64_t start = 0, end = 0;
    double average = 0;  // rounded to 1 decimal
    const OpGroup* group = nullptr;
};

int tableOrder(EventKind kind) { return kind == EventKind::Kernel ? 0 : kind == EventKind::Memcpy ? 1 : 2; }

}  // namespace

RuleResult gpuTimeUtilResult(const Report& report, const RuleOptions& options) {
    const RuleScope scope = ruleScope(report, options, {"threshold", "chunks"});
    const int64_t threshold = ruleIntOption(options, "threshold", 50);
    const int64_t chunks = ruleIntOption(options, "chunks", 30);
    if (chunks != 0 && (chunks < 1 || chunks > 1000))  // nsys lets 0 through: no chunks, no rows
        throw std::invalid_argument("argument --chunks: value must be between 1 and 1000");

    std::map<std::pair<int64_t, int64_t>, OpGroup> groups;  // by (pid, device id)
    for (size_t li = 0; li < report.lanes.size(); ++li) {
        const Lane& lane = report.lanes[li];
        if (lane.kind != LaneKind::GpuStream || !scope.keepsLane(lane)) continue;
        const int64_t pid = lane.process >= 0 && static_cast<size_t>(lane.process) < report.processes.size()
                                ? report.processes[static_cast<size_t>(lane.process)].pid
                                : 0;
        const int64_t device = lane.gpu >= 0 && static_cast<size_t>(lane.gpu) < report.gpus.size()
                                   ? report.gpus[static_cast<size_t>(lane.gpu)].device_id
                                   : -1;
        const IntervalColumns& ev = lane.events;
        for (size_t i = 0; i < ev.size(); ++i) {
            const int64_t s = ev.start_ns[i], e = ev.endNs(i);
            if (!isGpuOp(ev.kind[i]) || s <= 0 || !scope.keepsTime(s, e)) continue;
            auto [it, inserted] = groups.try_emplace({pid, device});
            OpGroup& g = it->second;
            const auto key = std::tuple(tableOrder(ev.kind[i]), s, static_cast<uint32_t>(li), static_cast<uint32_t>(i));
            if (inserted) {
                g.process = lane.process;
                g.gpu = lane.gpu;
                g.pid = pid;
                g.device_id = device;
                g.begin = s;
                g.end = e;
                g.context_id = lane.context_id;
                g.context_key = key;
            } else {
                g.begin = std::min(g.begin, s);
                if (e > g.end || (e == g.end && key < g.context_key)) {
                    g.end = e;
                    g.context_id = lane.context_id;
                    g.context_key = key;
                }
            }
            g.ops.emplace_back(s, e);
        }
    }

    std::vector<LowRun> runs;
    for (auto& group : groups) {
        auto& g = group.second;  // a plain reference: lambdas below capture it (clang 14)
        for (const OverheadRange& o : report.profiler_overhead) {
            if (o.process < 0 || report.processes[static_cast<size_t>(o.process)].pid != g.pid) continue;
            if (!scope.keepsProcess(o.process) || !scope.keepsTime(o.start_ns, o.end_ns)) continue;
            if (o.start_ns > g.begin && o.end_ns < g.end && isCudaOverhead(report.str(o.name_id)))
                g.ops.emplace_back(o.start_ns, o.end_ns);
        }
        if (chunks == 0) continue;
        // ceil(CAST(span AS FLOAT) / chunks), in double as SQLite computes it.
        const auto size =
            static_cast<int64_t>(std::ceil(static_cast<double>(g.end - g.begin) / static_cast<double>(chunks)));
        if (size <= 0) continue;  // every chunk would be empty (cstart < cend fails)
        int64_t count = 0;
        while (count < chunks && g.begin + count * size < g.end) ++count;
        std::vector<int64_t> busy(static_cast<size_t>(count), 0);
        auto chunkEnd = [&](int64_t c) { return std::min(g.begin + (c + 1) * size, g.end); };
        for (const auto& [s, e] : g.ops) {
            // Chunks [cs, ce) with s < ce and e > cs get min(e, ce) - max(s, cs).
            int64_t c = std::max<int64_t>(0, (s - g.begin) / size);
            while (c > 0 && s < g.begin + c * size) --c;
            for (; c < count && g.begin + c * size < e; ++c) {
                const int64_t cs = g.begin + c * size, ce = chunkEnd(c);
                if (s < ce && e > cs) busy[static_cast<size_t>(c)] += std::min(e, ce) - std::max(s, cs);
            }
        }
        // Kept chunks below the threshold, coalesced into runs of consecutive chunks.
        int64_t kept = 0;
        LowRun run;
        KbnSum weighted;
        int64_t sizes = 0;
        bool open = false;
        auto close = [&] {
            if (!open) return;
            run.average = roundTo1(weighted.value() / static_cast<double>(sizes));
            runs.push_back(run);
            open = false;
        };
        for (int64_t c = 0; c < count; ++c) {
            const int64_t cs = g.begin + c * size, ce = chunkEnd(c);
            const double percent =
                static_cast<double>(busy[static_cast<size_t>(c)]) / static_cast<double>(ce - cs) * 100.0;
            if (!(percent < static_cast<double>(threshold))) {
                close();
                continue;
            }
            ++kept;
            const int64_t groupId = c - kept;
            if (!open || groupId != run.group_id) {
                close();
                run = LowRun{groupId, cs, ce, 0, &g};
                weighted = KbnSum();
                sizes = 0;
                open = true;
            }
            run.end = ce;
            weighted.add(static_cast<double>(ce - cs) * percent);
            sizes += ce - cs;
        }
        close();
    }

    // GROUP BY groupId, deviceId, pid (their order), LIMIT rows; then ROW_NUMBER() OVER
    // (ORDER BY average, duration), ties keeping that order.
    std::stable_sort(runs.begin(), runs.end(), [](const LowRun& a, const LowRun& b) {
        return std::tie(a.group_id, a.group->device_id, a.group->pid) <
               std::tie(b.group_id, b.group->device_id, b.group->pid);
    });
    if (scope.rows >= 0 && runs.size() > static_cast<uint64_t>(scope.rows))
        runs.resize(static_cast<size_t>(scope.rows));
    std::stable_sort(runs.begin(), runs.end(), [](const LowRun& a, const LowRun& b) {
        return std::pair(a.average, a.end - a.start) < std::pair(b.average, b.end - b.start);
    });

    RuleResult result;
    result.table.name = "gpu_time_util";
    result.table.header = {"Row#", "In-Use (%)", "Duration (ns)", "Start (ns)", "PID", "Device ID", "Context ID"};
    for (size_t r = 0; r < runs.size(); ++r) {
        const LowRun& run = runs[r];
        result.table.rows.push_back({static_cast<int64_t>(r + 1), StatsTable::Real{run.average, 1}, run.end - run.start,
                                     run.start, run.group->pid, run.group->device_id, run.group->context_id});
        RuleFinding finding;
        finding.begin_ns = run.start;
        finding.end_ns = run.end;
        finding.process = run.group->process;
        finding.gpu = run.group->gpu;
        result.findings.push_back(finding);
    }
    return result;
}

StatsTable gpuTimeUtil(const Report& report, const RuleOptions& options) {
    return gpuTimeUtilResult(report, options).table;
}

UtilizationSeries gpuUtilization(const Report& report, int32_t gpu, int64_t begin_ns, int64_t end_ns, int chunks) {
    UtilizationSeries series;
    series.begin_ns = begin_ns;
    if (gpu < 0 || static_cast<size_t>(gpu) >= report.gpus.size() || end_ns <= begin_ns || chunks <= 0) return series;
    const int64_t span = end_ns - begin_ns;
    const int64_t size = span / chunks + (span % chunks != 0);
    const int64_t count = span / size + (span % size != 0);
    series.chunk_ns = size;

    std::vector<int64_t> covered(static_cast<size_t>(count), 0);  // busy ns per chunk
    auto cover = [&](int64_t s, int64_t e) {
        for (int64_t c = (s - begin_ns) / size; c < count && begin_ns + c * size < e; ++c) {
            const int64_t cs = begin_ns + c * size, ce = std::min(cs + size, end_ns);
            covered[static_cast<size_t>(c)] += std::min(e, ce) - std::max(s, cs);
        }
    };
    // The union of the operations, fed in start order: overlapping ones merge into one run
    // before it is covered.
    int64_t runStart = 0, runEnd = 0;
    bool inRun = false;
    auto feed = [&](int64_t start, int64_t stop) {
        const int64_t s = std::max(start, begin_ns), e = std::min(stop, end_ns);
        if (s >= e) return;
        if (inRun && s <= runEnd) {
            runEnd = std::max(runEnd, e);
            return;
        }
        if (inRun) cover(runStart, runEnd);
        runStart = s, runEnd = e, inRun = true;
    };
    // A graph replay traced as a whole is GPU work too (the rule above leaves it out, as nsys).
    auto counts = [](EventKind kind) { return isGpuOp(kind) || kind == EventKind::GraphExecution; };

    // The operations of this GPU overlapping [begin, end), from sorted sources merged by start
    // (no copy, no sort): each depth of each frozen stream lane ascends by start; lanes not
    // frozen (none, once a report is finished) are gathered and sorted.
    struct Source {
        const IntervalColumns* events;
        DepthEvents::Iterator at, end;
        int64_t start() const { return events->start_ns[*at]; }
    };
    std::vector<Source> heap;                        // a min-heap by the start of each source's next event
    std::vector<std::pair<int64_t, int64_t>> loose;  // (start, end) of lanes not frozen, sorted below
    for (const Lane& lane : report.lanes) {
        if (lane.kind != LaneKind::GpuStream || lane.gpu != gpu) continue;
        const IntervalColumns& ev = lane.events;
        if (!lane.isFrozen()) {
            for (size_t i = 0; i < ev.size(); ++i)
                if (counts(ev.kind[i])) loose.emplace_back(ev.start_ns[i], ev.endNs(i));
            continue;
        }
        for (size_t d = 0; d < lane.depth_count; ++d)
            if (const DepthEvents events = lane.overlapping(d, begin_ns, end_ns); !events.empty())
                heap.push_back({&ev, events.begin(), events.end()});
    }
    std::sort(loose.begin(), loose.end());
    const auto later = [](const Source& a, const Source& b) { return a.start() > b.start(); };
    std::make_heap(heap.begin(), heap.end(), later);
    size_t nextLoose = 0;
    while (!heap.empty() || nextLoose < loose.size()) {
        if (heap.empty() || (nextLoose < loose.size() && loose[nextLoose].first < heap.front().start())) {
            feed(loose[nextLoose].first, loose[nextLoose].second);
            ++nextLoose;
            continue;
        }
        std::pop_heap(heap.begin(), heap.end(), later);
        Source& source = heap.back();
        const uint32_t i = *source.at;
        if (counts(source.events->kind[i])) feed(source.events->start_ns[i], source.events->endNs(i));
        if (++source.at == source.end)
            heap.pop_back();
        else
            std::push_heap(heap.begin(), heap.end(), later);
    }
    if (inRun) cover(runStart, runEnd);
    series.busy_fraction.resize(static_cast<size_t>(count));
    for (int64_t c = 0; c < count; ++c) {
        const int64_t cs = begin_ns + c * size, ce = std::min(cs + size, end_ns);
        series.busy_fraction[static_cast<size_t>(c)] =
            static_cast<double>(covered[static_cast<size_t>(c)]) / static_cast<double>(ce - cs);
    }
    return series;
}

}  // namespace lanescope
