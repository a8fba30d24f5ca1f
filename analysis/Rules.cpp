#include "analysis/Rules.h"

#include <algorithm>
#include <stdexcept>
#include <tuple>
#include <unordered_map>

namespace lanescope {
namespace {

char asciiLower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

// Python int(): surrounding whitespace, an optional sign, digits with single '_' between them.
std::optional<int64_t> parsePythonInt(std::string_view text) {
    auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; };
    while (!text.empty() && space(text.front())) text.remove_prefix(1);
    while (!text.empty() && space(text.back())) text.remove_suffix(1);
    bool negative = false;
    if (!text.empty() && (text.front() == '+' || text.front() == '-')) {
        negative = text.front() == '-';
        text.remove_prefix(1);
    }
    if (text.empty() || text.front() == '_' || text.back() == '_') return std::nullopt;
    // Accumulate negatively so INT64_MIN parses.
    int64_t value = 0;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '_') {
            if (text[i - 1] == '_') return std::nullopt;
            continue;
        }
        if (c < '0' || c > '9') return std::nullopt;
        const int digit = c - '0';
        if (value < (std::numeric_limits<int64_t>::min() + digit) / 10) return std::nullopt;
        value = value * 10 - digit;
    }
    if (!negative) {
        if (value == std::numeric_limits<int64_t>::min()) return std::nullopt;
        value = -value;
    }
    return value;
}

const std::string* optionValue(const RuleOptions& options, std::string_view name) {
    auto it = options.values.find(std::string(name));
    return it == options.values.end() ? nullptr : &it->second;
}

// Caches, per string id, whether a name matches a rule's LIKE patterns.
class NameMatcher {
public:
    NameMatcher(const Report& report, std::vector<std::string_view> like, std::vector<std::string_view> notLike = {})
        : report_(report), like_(std::move(like)), notLike_(std::move(notLike)), known_(report.strings.size(), -1) {}

    bool operator()(uint32_t nameId) {
        if (nameId >= known_.size()) return test(nameId);
        if (known_[nameId] < 0) known_[nameId] = test(nameId) ? 1 : 0;
        return known_[nameId] == 1;
    }

private:
    bool test(uint32_t nameId) const {
        if (nameId >= report_.strings.size()) return false;
        const std::string_view name = report_.str(nameId);
        const bool any = std::any_of(like_.begin(), like_.end(), [&](std::string_view p) { return sqlLike(p, name); });
        return any &&
               std::none_of(notLike_.begin(), notLike_.end(), [&](std::string_view p) { return sqlLike(p, name); });
    }

    const Report& report_;
    std::vector<std::string_view> like_, notLike_;
    std::vector<int8_t> known_;
};

// One row before sorting, with its sort keys.
struct PendingRow {
    int64_t duration = 0, start = 0;
    // The API call's start: the row of a GPU operation joined to its call (the call itself for
    // cuda_api_sync).
    int64_t call_start = 0;
    EventRef event, call;
    std::vector<StatsTable::Cell> cells;
    RuleFinding finding;
};

// ORDER BY duration DESC, LIMIT rows. Rows of the same duration come as nsys lists them: in the
// order of their API calls (the runtime table's, by start), then by the GPU operation's start. A
// report of several processes shows the difference: a GPU operation is joined to the calls of
// every process with its correlation id, and nsys lists the operations of the first call, then
// those of the second.
RuleResult finish(std::string name, std::vector<std::string> header, std::vector<PendingRow>& rows, int64_t limit) {
    std::sort(rows.begin(), rows.end(), [](const PendingRow& a, const PendingRow& b) {
        if (a.duration != b.duration) return a.duration > b.duration;
        return std::tie(a.call_start, a.call.lane, a.call.index, a.start, a.event.lane, a.event.index) <
               std::tie(b.call_start, b.call.lane, b.call.index, b.start, b.event.lane, b.event.index);
    });
    if (limit >= 0 && rows.size() > static_cast<uint64_t>(limit)) rows.resize(static_cast<size_t>(limit));
    RuleResult result;
    result.table.name = std::move(name);
    result.table.header = std::move(header);
    result.table.rows.reserve(rows.size());
    result.findings.reserve(rows.size());
    for (PendingRow& row : rows) {
        result.table.rows.push_back(std::move(row.cells));
        result.findings.push_back(row.finding);
    }
    return result;
}

int64_t pidOf(const Report& report, int32_t process) {
    return process >= 0 && static_cast<size_t>(process) < report.processes.size()
               ? report.processes[static_cast<size_t>(process)].pid
               : 0;
}

// nsys's Device ID cell: the CUDA device id, empty when the lane has no GPU.
StatsTable::Cell deviceCell(const Report& report, int32_t gpu) {
    if (gpu >= 0 && static_cast<size_t>(gpu) < report.gpus.size())
        return report.gpus[static_cast<size_t>(gpu)].device_id;
    return std::string();
}

