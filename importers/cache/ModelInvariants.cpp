#include "importers/cache/ModelInvariants.h"

#include <algorithm>
#include <array>
#include <string_view>
#include <tuple>
#include <type_traits>

#include "importers/cache/ModelFormat.h"
#include "importers/cache/OnThreads.h"
#include "importers/cache/RawLayout.h"

namespace lanescope::cache {
namespace {

// The last kinds declared in model/Lane.h: a new kind must be added here too.
constexpr LaneKind kLastLaneKind = LaneKind::UmCpuPageFaults;
constexpr EventKind kLastEventKind = EventKind::GpuPageFault;
constexpr uint64_t kAnyPayload = UINT64_MAX;  // a payload that names no row
constexpr size_t kNone = SIZE_MAX;            // no index: not found, or a place that is no row

// The index of the first value of `column` at or above `limit`, or kNone: the largest value
// first, in a pass the compiler vectorizes, then the search only when there is one.
template <typename T, typename Allocator>
size_t firstAtLeast(const std::vector<T, Allocator>& column, T limit) {
    T largest{};
    for (const T value : column) largest = std::max(largest, value);
    if (column.empty() || largest < limit) return kNone;
    return size_t(std::find_if(column.begin(), column.end(), [&](T value) { return value >= limit; }) - column.begin());
}

std::string at(std::string_view table, size_t i, std::string_view field = {}) {
    return std::string(table) + "[" + std::to_string(i) + "]" + (field.empty() ? "" : ".") + std::string(field);
}

class Checker {
public:
    // `strings`: how many strings the report's string ids may name.
    Checker(const Report& r, size_t strings) : r_(r), strings_(strings) {
        payloadRows_.fill(kAnyPayload);
        payloadRows_[size_t(EventKind::NvtxRange)] = r.nvtx.size();
        payloadRows_[size_t(EventKind::Kernel)] = r.kernels.size();
        payloadRows_[size_t(EventKind::Memcpy)] = r.memcpys.size();
        payloadRows_[size_t(EventKind::Memset)] = r.memsets.size();
        payloadRows_[size_t(EventKind::Sync)] = r.syncs.size();
        payloadRows_[size_t(EventKind::CoreRun)] = r.threads.size();
        payloadRows_[size_t(EventKind::GraphExecution)] = r.graph_executions.size();
        payloadRows_[size_t(EventKind::GpuPageFault)] = r.gpu_page_faults.size();
    }
    // The processes, threads and GPUs; false with error() set at the first broken one.
    bool tables();
    // A lane's own fields (kind, name, owners), then its columns.
    bool laneFields(size_t i);
    bool laneColumns(size_t i) { return events(i) && depths(i) && instants(i); }
    // Counters, side tables, call stacks and the flags of every table.
    bool rest();
    const std::string& error() const { return error_; }

private:
    bool fail(const std::string& where, std::string_view what) {
        error_ = where + ": " + std::string(what);
        return false;
    }
    // `value` is a row of `table` (of `rows` rows), or -1 for none when `none` allows it. The
    // place named in a failure is where[i].field (where alone when i is kNone).
    bool row(int64_t value, size_t rows, std::string_view table, std::string_view where, size_t i,
             std::string_view field, bool none = true) {
        if ((value >= 0 && uint64_t(value) < rows) || (none && value == -1)) return true;
        return fail(
            i == kNone ? std::string(where) : at(where, i, field),
            std::to_string(value) + " is not a row of " + std::string(table) + " (" + std::to_string(rows) + " rows)");
    }
    bool string(uint32_t id, std::string_view where, size_t i, std::string_view field = {}) {
        return id < strings_ || row(id, strings_, "strings", where, i, field, false);
    }
    bool events(size_t i);
    bool depths(size_t i);
    bool instants(size_t i);
    bool counters();
    bool sideTables();
    template <typename T, typename Allocator>
    bool flags(Section section, const std::vector<T, Allocator>& rows);
    bool stacks();
    bool nvtxPayloads();
    bool fileOrder();

