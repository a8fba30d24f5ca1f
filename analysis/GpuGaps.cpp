#include "analysis/GpuGaps.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <map>
#include <queue>
#include <stdexcept>
#include <unordered_map>

#include "analysis/Cancellation.h"

namespace lanescope {
namespace {

// PROFILER_OVERHEAD names that nsys's gpu_gaps rule counts as GPU work (gpustats.py).
constexpr std::string_view kCountedOverhead[] = {"CUDA profiling data flush overhead", "CUDA profiling stop overhead",
                                                 "CUDA profiling overhead"};

// ---------------------------------------------------------------------------------------------
// Finding the gaps: the holes of the union of one (process, GPU)'s operations.

struct GroupKey {
    int32_t process, gpu;
    auto operator<=>(const GroupKey&) const = default;
};

// The operations of one source (a stream lane, or the counted overhead of the group) in start
// order, from `next` on.
struct Source {
    const IntervalColumns* ops = nullptr;
    size_t next = 0, stop = 0;
    int64_t context = -1;
};

// A gap before its cause is known: small, for sorting millions of them.
struct RawGap {
    int64_t start, duration;
    int32_t process, gpu;
    int64_t device, context;
};

// Appends to `out` the gaps of one group longer than threshold_ns lying inside `range`.
void groupGaps(const Report& report, GroupKey key, const std::vector<const Lane*>& lanes,
               const std::vector<const OverheadRange*>& overhead, int64_t threshold_ns, TimeRange range,
               bool graphsBusy, std::vector<RawGap>& out) {
    std::vector<Source> sources;
    int64_t first = std::numeric_limits<int64_t>::max(), last = std::numeric_limits<int64_t>::min();
    int64_t firstContext = -1;
    for (const Lane* lane : lanes) {
        const IntervalColumns& ev = lane->events;
        // nsys ignores operations with start <= 0; events are in start order.
        size_t begin = static_cast<size_t>(
            std::partition_point(ev.start_ns.begin(), ev.start_ns.end(), [](int64_t s) { return s <= 0; }) -
            ev.start_ns.begin());
        auto counted = [&](size_t i) { return graphsBusy || ev.kind[i] != EventKind::GraphExecution; };
        while (begin < ev.size() && !counted(begin)) ++begin;
        if (begin == ev.size()) continue;
        if (ev.start_ns[begin] < first) {
            first = ev.start_ns[begin];
            firstContext = lane->context_id;
        }
        for (size_t i = begin; i < ev.size(); ++i)
            if (counted(i)) last = std::max(last, ev.endNs(i));
        sources.push_back({&ev, begin, ev.size(), lane->context_id});
    }
    if (sources.empty()) return;

    // Counted overhead strictly inside [first, last] works like one more stream.
    IntervalColumns extra;  // only their times matter
    for (const OverheadRange* o : overhead)
        if (o->start_ns > first && o->end_ns < last)
            extra.append(o->start_ns, o->end_ns, 0, kNoPayload, EventKind::OsRuntimeCall);
    if (extra.size()) sources.push_back({&extra, 0, extra.size(), firstContext});

    // k-way merge by start; each source is consumed in runs while it stays the earliest.
    using Head = std::pair<int64_t, size_t>;  // (next start, source)
    std::priority_queue<Head, std::vector<Head>, std::greater<>> heap;
    for (size_t s = 0; s < sources.size(); ++s) heap.push({sources[s].ops->start_ns[sources[s].next], s});

    const int64_t device = key.gpu >= 0 ? report.gpus[static_cast<size_t>(key.gpu)].device_id : -1;
    bool started = false;
    int64_t busyUntil = 0, busyContext = -1;
    for (size_t runs = 0; !heap.empty(); ++runs) {
        if ((runs & 0xFFFF) == 0) cancellationPoint();
        const size_t s = heap.top().second;
        heap.pop();
        Source& src = sources[s];
        const int64_t limit = heap.empty() ? std::numeric_limits<int64_t>::max() : heap.top().first;
        do {
            if (!graphsBusy && src.ops->kind[src.next] == EventKind::GraphExecution) {  // nsys leaves graphs out
                ++src.next;
                continue;
            }
            const int64_t start = src.ops->start_ns[src.next], end = src.ops->endNs(src.next);
            if (!started) {
                started = true;
                busyUntil = end;
                busyContext = src.context;
            } else {
                if (start > busyUntil && start - busyUntil > threshold_ns && range.contains(busyUntil, start))
                    out.push_back({busyUntil, start - busyUntil, key.process, key.gpu, device, busyContext});
                if (end > busyUntil) {
                    busyUntil = end;
                    busyContext = src.context;
                }
            }
            ++src.next;
        } while (src.next < src.stop && src.ops->start_ns[src.next] <= limit);
        if (src.next < src.stop) heap.push({src.ops->start_ns[src.next], s});
    }
}

// ---------------------------------------------------------------------------------------------
// Explaining the gaps: what the process's CPU threads did meanwhile.

int64_t overlap(const Lane& lane, size_t i, int64_t g0, int64_t g1) {
    return std::max<int64_t>(0, std::min(lane.events.endNs(i), g1) - std::max(lane.events.start_ns[i], g0));
}

bool most(int64_t part, int64_t whole) { return part > whole - part; }  // part > whole / 2, exactly

int percentOf(int64_t part, int64_t whole) {
    if (whole <= 0) return 0;
    return static_cast<int>(std::min<long double>(100, std::floor(100.0L * part / whole)));
}

// "cudaStreamSynchronize_v3020" -> "cudaStreamSynchronize", as cuda_api_sum shows it.
std::string_view apiName(std::string_view name) {
    if (name.size() > 6 && name.substr(name.size() - 6, 2) == "_v") name.remove_suffix(6);
    return name;
}

// A CUDA call that makes the CPU wait for the GPU.
bool isBlockingCall(std::string_view name) {
    name = apiName(name);
    if (name.find("Synchronize") != std::string_view::npos) return true;
    const bool copy = name.starts_with("cudaMemcpy") || name.starts_with("cuMemcpy");
    return copy && name.find("Async") == std::string_view::npos;
}

struct Candidate {
    int64_t covered;  // ns of the gap
    size_t depth;
    uint32_t lane, index;
};

class CauseFinder {
public:
    explicit CauseFinder(const Report& report) : r_(report), byProcess_(report.processes.size()) {
        for (uint32_t l = 0; l < report.lanes.size(); ++l) {
            const Lane& lane = report.lanes[l];
            if (lane.process < 0 || static_cast<size_t>(lane.process) >= byProcess_.size()) continue;
            Lanes& p = byProcess_[static_cast<size_t>(lane.process)];
            if (lane.kind == LaneKind::Nvtx)
                p.nvtx.push_back(l);
            else if (lane.kind == LaneKind::CudaApi)
                p.api.push_back(l);
            else if (lane.kind == LaneKind::OsRuntime)
                p.os.push_back(l);
        }
        // OS calls count on the threads that launch GPU work (those making CUDA API calls):
        // a helper thread waiting on a condition variable is idle, not blocking the GPU.
        for (Lanes& p : byProcess_) {
            std::vector<int32_t> launching;
            for (uint32_t l : p.api)
                if (report.lanes[l].events.size() > 0) launching.push_back(report.lanes[l].thread);
            if (launching.empty()) continue;
            std::erase_if(p.os, [&](uint32_t l) {
                return std::find(launching.begin(), launching.end(), report.lanes[l].thread) == launching.end();
            });
        }
    }