// API calls of every process (unfiltered, as nsys joins main.CUPTI_ACTIVITY_KIND_RUNTIME)
// whose name matches, by correlation id.
std::unordered_map<uint32_t, std::vector<EventRef>> callsByCorrelation(const Report& report, NameMatcher& matches) {
    std::unordered_map<uint32_t, std::vector<EventRef>> calls;
    for (size_t li = 0; li < report.lanes.size(); ++li) {
        const Lane& lane = report.lanes[li];
        if (lane.kind != LaneKind::CudaApi) continue;
        const IntervalColumns& ev = lane.events;
        for (size_t i = 0; i < ev.size(); ++i) {
            if (ev.kind[i] != EventKind::CudaApiCall || ev.payload[i] == 0 || ev.payload[i] == kNoPayload) continue;
            if (matches(ev.name_id[i]))
                calls[ev.payload[i]].push_back({static_cast<uint32_t>(li), static_cast<uint32_t>(i)});
        }
    }
    return calls;
}

// The rows of a memcpy or memset rule: each GPU operation of `kind` in scope for which
// `keep(payload)` holds, once per API call of `calls` with its correlation id.
template <typename Keep, typename Cells>
std::vector<PendingRow> gpuOpRows(const Report& report, const RuleScope& scope, EventKind kind,
                                  const std::unordered_map<uint32_t, std::vector<EventRef>>& calls, Keep&& keep,
                                  Cells&& cells) {
    std::vector<PendingRow> rows;
    for (size_t li = 0; li < report.lanes.size(); ++li) {
        const Lane& lane = report.lanes[li];
        if (lane.kind != LaneKind::GpuStream || !scope.keepsLane(lane)) continue;
        const IntervalColumns& ev = lane.events;
        for (size_t i = 0; i < ev.size(); ++i) {
            if (ev.kind[i] != kind || !scope.keepsTime(ev.start_ns[i], ev.endNs(i))) continue;
            const uint32_t payload = ev.payload[i];
            uint32_t correlation = 0;
            if (kind == EventKind::Memcpy) {
                if (payload >= report.memcpys.size()) continue;
                correlation = report.memcpys[payload].correlation_id;
            } else {
                if (payload >= report.memsets.size()) continue;
                correlation = report.memsets[payload].correlation_id;
            }
            if (correlation == 0 || !keep(payload)) continue;
            auto found = calls.find(correlation);
            if (found == calls.end()) continue;
            const EventRef op{static_cast<uint32_t>(li), static_cast<uint32_t>(i)};
            for (const EventRef& call : found->second) {
                PendingRow row;
                row.duration = ev.endNs(i) - ev.start_ns[i];
                row.start = ev.start_ns[i];
                row.event = op;
                row.call = call;
                row.call_start = report.lanes[call.lane].events.start_ns[call.index];
                const uint32_t apiName = report.lanes[call.lane].events.name_id[call.index];
                row.cells = {row.duration, row.start};
                cells(row.cells, payload);
                row.cells.emplace_back(pidOf(report, lane.process));
                row.cells.push_back(deviceCell(report, lane.gpu));
                row.cells.emplace_back(lane.context_id);
                row.cells.emplace_back(std::string());  // Green Context ID: NULL
                row.cells.emplace_back(lane.stream_id);
                row.cells.emplace_back(std::string(report.str(apiName)));
                row.finding = {op, call, ev.start_ns[i], ev.endNs(i), lane.process, lane.gpu};
                rows.push_back(std::move(row));
            }
        }
    }
    return rows;
}

const std::vector<std::string> kMemcpyHeader = {"Duration (ns)",    "Start (ns)", "Src Kind",  "Dst Kind",
                                                "Bytes (MB)",       "PID",        "Device ID", "Context ID",
                                                "Green Context ID", "Stream ID",  "API Name"};

RuleResult memcpyRule(const Report& report, const RuleOptions& options, bool sync) {
    const RuleScope scope = ruleScope(report, options);
    NameMatcher matches =
        sync ? NameMatcher(report, {"cudaMemcpy%"}, {"%Async%"}) : NameMatcher(report, {"cudaMemcpy%Async%"});
    const auto calls = callsByCorrelation(report, matches);
    auto rows = gpuOpRows(
        report, scope, EventKind::Memcpy, calls,
        [&](uint32_t payload) {
            const MemcpyInfo& m = report.memcpys[payload];
            if (sync) return !(m.bytes <= 64000 && m.copy_kind == CopyKind::HtoD);
            return m.src_kind == MemKind::Pageable || m.dst_kind == MemKind::Pageable;
        },
        [&](std::vector<StatsTable::Cell>& cells, uint32_t payload) {
            const MemcpyInfo& m = report.memcpys[payload];
            cells.emplace_back(std::string(memKindLabel(m.src_kind)));
            cells.emplace_back(std::string(memKindLabel(m.dst_kind)));
            cells.emplace_back(StatsTable::Real{static_cast<double>(m.bytes) / 1e6, 3});
        });
    return finish(sync ? "cuda_memcpy_sync" : "cuda_memcpy_async", kMemcpyHeader, rows, scope.rows);
}

}  // namespace