    const Report& r_;
    const size_t strings_;
    // The rows an event's payload may name, by event kind (Lane.h, EventKind); kAnyPayload: the
    // payload names none.
    std::array<uint64_t, size_t(kLastEventKind) + 1> payloadRows_;
    std::string error_;
};

bool Checker::laneFields(size_t i) {
    const Lane& l = r_.lanes[i];
    if (l.kind > kLastLaneKind) return fail(at("lanes", i, "kind"), "unknown");
    return string(l.name_id, "lanes", i, "name_id") &&
           row(l.process, r_.processes.size(), "processes", "lanes", i, "process") &&
           row(l.thread, r_.threads.size(), "threads", "lanes", i, "thread") &&
           row(l.gpu, r_.gpus.size(), "gpus", "lanes", i, "gpu") &&
           row(l.recorded_gpu, r_.gpus.size(), "gpus", "lanes", i, "recorded_gpu");
}

bool Checker::events(size_t i) {
    const IntervalColumns& ev = r_.lanes[i].events;
    const size_t n = ev.size();
    if (n > UINT32_MAX) return fail(at("lanes", i, "events"), "more events than an index holds");
    if (ev.duration_ns.size() != n || ev.name_id.size() != n || ev.payload.size() != n || ev.kind.size() != n ||
        ev.depth.size() != n)
        return fail(at("lanes", i, "events"), "columns of different lengths");
    if (const size_t e = firstAtLeast(ev.kind, EventKind(size_t(kLastEventKind) + 1)); e != kNone)
        return fail(at(at("lanes", i, "events.kind"), e), "unknown");
    if (const size_t e = firstAtLeast(ev.name_id, uint32_t(strings_)); e != kNone)
        return string(ev.name_id[e], at("lanes", i, "events.name_id"), e);
    for (size_t e = 0; e < n; ++e) {
        const uint32_t payload = ev.payload[e];
        if (payload != kNoPayload && payload >= payloadRows_[size_t(ev.kind[e])])
            return fail(at(at("lanes", i, "events.payload"), e),
                        "row " + std::to_string(payload) + " of " + std::to_string(payloadRows_[size_t(ev.kind[e])]));
    }
    for (size_t k = 0; k < ev.long_durations.size(); ++k) {
        const uint32_t index = ev.long_durations[k].index;
        if (index >= n || (k > 0 && index <= ev.long_durations[k - 1].index))
            return fail(at(at("lanes", i, "events.long_durations"), k), "index out of order or range");
    }
    return true;
}

bool Checker::depths(size_t i) {
    const Lane& l = r_.lanes[i];
    const size_t n = l.events.size();
    if (!l.isFrozen()) return fail(at("lanes", i), "not frozen");
    if (l.depth_begin.front() != 0 || l.depth_begin.back() != n)
        return fail(at("lanes", i, "depth_begin"), "does not span the events");
    for (size_t d = 1; d < l.depth_begin.size(); ++d)
        if (l.depth_begin[d] < l.depth_begin[d - 1]) return fail(at(at("lanes", i, "depth_begin"), d), "decreases");
    if (!l.depth_order.empty() && l.depth_order.size() != n)
        return fail(at("lanes", i, "depth_order"), "neither empty nor one per event");
    if (const size_t p = firstAtLeast(l.depth_order, uint32_t(n)); p != kNone)
        return fail(at(at("lanes", i, "depth_order"), p), "not an event");
    if (const size_t e = firstAtLeast(l.events.depth, l.depth_count); e != kNone)
        return fail(at(at("lanes", i, "events.depth"), e), "not below depth_count");
    return true;
}

bool Checker::instants(size_t i) {
    const Lane& l = r_.lanes[i];
    const InstantColumns& in = l.instants;
    if (in.name_id.size() != in.size() || in.payload.size() != in.size())
        return fail(at("lanes", i, "instants"), "columns of different lengths");
    if (const size_t e = firstAtLeast(in.name_id, uint32_t(strings_)); e != kNone)
        return string(in.name_id[e], at("lanes", i, "instants.name_id"), e);
    uint64_t rows = kAnyPayload;  // that the payloads may name, by lane kind (Lane.h, InstantColumns)
    if (l.kind == LaneKind::Nvtx) rows = r_.nvtx.size();
    if (l.kind == LaneKind::CpuSamples) rows = r_.stacks.nodeCount();
    if (l.kind == LaneKind::GpuStream) rows = r_.cuda_events.size();
    if (l.kind == LaneKind::UmCpuPageFaults) rows = r_.cpu_page_faults.size();
    for (size_t e = 0; e < in.size(); ++e)
        if (in.payload[e] != kNoPayload && in.payload[e] >= rows)
            return fail(at(at("lanes", i, "instants.payload"), e),
                        "row " + std::to_string(in.payload[e]) + " of " + std::to_string(rows));
    return true;
}

bool Checker::counters() {
    for (size_t i = 0; i < r_.counters.size(); ++i) {
        const Counter& c = r_.counters[i];
        if (c.time_ns.size() != c.value.size()) return fail(at("counters", i), "columns of different lengths");
        if (!string(c.name_id, "counters", i, "name_id") || !string(c.unit_id, "counters", i, "unit_id") ||
            !row(c.gpu, r_.gpus.size(), "gpus", "counters", i, "gpu") ||
            !row(c.process, r_.processes.size(), "processes", "counters", i, "process"))
            return false;
    }
    return row(r_.cpu_utilization_counter, r_.counters.size(), "counters", "cpu_utilization_counter", kNone, {});
}

bool Checker::sideTables() {
    const Report& r = r_;
    for (size_t i = 0; i < r.recorded_names.size(); ++i)
        if (!string(r.recorded_names[i].name_id, "recorded_names", i, "name_id")) return false;
    for (size_t i = 0; i < r.kernels.size(); ++i)
        if (!row(r.kernels[i].config, r.kernel_configs.size(), "kernel_configs", "kernels", i, "config", false))
            return false;
    for (size_t i = 0; i < r.kernel_configs.size(); ++i)
        if (!string(r.kernel_configs[i].short_name_id, "kernel_configs", i, "short_name_id") ||
            (r.kernel_configs[i].mangled_name_id != KernelConfig::kNoMangledName &&
             !string(r.kernel_configs[i].mangled_name_id, "kernel_configs", i, "mangled_name_id")))
            return false;
    for (size_t i = 0; i < r.nvtx.size(); ++i)
        if (!string(r.nvtx[i].domain_name_id, "nvtx", i, "domain_name_id") ||
            !string(r.nvtx[i].input_shapes_id, "nvtx", i, "input_shapes_id") ||
            (r.nvtx[i].collective_args != 0 && !row(r.nvtx[i].collective_args - 1, r.collective_args.size(),
                                                    "collective_args", "nvtx", i, "collective_args", false)))
            return false;
    for (size_t i = 0; i < r.collective_args.size(); ++i) {
        const CollectiveArgs& a = r.collective_args[i];
        if ((a.kernel_row != CollectiveArgs::kNotOnKernel &&
             !row(a.kernel_row, r.kernels.size(), "kernels", "collective_args", i, "kernel_row", false)) ||
            !string(a.name_id, "collective_args", i, "name_id") ||
            !string(a.dtype_id, "collective_args", i, "dtype_id") ||
            !string(a.group_name_id, "collective_args", i, "group_name_id") ||
            !string(a.group_ranks_id, "collective_args", i, "group_ranks_id"))
            return false;
    }
    for (size_t i = 0; i < r.cpu_page_faults.size(); ++i)
        if (!string(r.cpu_page_faults[i].instruction_id, "cpu_page_faults", i, "instruction_id") ||
            !string(r.cpu_page_faults[i].source_file_id, "cpu_page_faults", i, "source_file_id") ||
            !string(r.cpu_page_faults[i].module_id, "cpu_page_faults", i, "module_id"))
            return false;
    for (size_t i = 0; i < r.migrations.size(); ++i)
        if (!row(r.migrations[i].memcpy, r.memcpys.size(), "memcpys", "migrations", i, "memcpy", false)) return false;
    for (size_t i = 0; i < r.process_streams.size(); ++i)
        if (!string(r.process_streams[i].filename_id, "process_streams", i, "filename_id") ||
            !string(r.process_streams[i].content_id, "process_streams", i, "content_id"))
            return false;
    for (size_t i = 0; i < r.capture_options.size(); ++i)
        if (!string(r.capture_options[i].name_id, "capture_options", i, "name_id") ||
            !string(r.capture_options[i].value_id, "capture_options", i, "value_id"))
            return false;
    for (size_t i = 0; i < r.generic_event_sources.size(); ++i)
        if (!string(r.generic_event_sources[i].name_id, "generic_event_sources", i, "name_id")) return false;
    for (size_t i = 0; i < r.generic_event_types.size(); ++i)
        if (!string(r.generic_event_types[i].name_id, "generic_event_types", i, "name_id")) return false;
    for (size_t i = 0; i < r.generic_event_fields.size(); ++i)
        if (!string(r.generic_event_fields[i].name_id, "generic_event_fields", i, "name_id")) return false;
    for (size_t i = 0; i < r.peer_copies.size(); ++i)
        if (!row(r.peer_copies[i].memcpy, r.memcpys.size(), "memcpys", "peer_copies", i, "memcpy", false)) return false;
    for (size_t i = 0; i < r.kernel_graph_nodes.size(); ++i)
        if (!row(r.kernel_graph_nodes[i].kernel, r.kernels.size(), "kernels", "kernel_graph_nodes", i, "kernel", false))
            return false;
    for (size_t i = 0; i < r.graph_api_events.size(); ++i)
        if (!row(r.graph_api_events[i].thread, r.threads.size(), "threads", "graph_api_events", i, "thread") ||
            !string(r.graph_api_events[i].name_id, "graph_api_events", i, "name_id"))
            return false;
    for (size_t i = 0; i < r.cuda_api_results.size(); ++i)
        if (!row(r.cuda_api_results[i].thread, r.threads.size(), "threads", "cuda_api_results", i, "thread"))
            return false;
    for (size_t i = 0; i < r.unusual_samples.size(); ++i)
        if (!row(r.unusual_samples[i].thread, r.threads.size(), "threads", "unusual_samples", i, "thread"))
            return false;
    for (size_t i = 0; i < r.nvtx_domains.size(); ++i)
        if (!row(r.nvtx_domains[i].thread, r.threads.size(), "threads", "nvtx_domains", i, "thread") ||
            !string(r.nvtx_domains[i].name_id, "nvtx_domains", i, "name_id"))
            return false;
    for (size_t i = 0; i < r.nvtx_namings.size(); ++i)
        if (!row(r.nvtx_namings[i].thread, r.threads.size(), "threads", "nvtx_namings", i, "thread") ||
            !string(r.nvtx_namings[i].name_id, "nvtx_namings", i, "name_id"))
            return false;
    for (size_t i = 0; i < r.nvtx_ties.size(); ++i)
        if (!row(r.nvtx_ties[i].thread, r.threads.size(), "threads", "nvtx_ties", i, "thread")) return false;
    for (size_t i = 0; i < r.profiler_overhead.size(); ++i) {
        const OverheadRange& o = r.profiler_overhead[i];
        if (!row(o.process, r.processes.size(), "processes", "profiler_overhead", i, "process") ||
            !row(o.thread, r.threads.size(), "threads", "profiler_overhead", i, "thread") ||
            !string(o.name_id, "profiler_overhead", i, "name_id"))
            return false;
    }
    for (size_t i = 0; i < r.nsys_messages.size(); ++i)
        if (!row(r.nsys_messages[i].process, r.processes.size(), "processes", "nsys_messages", i, "process"))
            return false;
    for (size_t i = 0; i < r.pytorch_memory.size(); ++i)
        if (!row(r.pytorch_memory[i].thread, r.threads.size(), "threads", "pytorch_memory", i, "thread")) return false;
    for (size_t i = 0; i < r.cuda_memory_events.size(); ++i) {
        const CudaMemoryEvent& m = r.cuda_memory_events[i];
        if (!row(m.process, r.processes.size(), "processes", "cuda_memory_events", i, "process") ||
            !row(m.gpu, r.gpus.size(), "gpus", "cuda_memory_events", i, "gpu") ||
            (m.name_id != kNoVariableName && !string(m.name_id, "cuda_memory_events", i, "name_id")))
            return false;
    }
    for (size_t i = 0; i < r.system_properties.size(); ++i)
        if (!string(r.system_properties[i].device_state_id, "system_properties", i, "device_state_id") ||
            !string(r.system_properties[i].value_id, "system_properties", i, "value_id"))
            return false;
    for (size_t i = 0; i < r.machine_gpus.size(); ++i)
        for (size_t p = 0; p < kGpuPropertyCount; ++p) {
            const int64_t value = r.machine_gpus[i].values[p];
            const GpuPropertyColumn& column = gpuPropertyColumns()[p];
            if (column.text && value != kNoGpuProperty &&
                !row(value, strings_, "strings", "machine_gpus", i, column.name, false))
                return false;
        }
    return true;
}

// Every bool member of every row holds 0 or 1, looked at as a byte: reading any other byte as a
// bool is undefined.
template <typename T, typename Allocator>
bool Checker::flags(Section section, const std::vector<T, Allocator>& rows) {
    if constexpr (std::is_class_v<T>) {
        const auto flagByte = [](const auto& m) {
            if constexpr (std::is_same_v<std::remove_cvref_t<decltype(m)>, bool>)
                return *reinterpret_cast<const unsigned char*>(&m) <= 1;
            return true;
        };
        for (size_t i = 0; i < rows.size(); ++i)
            if (!std::apply([&](const auto&... m) { return (flagByte(m) && ...); }, members(rows[i])))
                return fail(at(sectionName(section), i), "a flag neither true nor false");
    }
    return true;
}

bool Checker::stacks() {
    const CallStacks& s = r_.stacks;
    if (s.frame_module.size() != s.frameCount() || s.node_parent.size() != s.nodeCount())
        return fail("stacks", "columns of different lengths");
    for (size_t f = 0; f < s.frameCount(); ++f)
        if (!string(s.frame_function[f], "stacks.frame_function", f) ||
            !string(s.frame_module[f], "stacks.frame_module", f))
            return false;
    for (size_t n = 0; n < s.nodeCount(); ++n) {
        if (!row(s.node_frame[n], s.frameCount(), "frames", "stacks.node_frame", n, {}, false)) return false;
        if (s.node_parent[n] != kNoStack && s.node_parent[n] >= n)  // a parent is made before its children
            return fail(at("stacks.node_parent", n), "not an earlier node");
    }
    for (size_t i = 0; i < r_.backtraces.size(); ++i) {
        const CallBacktrace& b = r_.backtraces[i];
        if (!row(b.thread, r_.threads.size(), "threads", "backtraces", i, "thread")) return false;
        if (b.stack != kNoStack && b.stack >= s.nodeCount()) return fail(at("backtraces", i, "stack"), "not a node");
        if (b.first_detail != kNoFrameDetails &&
            !row(b.first_detail, r_.backtrace_frame_details.size() + 1, "backtrace_frame_details", "backtraces", i,
                 "first_detail", false))
            return false;
    }
    return true;
}

// The decoder checks every offset, length and row it follows (model/NvtxPayloadDecoder.h); these
// are what the lookups assume: names, rows placed on events that exist, sorted.
bool Checker::nvtxPayloads() {
    const NvtxPayloads& p = r_.nvtx_payloads;
    for (size_t i = 0; i < p.schemas.size(); ++i)
        if (!string(p.schemas[i].domain_name_id, "nvtx_payloads.schemas", i, "domain_name_id") ||
            !string(p.schemas[i].name_id, "nvtx_payloads.schemas", i, "name_id"))
            return false;
    for (size_t i = 0; i < p.entries.size(); ++i)
        if (!string(p.entries[i].name_id, "nvtx_payloads.entries", i, "name_id") ||
            !string(p.entries[i].description_id, "nvtx_payloads.entries", i, "description_id"))
            return false;
    for (size_t i = 0; i < p.enums.size(); ++i)
        if (!string(p.enums[i].domain_name_id, "nvtx_payloads.enums", i, "domain_name_id") ||
            !string(p.enums[i].name_id, "nvtx_payloads.enums", i, "name_id"))
            return false;
    for (size_t i = 0; i < p.enum_values.size(); ++i)
        if (!string(p.enum_values[i].name_id, "nvtx_payloads.enum_values", i, "name_id")) return false;
    for (size_t i = 0; i < p.rows.size(); ++i) {
        const NvtxPayloadRow& row = p.rows[i];
        if (!this->row(row.lane, r_.lanes.size(), "lanes", "nvtx_payloads.rows", i, "lane", false)) return false;
        const Lane& lane = r_.lanes[row.lane];
        if (!this->row(row.event, row.mark ? lane.instants.size() : lane.events.size(), "the lane's events",
                       "nvtx_payloads.rows", i, "event", false) ||
            !this->row(row.nvtx, r_.nvtx.size(), "nvtx", "nvtx_payloads.rows", i, "nvtx", false))
            return false;
        if (i > 0 && std::tie(row.lane, row.mark, row.event) <
                         std::tie(p.rows[i - 1].lane, p.rows[i - 1].mark, p.rows[i - 1].event))
            return fail(at("nvtx_payloads.rows", i), "out of order");
    }
    return true;
}

// What the SQL tables that list rows in file order assume: runs of events that exist.
bool Checker::fileOrder() {
    const auto& [osrt, cuda_api, cpu_samples, sched] = r_.file_order;
    for (const auto& [name, runs] :
         {std::pair{"file_order.osrt", &osrt}, std::pair{"file_order.cuda_api", &cuda_api},
          std::pair{"file_order.cpu_samples", &cpu_samples}, std::pair{"file_order.sched", &sched}})
        for (size_t i = 0; i < runs->size(); ++i) {
            const FileOrderRun& run = (*runs)[i];
            if (!row(run.lane, r_.lanes.size(), "lanes", name, i, "lane", false)) return false;
            const Lane& lane = r_.lanes[run.lane];
            const uint64_t rows = run.instants ? lane.instants.size() : lane.events.size() * (runs == &sched ? 2 : 1);
            if (uint64_t{run.first} + run.count > rows) return fail(at(name, i), "past the lane's events");
        }
    return true;
}

bool Checker::tables() {
    for (size_t i = 0; i < r_.processes.size(); ++i)
        if (!string(r_.processes[i].name_id, "processes", i, "name_id")) return false;
    for (size_t i = 0; i < r_.threads.size(); ++i)
        if (!row(r_.threads[i].process, r_.processes.size(), "processes", "threads", i, "process") ||
            !string(r_.threads[i].name_id, "threads", i, "name_id"))
            return false;
    for (size_t i = 0; i < r_.gpus.size(); ++i)
        if (!string(r_.gpus[i].name_id, "gpus", i, "name_id")) return false;
    return true;
}

bool Checker::rest() {
    // The flags first: the checks below read some (FileOrderRun::instants).
    bool ok = true;
    forEachTable(r_, [&](Section section, const auto& rows) { ok = ok && flags(section, rows); });
    return ok && counters() && sideTables() && stacks() && nvtxPayloads() && fileOrder();
}

}  // namespace

std::string brokenRowInvariant(const Report& report, size_t strings) {
    Checker check(report, strings);
    if (!check.tables()) return check.error();
    for (size_t i = 0; i < report.lanes.size(); ++i)
        if (!check.laneFields(i)) return check.error();
    return {};
}

std::string brokenInvariant(const Report& report, unsigned threads) {
    const Report& r = report;
    if (r.strings.size() == 0 || !r.str(0).empty()) return "strings: id 0 is not the empty string";
    if (Checker check(r, r.strings.size()); !check.tables()) return check.error();
    // Items: each lane, and the rest (item lanes.size()), the larger first. Every item is checked
    // whole, so the first broken lane found is the first in lane order, as one thread finds it.
    const size_t lanes = r.lanes.size();
    std::vector<uint64_t> weight(lanes + 1);
    for (size_t i = 0; i < lanes; ++i)
        weight[i] = r.lanes[i].events.size() + r.lanes[i].instants.size() + r.lanes[i].depth_order.size();
    weight[lanes] = r.counters.size() + r.recorded_names.size() + r.kernels.size() + r.kernel_configs.size() +
                    r.memcpys.size() + r.memsets.size() + r.syncs.size() + r.nvtx.size() + r.graph_executions.size() +
                    r.cuda_events.size() + r.gpu_page_faults.size() + r.cpu_page_faults.size() + r.migrations.size() +
                    r.peer_copies.size() + r.process_streams.size() + r.capture_options.size() +
                    r.generic_event_sources.size() + r.generic_event_types.size() + r.generic_event_fields.size() +
                    r.kernel_graph_nodes.size() + r.collective_args.size() + r.graph_api_events.size() +
                    r.cuda_api_results.size() + r.unusual_samples.size() + r.profiler_overhead.size() +
                    r.stacks.nodeCount() + r.backtraces.size() + r.backtrace_frame_details.size() +
                    r.sample_frame_details.size() + r.pytorch_memory.size() + r.cuda_memory_events.size() +
                    r.machine_gpus.size() + r.system_properties.size() + r.nvtx_payloads.rows.size();
    for (const Counter& c : r.counters) weight[lanes] += c.time_ns.size();
    std::vector<size_t> order(lanes + 1);
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return weight[a] > weight[b]; });
    std::vector<std::string> broken(lanes + 1);
    onThreads(threads, order.size(), [&](size_t, size_t k) {
        const size_t item = order[k];
        Checker check(r, r.strings.size());
        if (item < lanes ? !(check.laneFields(item) && check.laneColumns(item)) : !check.rest())
            broken[item] = check.error();
    });
    for (const std::string& reason : broken)
        if (!reason.empty()) return reason;
    return {};
}

}  // namespace lanescope::cache