    void explain(GpuGap& gap) {
        gap.cause = GapCause::Unknown;
        gap.cause_text = "no NVTX range, blocking call or CUDA API activity covers most of the gap";
        if (gap.process < 0 || static_cast<size_t>(gap.process) >= byProcess_.size() || gap.duration_ns <= 0) return;
        const Lanes& lanes = byProcess_[static_cast<size_t>(gap.process)];
        const int64_t g0 = gap.start_ns, g1 = gap.start_ns + gap.duration_ns;
        const int64_t mid = g0 + gap.duration_ns / 2;  // inside every event covering most of the gap
        if (explainByNvtx(gap, lanes.nvtx, g0, g1, mid)) return;
        if (explainByCall(gap, lanes.api, g0, g1, mid, true)) return;
        if (explainByCall(gap, lanes.os, g0, g1, mid, false)) return;
        explainByLaunches(gap, lanes.api, g0, g1);
    }

private:
    struct Lanes {
        std::vector<uint32_t> nvtx, api, os;
    };

    std::string threadName(const Lane& lane) const {
        if (lane.thread < 0 || static_cast<size_t>(lane.thread) >= r_.threads.size()) return "?";
        const Thread& t = r_.threads[static_cast<size_t>(lane.thread)];
        std::string_view name = r_.str(t.name_id);
        return name.empty() ? "Thread " + std::to_string(t.tid) : std::string(name);
    }