bool sqlLike(std::string_view pattern, std::string_view text) {
    size_t p = 0, t = 0, starP = std::string_view::npos, starT = 0;
    while (t < text.size()) {
        if (p < pattern.size() && pattern[p] == '%') {
            starP = p++;
            starT = t;
        } else if (p < pattern.size() && (pattern[p] == '_' || asciiLower(pattern[p]) == asciiLower(text[t]))) {
            ++p;
            ++t;
        } else if (starP != std::string_view::npos) {
            p = starP + 1;
            t = ++starT;
        } else {
            return false;
        }
    }
    while (p < pattern.size() && pattern[p] == '%') ++p;
    return p == pattern.size();
}

std::optional<RuleSpec> parseRuleSpec(std::string_view text, std::string* error) {
    auto fail = [&](std::string why) -> std::optional<RuleSpec> {
        if (error) *error = std::move(why);
        return std::nullopt;
    };
    RuleSpec spec;
    size_t colon = text.find(':');
    spec.name = std::string(text.substr(0, colon));
    if (spec.name.empty()) return fail("no rule name in '" + std::string(text) + "'");
    while (colon != std::string_view::npos) {
        const size_t begin = colon + 1;
        colon = text.find(':', begin);
        const std::string_view option =
            text.substr(begin, colon == std::string_view::npos ? std::string_view::npos : colon - begin);
        const size_t eq = option.find('=');
        if (eq == std::string_view::npos || eq == 0)
            return fail("option '" + std::string(option) + "' is not written name=value");
        spec.options.values[std::string(option.substr(0, eq))] = std::string(option.substr(eq + 1));
    }
    return spec;
}

bool RuleScope::keepsLane(const Lane& lane) const {
    if (process >= 0 && lane.process != process) return false;
    if (thread >= 0 && lane.thread >= 0 && lane.thread != thread) return false;
    return true;
}

int64_t ruleIntOption(const RuleOptions& options, std::string_view name, int64_t fallback) {
    const std::string* text = optionValue(options, name);
    if (!text) return fallback;
    if (auto value = parsePythonInt(*text)) return *value;
    throw std::invalid_argument("argument --" + std::string(name) + ": invalid int value: '" + *text + "'");
}

RuleScope ruleScope(const Report& report, const RuleOptions& options, std::initializer_list<std::string_view> extra) {
    for (const auto& [key, value] : options.values) {
        const bool known = key == "rows" || key == "start" || key == "end" || key == "nvtx" ||
                           std::find(extra.begin(), extra.end(), key) != extra.end();
        if (!known) throw std::invalid_argument("unrecognized arguments: " + key + "=" + value);
    }
    RuleScope scope;
    scope.rows = ruleIntOption(options, "rows", 50);
    const std::string* start = optionValue(options, "start");
    const std::string* end = optionValue(options, "end");
    const std::string* nvtx = optionValue(options, "nvtx");
    if (!start && !end && !nvtx) return scope;
    scope.filtered = true;
    if (start) scope.begin_ns = ruleIntOption(options, "start", 0);
    if (end) scope.end_ns = ruleIntOption(options, "end", 0);
    if (nvtx) {
        // The first (by start) push/pop or start/end range whose "name[@domain]" is *nvtx.
        std::optional<EventRef> found;
        int64_t foundStart = 0;
        for (size_t li = 0; li < report.lanes.size(); ++li) {
            const Lane& lane = report.lanes[li];
            if (lane.kind != LaneKind::Nvtx && lane.kind != LaneKind::NvtxStartEnd) continue;
            const IntervalColumns& ev = lane.events;
            for (size_t i = 0; i < ev.size(); ++i) {
                if (ev.kind[i] != EventKind::NvtxRange || (found && ev.start_ns[i] >= foundStart)) continue;
                const std::string_view name = report.str(ev.name_id[i]);
                const uint32_t domain =
                    ev.payload[i] < report.nvtx.size() ? report.nvtx[ev.payload[i]].domain_name_id : 0;
                const bool same = domain == 0
                                      ? name == *nvtx
                                      : nvtx->size() == name.size() + 1 + report.str(domain).size() &&
                                            nvtx->compare(0, name.size(), name) == 0 && (*nvtx)[name.size()] == '@' &&
                                            nvtx->compare(name.size() + 1, std::string::npos, report.str(domain)) == 0;
                if (!same) continue;
                found = EventRef{static_cast<uint32_t>(li), static_cast<uint32_t>(i)};
                foundStart = ev.start_ns[i];
            }
        }
        if (!found) throw std::invalid_argument("NVTX range '" + *nvtx + "' could not be found.");
        const Lane& lane = report.lanes[found->lane];
        if (!start) scope.begin_ns = lane.events.start_ns[found->index];
        if (!end) scope.end_ns = lane.events.endNs(found->index);
        scope.process = lane.process;
        if (lane.thread >= 0 && static_cast<size_t>(lane.thread) < report.threads.size()) {
            const Thread& thread = report.threads[static_cast<size_t>(lane.thread)];
            scope.process = thread.process;
            if (thread.tid != pidOf(report, thread.process)) scope.thread = lane.thread;
        }
    }
    if (scope.begin_ns > scope.end_ns)
        throw std::invalid_argument("The start time cannot be greater than the end time.");
    return scope;
}

RuleResult cudaApiSyncResult(const Report& report, const RuleOptions& options) {
    const RuleScope scope = ruleScope(report, options);
    NameMatcher matches(report, {"cudaDeviceSynchronize%", "cudaStreamSynchronize%"});
    std::vector<PendingRow> rows;
    for (size_t li = 0; li < report.lanes.size(); ++li) {
        const Lane& lane = report.lanes[li];
        if (lane.kind != LaneKind::CudaApi || !scope.keepsLane(lane)) continue;
        const int64_t tid = lane.thread >= 0 && static_cast<size_t>(lane.thread) < report.threads.size()
                                ? report.threads[static_cast<size_t>(lane.thread)].tid
                                : 0;
        const IntervalColumns& ev = lane.events;
        for (size_t i = 0; i < ev.size(); ++i) {
            if (ev.kind[i] != EventKind::CudaApiCall || !matches(ev.name_id[i]) ||
                !scope.keepsTime(ev.start_ns[i], ev.endNs(i)))
                continue;
            PendingRow row;
            row.duration = ev.endNs(i) - ev.start_ns[i];
            row.start = ev.start_ns[i];
            row.call_start = row.start;
            row.event = {static_cast<uint32_t>(li), static_cast<uint32_t>(i)};
            row.call = row.event;
            row.cells = {row.duration, row.start, pidOf(report, lane.process), tid,
                         std::string(report.str(ev.name_id[i]))};
            row.finding = {row.event, std::nullopt, ev.start_ns[i], ev.endNs(i), lane.process, -1};
            rows.push_back(std::move(row));
        }
    }
    return finish("cuda_api_sync", {"Duration (ns)", "Start (ns)", "PID", "TID", "API Name"}, rows, scope.rows);
}

RuleResult cudaMemcpySyncResult(const Report& report, const RuleOptions& options) {
    return memcpyRule(report, options, true);
}

RuleResult cudaMemcpyAsyncResult(const Report& report, const RuleOptions& options) {
    return memcpyRule(report, options, false);
}

RuleResult cudaMemsetSyncResult(const Report& report, const RuleOptions& options) {
    const RuleScope scope = ruleScope(report, options);
    NameMatcher matches(report, {"cudaMemset%"}, {"%async%"});
    const auto calls = callsByCorrelation(report, matches);
    auto rows = gpuOpRows(
        report, scope, EventKind::Memset, calls,
        [&](uint32_t payload) {
            const MemKind kind = report.memsets[payload].mem_kind;
            return kind == MemKind::Pinned || kind == MemKind::Managed;
        },
        [&](std::vector<StatsTable::Cell>& cells, uint32_t payload) {
            const MemsetInfo& m = report.memsets[payload];
            cells.emplace_back(std::string(memKindLabel(m.mem_kind)));
            cells.emplace_back(StatsTable::Real{static_cast<double>(m.bytes) / 1e6, 3});
        });
    return finish("cuda_memset_sync",
                  {"Duration (ns)", "Start (ns)", "Memory Kind", "Bytes (MB)", "PID", "Device ID", "Context ID",
                   "Green Context ID", "Stream ID", "API Name"},
                  rows, scope.rows);
}

StatsTable cudaApiSync(const Report& report, const RuleOptions& options) {
    return cudaApiSyncResult(report, options).table;
}
StatsTable cudaMemcpySync(const Report& report, const RuleOptions& options) {
    return cudaMemcpySyncResult(report, options).table;
}
StatsTable cudaMemcpyAsync(const Report& report, const RuleOptions& options) {
    return cudaMemcpyAsyncResult(report, options).table;
}
StatsTable cudaMemsetSync(const Report& report, const RuleOptions& options) {
    return cudaMemsetSyncResult(report, options).table;
}

}  // namespace lanescope