    std::string_view nameOf(const Candidate& c) const { return r_.str(r_.lanes[c.lane].events.name_id[c.index]); }

    bool explainByNvtx(GpuGap& gap, const std::vector<uint32_t>& lanes, int64_t g0, int64_t g1, int64_t mid) {
        std::vector<Candidate>& found = found_;  // per thread: its innermost range covering most of the gap
        found.clear();
        for (uint32_t l : lanes) {
            const Lane& lane = r_.lanes[l];
            std::optional<Candidate> innermost;
            for (size_t d = 0; d < lane.depth_count; ++d) {
                const std::optional<uint32_t> i = lane.eventAt(d, mid);
                if (!i || lane.events.kind[*i] != EventKind::NvtxRange) continue;
                const int64_t covered = overlap(lane, *i, g0, g1);
                if (most(covered, gap.duration_ns)) innermost = Candidate{covered, d, l, *i};
            }
            if (innermost) found.push_back(*innermost);
        }
        if (found.empty()) return false;
        std::sort(found.begin(), found.end(), [](const Candidate& a, const Candidate& b) {
            if (a.covered != b.covered) return a.covered > b.covered;
            if (a.depth != b.depth) return a.depth > b.depth;
            return std::pair(a.lane, a.index) < std::pair(b.lane, b.index);
        });
        for (const Candidate& c : found) {
            const uint32_t name = r_.lanes[c.lane].events.name_id[c.index];
            if (std::find(gap.nvtx_names.begin(), gap.nvtx_names.end(), name) == gap.nvtx_names.end())
                gap.nvtx_names.push_back(name);
        }
        gap.cause = GapCause::DataLoading;
        gap.cause_text = "CPU in NVTX range '" + std::string(nameOf(found.front())) + "' (covers " +
                         std::to_string(percentOf(found.front().covered, gap.duration_ns)) + "% of the gap)";
        for (size_t k = 1; k < gap.nvtx_names.size(); ++k)
            gap.cause_text += (k == 1 ? "; also '" : ", '") + std::string(r_.str(gap.nvtx_names[k])) + "'";
        return true;
    }

    // A CUDA API call that blocks (cuda) or any OS runtime call (!cuda) covering most of the gap.
    bool explainByCall(GpuGap& gap, const std::vector<uint32_t>& lanes, int64_t g0, int64_t g1, int64_t mid,
                       bool cuda) {
        std::optional<Candidate> best;
        for (uint32_t l : lanes) {
            const Lane& lane = r_.lanes[l];
            for (size_t d = 0; d < lane.depth_count; ++d) {
                const std::optional<uint32_t> i = lane.eventAt(d, mid);
                if (!i) continue;
                if (cuda && !blocking(lane.events.name_id[*i])) continue;
                const int64_t covered = overlap(lane, *i, g0, g1);
                if (!most(covered, gap.duration_ns)) continue;
                if (!best || covered > best->covered || (covered == best->covered && d < best->depth))
                    best = Candidate{covered, d, l, *i};
            }
        }
        if (!best) return false;
        gap.cause = cuda ? GapCause::Synchronization : GapCause::BlockingOsCall;
        gap.blocking_call = EventRef{best->lane, best->index};
        gap.cause_text = std::string("CPU blocked in ") + (cuda ? "" : "OS call ") +
                         std::string(cuda ? apiName(nameOf(*best)) : nameOf(*best)) + " on thread '" +
                         threadName(r_.lanes[best->lane]) + "' (covers " +
                         std::to_string(percentOf(best->covered, gap.duration_ns)) + "% of the gap)";
        return true;
    }

    bool explainByLaunches(GpuGap& gap, const std::vector<uint32_t>& lanes, int64_t g0, int64_t g1) {
        int64_t bestBusy = 0;
        uint32_t bestLane = 0;
        for (uint32_t l : lanes) {
            const int64_t busy = outermostBusy(l, g0, g1);
            if (busy > bestBusy) {
                bestBusy = busy;
                bestLane = l;
            }
        }
        if (!most(bestBusy, gap.duration_ns)) return false;
        gap.cause = GapCause::LaunchBound;
        gap.cause_text = "CPU thread '" + threadName(r_.lanes[bestLane]) + "' busy in CUDA API calls for " +
                         std::to_string(percentOf(bestBusy, gap.duration_ns)) + "% of the gap";
        return true;
    }

    // Time within [g0, g1) that the lane spends in its outermost (depth 0) events, which never
    // overlap: two binary searches, and the durations between from sums per block of
    // kBlockEvents events (built once per lane: 8 bytes per block, not per event) plus at most
    // 2 * kBlockEvents events at the ends.
    int64_t outermostBusy(uint32_t l, int64_t g0, int64_t g1) {
        const Lane& lane = r_.lanes[l];
        const DepthEvents top = lane.atDepth(0);
        if (top.empty()) return 0;
        const DepthEvents::Iterator order = top.begin();
        const size_t n = top.size();
        const auto& ev = lane.events;
        auto duration = [&](size_t k) { return ev.endNs(order[k]) - ev.start_ns[order[k]]; };
        std::vector<int64_t>& blocks = blockSums_[l];  // [b]: the durations of events 0 .. b * kBlockEvents - 1
        if (blocks.empty()) {
            blocks.assign(n / kBlockEvents + 1, 0);
            for (size_t b = 1; b < blocks.size(); ++b) {
                blocks[b] = blocks[b - 1];
                for (size_t k = (b - 1) * kBlockEvents; k < b * kBlockEvents; ++k) blocks[b] += duration(k);
            }
        }
        auto durationsBefore = [&](size_t k) {  // of events 0 .. k - 1
            int64_t sum = blocks[k / kBlockEvents];
            for (size_t j = k / kBlockEvents * kBlockEvents; j < k; ++j) sum += duration(j);
            return sum;
        };
        const size_t lo = static_cast<size_t>(
            std::partition_point(order, order + n, [&](uint32_t i) { return ev.endNs(i) <= g0; }) - order);
        const size_t hi = static_cast<size_t>(
            std::partition_point(order, order + n, [&](uint32_t i) { return ev.start_ns[i] < g1; }) - order);
        if (lo >= hi) return 0;
        int64_t busy = durationsBefore(hi) - durationsBefore(lo);
        if (ev.start_ns[order[lo]] < g0) busy -= g0 - ev.start_ns[order[lo]];
        if (ev.endNs(order[hi - 1]) > g1) busy -= ev.endNs(order[hi - 1]) - g1;
        return busy;
    }

    bool blocking(uint32_t nameId) {
        auto [it, inserted] = blockingName_.try_emplace(nameId, false);
        if (inserted) it->second = isBlockingCall(r_.str(nameId));
        return it->second;
    }

    const Report& r_;
    std::vector<Lanes> byProcess_;
    std::unordered_map<uint32_t, bool> blockingName_;
    static constexpr size_t kBlockEvents = 64;
    std::unordered_map<uint32_t, std::vector<int64_t>> blockSums_;  // per CUDA API lane, see outermostBusy
    std::vector<Candidate> found_;
};

}  // namespace

std::vector<GpuGap> findGpuGaps(const Report& report, const GapOptions& options) {
    // Threshold in ns; nsys keeps durations strictly greater.
    const double thresholdNs = std::max(0.0, options.gap_ms) * 1e6;
    const int64_t threshold =
        thresholdNs >= 9.2e18 ? std::numeric_limits<int64_t>::max() : static_cast<int64_t>(std::llround(thresholdNs));

    std::map<GroupKey, std::vector<const Lane*>> groups;
    for (const Lane& lane : report.lanes)
        if (lane.kind == LaneKind::GpuStream && lane.events.size() > 0)
            groups[{lane.process, lane.gpu}].push_back(&lane);

    std::vector<uint32_t> counted;
    for (std::string_view name : kCountedOverhead)
        if (uint32_t id = report.strings.find(name); id != UINT32_MAX) counted.push_back(id);
    std::unordered_map<int32_t, std::vector<const OverheadRange*>> overheadOf;
    if (!counted.empty())
        for (const OverheadRange& o : report.profiler_overhead)
            if (std::find(counted.begin(), counted.end(), o.name_id) != counted.end())
                overheadOf[o.process].push_back(&o);
    const std::vector<const OverheadRange*> none;

    // The groups are independent: on two threads, each group's gaps apart, then in group order.
    std::vector<std::pair<GroupKey, const std::vector<const Lane*>*>> jobs;
    for (const auto& [key, lanes] : groups) jobs.emplace_back(key, &lanes);
    std::vector<std::vector<RawGap>> found(jobs.size());
    std::atomic<size_t> next{0};
    runOnThreads(std::min<unsigned>(2, unsigned(jobs.size())), [&] {
        for (size_t j; (j = next.fetch_add(1)) < jobs.size();) {
            const GroupKey key = jobs[j].first;
            auto o = key.process >= 0 ? overheadOf.find(key.process) : overheadOf.end();
            groupGaps(report, key, *jobs[j].second, o != overheadOf.end() ? o->second : none, threshold, options.range,
                      options.graphs_busy, found[j]);
        }
    });
    std::vector<RawGap> raw;
    for (const std::vector<RawGap>& part : found) raw.insert(raw.end(), part.begin(), part.end());

    auto order = [](const RawGap& a, const RawGap& b) {
        if (a.duration != b.duration) return a.duration > b.duration;
        if (a.start != b.start) return a.start < b.start;
        return std::pair(a.process, a.gpu) < std::pair(b.process, b.gpu);
    };
    if (options.rows >= 0 && static_cast<uint64_t>(options.rows) < raw.size()) {
        const auto keep = static_cast<ptrdiff_t>(options.rows);
        std::partial_sort(raw.begin(), raw.begin() + keep, raw.end(), order);
        raw.resize(static_cast<size_t>(keep));
    } else {
        std::sort(raw.begin(), raw.end(), order);
    }

    std::vector<GpuGap> gaps(raw.size());
    for (size_t i = 0; i < raw.size(); ++i) {
        GpuGap& g = gaps[i];
        g.start_ns = raw[i].start;
        g.duration_ns = raw[i].duration;
        g.process = raw[i].process;
        g.gpu = raw[i].gpu;
        g.device_id = raw[i].device;
        g.context_id = raw[i].context;
    }
    // Explained in time order, so that the binary searches of one gap touch the memory of
    // the previous one's.
    struct When {
        int32_t process;
        uint32_t gap;
        int64_t start;
    };
    std::vector<When> byTime(gaps.size());
    for (size_t i = 0; i < gaps.size(); ++i) byTime[i] = {gaps[i].process, static_cast<uint32_t>(i), gaps[i].start_ns};
    std::sort(byTime.begin(), byTime.end(), [](const When& a, const When& b) {
        return a.process != b.process ? a.process < b.process : a.start < b.start;
    });
    CauseFinder causes(report);
    for (const When& w : byTime) causes.explain(gaps[w.gap]);
    return gaps;
}

StatsTable gpuGapsTable(const Report& report, const std::vector<GpuGap>& gaps) {
    StatsTable table;
    table.name = "gpu_gaps";
    table.header = {"Row#", "Duration (ns)", "Start (ns)", "PID", "Device ID", "Context ID"};
    int64_t row = 0;
    for (const GpuGap& g : gaps) {
        const int64_t pid = g.process >= 0 && static_cast<size_t>(g.process) < report.processes.size()
                                ? report.processes[static_cast<size_t>(g.process)].pid
                                : -1;
        table.rows.push_back({++row, g.duration_ns, g.start_ns, pid, g.device_id, g.context_id});
    }
    return table;
}

const char* gapCauseName(GapCause cause) {
    switch (cause) {
        case GapCause::DataLoading:
            return "NVTX range";
        case GapCause::Synchronization:
            return "synchronization";
        case GapCause::BlockingOsCall:
            return "blocking OS call";
        case GapCause::LaunchBound:
            return "launch bound";
        case GapCause::Unknown:
            return "unknown";
    }
    return "unknown";
}

GapOptions gapOptionsFrom(const RuleOptions& options) {
    GapOptions gap;
    for (const auto& [key, value] : options.values) {
        char* end = nullptr;
        if (key == "gap")
            gap.gap_ms = std::strtod(value.c_str(), &end);
        else if (key == "rows")
            gap.rows = std::strtoll(value.c_str(), &end, 10);
        else
            throw std::invalid_argument("gpu_gaps takes gap=MS and rows=N");
        if (!end || *end || value.empty()) throw std::invalid_argument("bad value for " + key + ": " + value);
    }
    if (gap.gap_ms < 0) throw std::invalid_argument("gap must be >= 0");
    return gap;
}

RuleResult gpuGapsResult(const Report& report, const RuleOptions& options) {
    const std::vector<GpuGap> gaps = findGpuGaps(report, gapOptionsFrom(options));
    RuleResult result;
    result.table = gpuGapsTable(report, gaps);
    for (const GpuGap& g : gaps) {
        RuleFinding f;
        f.begin_ns = g.start_ns;
        f.end_ns = g.start_ns + g.duration_ns;
        f.process = g.process;
        f.gpu = g.gpu;
        result.findings.push_back(f);
    }
    return result;
}

}  // namespace lanescope
