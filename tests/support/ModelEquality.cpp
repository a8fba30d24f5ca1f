#include "tests/support/ModelEquality.h"

#include <bit>
#include <cstdio>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <vector>

namespace lanescope::test {
namespace {

template <typename T>
std::string text(const T& v) {
    if constexpr (std::is_same_v<T, bool>) {
        return v ? "true" : "false";
    } else if constexpr (std::is_enum_v<T>) {
        return std::to_string(+static_cast<std::underlying_type_t<T>>(v));
    } else if constexpr (std::is_floating_point_v<T>) {
        char out[40];
        std::snprintf(out, sizeof out, "%.17g", v);
        return out;
    } else if constexpr (std::is_arithmetic_v<T>) {
        return std::to_string(+v);
    } else {
        return "\"" + std::string(v) + "\"";
    }
}

template <typename T>
bool same(const T& a, const T& b) {
    if constexpr (std::is_same_v<T, double>)
        return std::bit_cast<uint64_t>(a) == std::bit_cast<uint64_t>(b);
    else if constexpr (std::is_same_v<T, float>)
        return std::bit_cast<uint32_t>(a) == std::bit_cast<uint32_t>(b);
    else
        return a == b;
}

// Walks two reports side by side and keeps the first difference.
class Differ {
public:
    std::optional<std::string> first;

    template <typename T>
    void value(const std::string& path, const T& a, const T& b) {
        if (!first && !same(a, b)) first = path + ": " + text(a) + " vs " + text(b);
    }
    bool sizes(const std::string& path, size_t a, size_t b) {
        value(path + ".size()", a, b);
        return !first;
    }
    // A column of numbers.
    template <typename T, typename Allocator>
    void column(const std::string& path, const std::vector<T, Allocator>& a, const std::vector<T, Allocator>& b) {
        if (first || !sizes(path, a.size(), b.size())) return;
        for (size_t i = 0; i < a.size(); ++i)
            if (!same(a[i], b[i])) return value(path + "[" + std::to_string(i) + "]", a[i], b[i]);
    }
    // A table of structs: fields(f, x, y) calls f(name, x.member, y.member) for each member.
    template <typename T, typename Allocator, typename Fields>
    void rows(const std::string& path, const std::vector<T, Allocator>& a, const std::vector<T, Allocator>& b,
              Fields fields) {
        if (first || !sizes(path, a.size(), b.size())) return;
        for (size_t i = 0; i < a.size() && !first; ++i)
            fields(
                [&](const char* name, const auto& x, const auto& y) {
                    if (!first && !same(x, y)) value(path + "[" + std::to_string(i) + "]." + name, x, y);
                },
                a[i], b[i]);
    }
};

void compareMeta(Differ& d, const Metadata& a, const Metadata& b) {
    d.value("meta.format", a.format, b.format);
    d.value("meta.producer", a.producer, b.producer);
    d.value("meta.version", a.version, b.version);
    d.value("meta.start_utc_ns", a.start_utc_ns, b.start_utc_ns);
    d.value("meta.utc_minus_local_ns", a.utc_minus_local_ns, b.utc_minus_local_ns);
    d.value("meta.session_clock_start_ns", a.session_clock_start_ns, b.session_clock_start_ns);
    d.value("meta.session_clock_stop_ns", a.session_clock_stop_ns, b.session_clock_stop_ns);
    d.value("meta.begin_ns", a.begin_ns, b.begin_ns);
    d.value("meta.end_ns", a.end_ns, b.end_ns);
    d.value("meta.rank", a.rank, b.rank);
    d.value("meta.reader", a.reader, b.reader);
    d.value("meta.nsys_version", a.nsys_version, b.nsys_version);
    d.value("meta.source_path", a.source_path, b.source_path);
}

void compareStrings(Differ& d, const StringPool& a, const StringPool& b) {
    if (!d.sizes("strings", a.size(), b.size())) return;
    d.value("strings.tableSize", a.tableSize(), b.tableSize());
    for (uint32_t id = 0; id < a.size() && !d.first; ++id)
        d.value("strings[" + std::to_string(id) + "]", a.str(id), b.str(id));
}

void compareLane(Differ& d, const std::string& at, const Lane& a, const Lane& b) {
    d.value(at + ".kind", a.kind, b.kind);
    d.value(at + ".name_id", a.name_id, b.name_id);
    d.value(at + ".process", a.process, b.process);
    d.value(at + ".thread", a.thread, b.thread);
    d.value(at + ".gpu", a.gpu, b.gpu);
    d.value(at + ".stream_id", a.stream_id, b.stream_id);
    d.value(at + ".context_id", a.context_id, b.context_id);
    d.value(at + ".cpu", a.cpu, b.cpu);
    d.value(at + ".recorded_gpu", a.recorded_gpu, b.recorded_gpu);
    d.value(at + ".depth_count", a.depth_count, b.depth_count);
    d.column(at + ".events.start_ns", a.events.start_ns, b.events.start_ns);
    d.column(at + ".events.duration_ns", a.events.duration_ns, b.events.duration_ns);
    d.rows(at + ".events.long_durations", a.events.long_durations, b.events.long_durations,
           [](auto f, const LongDuration& x, const LongDuration& y) {
               f("index", x.index, y.index);
               f("duration_ns", x.duration_ns, y.duration_ns);
           });
    d.column(at + ".events.name_id", a.events.name_id, b.events.name_id);
    d.column(at + ".events.payload", a.events.payload, b.events.payload);
    d.column(at + ".events.kind", a.events.kind, b.events.kind);
    d.column(at + ".events.depth", a.events.depth, b.events.depth);
    d.column(at + ".depth_order", a.depth_order, b.depth_order);
    d.column(at + ".depth_begin", a.depth_begin, b.depth_begin);
    d.column(at + ".instants.time_ns", a.instants.time_ns, b.instants.time_ns);
    d.column(at + ".instants.name_id", a.instants.name_id, b.instants.name_id);
    d.column(at + ".instants.payload", a.instants.payload, b.instants.payload);
}

void compareCounter(Differ& d, const std::string& at, const Counter& a, const Counter& b) {
    d.value(at + ".name_id", a.name_id, b.name_id);
    d.value(at + ".unit_id", a.unit_id, b.unit_id);
    d.value(at + ".gpu", a.gpu, b.gpu);
    d.value(at + ".process", a.process, b.process);
    d.value(at + ".derived", a.derived, b.derived);
    d.column(at + ".time_ns", a.time_ns, b.time_ns);
    d.column(at + ".value", a.value, b.value);
}

void compareEntities(Differ& d, const Report& a, const Report& b) {
    d.rows("processes", a.processes, b.processes, [](auto f, const Process& x, const Process& y) {
        f("pid", x.pid, y.pid);
        f("name_id", x.name_id, y.name_id);
    });
    d.rows("threads", a.threads, b.threads, [](auto f, const Thread& x, const Thread& y) {
        f("tid", x.tid, y.tid);
        f("process", x.process, y.process);
        f("name_id", x.name_id, y.name_id);
        f("priority", x.priority, y.priority);
    });
    d.rows("gpus", a.gpus, b.gpus, [](auto f, const Gpu& x, const Gpu& y) {
        f("device_id", x.device_id, y.device_id);
        f("name_id", x.name_id, y.name_id);
    });
    d.rows("machine_gpus", a.machine_gpus, b.machine_gpus, [](auto f, const MachineGpu& x, const MachineGpu& y) {
        for (size_t p = 0; p < kGpuPropertyCount; ++p) f(gpuPropertyColumns()[p].name.data(), x.values[p], y.values[p]);
    });
    d.rows("system_properties", a.system_properties, b.system_properties,
           [](auto f, const SystemProperty& x, const SystemProperty& y) {
               f("name_enum", x.name_enum, y.name_enum);
               f("device_state_id", x.device_state_id, y.device_state_id);
               f("value_id", x.value_id, y.value_id);
           });
    d.rows("cuda_devices", a.cuda_devices, b.cuda_devices, [](auto f, const CudaDevice& x, const CudaDevice& y) {
        f("gpu_id", x.gpu_id, y.gpu_id);
        f("cuda_id", x.cuda_id, y.cuda_id);
        f("pid", x.pid, y.pid);
    });
    d.rows("cuda_contexts", a.cuda_contexts, b.cuda_contexts, [](auto f, const CudaContext& x, const CudaContext& y) {
        f("null_stream_id", x.null_stream_id, y.null_stream_id);
        f("hw_id", x.hw_id, y.hw_id);
        f("vm_id", x.vm_id, y.vm_id);
        f("pid", x.pid, y.pid);
        f("device_id", x.device_id, y.device_id);
        f("context_id", x.context_id, y.context_id);
        f("parent_context_id", x.parent_context_id, y.parent_context_id);
        f("is_green_context", x.is_green_context, y.is_green_context);
    });
    d.rows("cuda_streams", a.cuda_streams, b.cuda_streams, [](auto f, const CudaStream& x, const CudaStream& y) {
        f("stream_id", x.stream_id, y.stream_id);
        f("hw_id", x.hw_id, y.hw_id);
        f("vm_id", x.vm_id, y.vm_id);
        f("pid", x.pid, y.pid);
        f("context_id", x.context_id, y.context_id);
        f("priority", x.priority, y.priority);
        f("flag", x.flag, y.flag);
    });
    d.rows("recorded_names", a.recorded_names, b.recorded_names,
           [](auto f, const RecordedName& x, const RecordedName& y) {
               f("pid", x.pid, y.pid);
               f("tid", x.tid, y.tid);
               f("name_id", x.name_id, y.name_id);
               f("priority", x.priority, y.priority);
           });
}

void compareGpuTables(Differ& d, const Report& a, const Report& b) {
    d.rows("kernels", a.kernels, b.kernels, [](auto f, const KernelInfo& x, const KernelInfo& y) {
        f("config", x.config, y.config);
        f("correlation_id", x.correlation_id, y.correlation_id);
        f("grid_id", x.grid_id, y.grid_id);
    });
    d.rows("kernel_configs", a.kernel_configs, b.kernel_configs,
           [](auto f, const KernelConfig& x, const KernelConfig& y) {
               f("grid[0]", x.grid[0], y.grid[0]);
               f("grid[1]", x.grid[1], y.grid[1]);
               f("grid[2]", x.grid[2], y.grid[2]);
               f("block[0]", x.block[0], y.block[0]);
               f("block[1]", x.block[1], y.block[1]);
               f("block[2]", x.block[2], y.block[2]);
               f("registers_per_thread", x.registers_per_thread, y.registers_per_thread);
               f("static_shared_bytes", x.static_shared_bytes, y.static_shared_bytes);
               f("dynamic_shared_bytes", x.dynamic_shared_bytes, y.dynamic_shared_bytes);
               f("local_bytes_per_thread", x.local_bytes_per_thread, y.local_bytes_per_thread);
               f("shared_executed_bytes", x.shared_executed_bytes, y.shared_executed_bytes);
               f("short_name_id", x.short_name_id, y.short_name_id);
               f("blocks_per_sm", x.blocks_per_sm, y.blocks_per_sm);
               f("warps_per_sm", x.warps_per_sm, y.warps_per_sm);
               f("est_achieved_occupancy_pct", x.est_achieved_occupancy_pct, y.est_achieved_occupancy_pct);
               f("mangled_name_id", x.mangled_name_id, y.mangled_name_id);
               f("local_memory_total", x.local_memory_total, y.local_memory_total);
               f("cache_config", x.cache_config, y.cache_config);
               f("shared_memory_limit_config", x.shared_memory_limit_config, y.shared_memory_limit_config);
               f("launch_type", x.launch_type, y.launch_type);
           });
    d.rows("memcpys", a.memcpys, b.memcpys, [](auto f, const MemcpyInfo& x, const MemcpyInfo& y) {
        f("bytes", x.bytes, y.bytes);
        f("correlation_id", x.correlation_id, y.correlation_id);
        f("copy_kind", x.copy_kind, y.copy_kind);
        f("src_kind", x.src_kind, y.src_kind);
        f("dst_kind", x.dst_kind, y.dst_kind);
        f("copy_count", x.copy_count, y.copy_count);
    });
    d.rows("memsets", a.memsets, b.memsets, [](auto f, const MemsetInfo& x, const MemsetInfo& y) {
        f("bytes", x.bytes, y.bytes);
        f("correlation_id", x.correlation_id, y.correlation_id);
        f("value", x.value, y.value);
        f("mem_kind", x.mem_kind, y.mem_kind);
    });
    d.rows("syncs", a.syncs, b.syncs, [](auto f, const SyncInfo& x, const SyncInfo& y) {
        f("correlation_id", x.correlation_id, y.correlation_id);
        f("sync_type", x.sync_type, y.sync_type);
        f("deprecated_type", x.deprecated_type, y.deprecated_type);
        f("event_sync_id", x.event_sync_id, y.event_sync_id);
        f("event_id", x.event_id, y.event_id);
    });
    d.rows("graph_executions", a.graph_executions, b.graph_executions,
           [](auto f, const GraphExecutionInfo& x, const GraphExecutionInfo& y) {
               f("correlation_id", x.correlation_id, y.correlation_id);
               f("graph_id", x.graph_id, y.graph_id);
               f("graph_exec_id", x.graph_exec_id, y.graph_exec_id);
           });
    d.rows("cuda_events", a.cuda_events, b.cuda_events, [](auto f, const CudaEventInfo& x, const CudaEventInfo& y) {
        f("correlation_id", x.correlation_id, y.correlation_id);
        f("event_id", x.event_id, y.event_id);
        f("event_sync_id", x.event_sync_id, y.event_sync_id);
    });
    d.rows("kernel_graph_nodes", a.kernel_graph_nodes, b.kernel_graph_nodes,
           [](auto f, const KernelGraphNode& x, const KernelGraphNode& y) {
               f("kernel", x.kernel, y.kernel);
               f("graph_node_id", x.graph_node_id, y.graph_node_id);
           });
    d.rows("graph_api_events", a.graph_api_events, b.graph_api_events,
           [](auto f, const GraphApiEvent& x, const GraphApiEvent& y) {
               f("start_ns", x.start_ns, y.start_ns);
               f("end_ns", x.end_ns, y.end_ns);
               f("thread", x.thread, y.thread);
               f("name_id", x.name_id, y.name_id);
               f("node", x.node, y.node);
               f("graph_id", x.graph_id, y.graph_id);
               f("original_graph_id", x.original_graph_id, y.original_graph_id);
               f("graph_exec_id", x.graph_exec_id, y.graph_exec_id);
           });
}

void compareUnifiedMemory(Differ& d, const Report& a, const Report& b) {
    d.rows("gpu_page_faults", a.gpu_page_faults, b.gpu_page_faults,
           [](auto f, const GpuPageFaultInfo& x, const GpuPageFaultInfo& y) {
               f("address", x.address, y.address);
               f("faults", x.faults, y.faults);
               f("access_type", x.access_type, y.access_type);
           });
    d.rows("cpu_page_faults", a.cpu_page_faults, b.cpu_page_faults,
           [](auto f, const CpuPageFaultInfo& x, const CpuPageFaultInfo& y) {
               f("address", x.address, y.address);
               f("fault_pc", x.fault_pc, y.fault_pc);
               f("instruction_id", x.instruction_id, y.instruction_id);
               f("source_file_id", x.source_file_id, y.source_file_id);
               f("source_line", x.source_line, y.source_line);
               f("module_id", x.module_id, y.module_id);
               f("pc_unresolved", x.pc_unresolved, y.pc_unresolved);
           });
    d.rows("process_streams", a.process_streams, b.process_streams,
           [](auto f, const ProcessStream& x, const ProcessStream& y) {
               f("global_pid", x.global_pid, y.global_pid);
               f("filename_id", x.filename_id, y.filename_id);
               f("content_id", x.content_id, y.content_id);
           });
    d.rows("capture_options", a.capture_options, b.capture_options,
           [](auto f, const CaptureOption& x, const CaptureOption& y) {
               f("name_id", x.name_id, y.name_id);
               f("value_id", x.value_id, y.value_id);
           });
    d.rows("generic_event_sources", a.generic_event_sources, b.generic_event_sources,
           [](auto f, const GenericEventSource& x, const GenericEventSource& y) {
               f("source_id", x.source_id, y.source_id);
               f("name_id", x.name_id, y.name_id);
               f("time_source", x.time_source, y.time_source);
           });
    d.rows("generic_event_types", a.generic_event_types, b.generic_event_types,
           [](auto f, const GenericEventType& x, const GenericEventType& y) {
               f("type_id", x.type_id, y.type_id);
               f("name_id", x.name_id, y.name_id);
           });
    d.rows("generic_event_fields", a.generic_event_fields, b.generic_event_fields,
           [](auto f, const GenericEventField& x, const GenericEventField& y) {
               f("type_id", x.type_id, y.type_id);
               f("index", x.index, y.index);
               f("name_id", x.name_id, y.name_id);
               f("offset", x.offset, y.offset);
               f("size", x.size, y.size);
               f("type", x.type, y.type);
           });
    d.rows("peer_copies", a.peer_copies, b.peer_copies, [](auto f, const PeerCopy& x, const PeerCopy& y) {
        f("memcpy", x.memcpy, y.memcpy);
        f("src_device", x.src_device, y.src_device);
        f("src_context", x.src_context, y.src_context);
        f("dst_device", x.dst_device, y.dst_device);
        f("dst_context", x.dst_context, y.dst_context);
    });
    d.rows("migrations", a.migrations, b.migrations, [](auto f, const Migration& x, const Migration& y) {
        f("memcpy", x.memcpy, y.memcpy);
        f("cause", x.cause, y.cause);
        f("virtual_address", x.virtual_address, y.virtual_address);
    });
}

void compareCpuTables(Differ& d, const Report& a, const Report& b) {
    d.rows("nvtx", a.nvtx, b.nvtx, [](auto f, const NvtxInfo& x, const NvtxInfo& y) {
        f("color", x.color, y.color);
        f("domain_name_id", x.domain_name_id, y.domain_name_id);
        f("domain_id", x.domain_id, y.domain_id);
        f("category", x.category, y.category);
        f("has_color", x.has_color, y.has_color);
        f("start_end", x.start_end, y.start_end);
        f("registered_name", x.registered_name, y.registered_name);
        f("input_shapes_id", x.input_shapes_id, y.input_shapes_id);
    });
    d.value("cpu_utilization_counter", a.cpu_utilization_counter, b.cpu_utilization_counter);
    d.rows("unusual_samples", a.unusual_samples, b.unusual_samples,
           [](auto f, const SampleCounts& x, const SampleCounts& y) {
               f("thread", x.thread, y.thread);
               f("state", x.state, y.state);
               f("time_ns", x.time_ns, y.time_ns);
               f("cycles", x.cycles, y.cycles);
           });
    d.rows("cuda_api_results", a.cuda_api_results, b.cuda_api_results,
           [](auto f, const CallResult& x, const CallResult& y) {
               f("thread", x.thread, y.thread);
               f("correlation_id", x.correlation_id, y.correlation_id);
               f("start_ns", x.start_ns, y.start_ns);
               f("result", x.result, y.result);
           });
    d.column("nvtx_other_starts_ns", a.nvtx_other_starts_ns, b.nvtx_other_starts_ns);
    d.rows("nvtx_domains", a.nvtx_domains, b.nvtx_domains,
           [](auto f, const NvtxDomainCreation& x, const NvtxDomainCreation& y) {
               f("start_ns", x.start_ns, y.start_ns);
               f("thread", x.thread, y.thread);
               f("name_id", x.name_id, y.name_id);
               f("domain_id", x.domain_id, y.domain_id);
           });
    d.rows("nvtx_namings", a.nvtx_namings, b.nvtx_namings, [](auto f, const NvtxNaming& x, const NvtxNaming& y) {
        f("start_ns", x.start_ns, y.start_ns);
        f("thread", x.thread, y.thread);
        f("name_id", x.name_id, y.name_id);
        f("domain_id", x.domain_id, y.domain_id);
        f("category", x.category, y.category);
        f("event_type", x.event_type, y.event_type);
        f("registered_name", x.registered_name, y.registered_name);
    });
    d.rows("nvtx_ties", a.nvtx_ties, b.nvtx_ties, [](auto f, const NvtxTie& x, const NvtxTie& y) {
        f("start_ns", x.start_ns, y.start_ns);
        f("thread", x.thread, y.thread);
        f("holder", int(x.holder), int(y.holder));
    });
    d.rows("profiler_overhead", a.profiler_overhead, b.profiler_overhead,
           [](auto f, const OverheadRange& x, const OverheadRange& y) {
               f("start_ns", x.start_ns, y.start_ns);
               f("end_ns", x.end_ns, y.end_ns);
               f("process", x.process, y.process);
               f("name_id", x.name_id, y.name_id);
               f("thread", x.thread, y.thread);
               f("return_value", x.return_value, y.return_value);
           });
    d.column("stacks.frame_function", a.stacks.frame_function, b.stacks.frame_function);
    d.column("stacks.frame_module", a.stacks.frame_module, b.stacks.frame_module);
    d.column("stacks.node_frame", a.stacks.node_frame, b.stacks.node_frame);
    d.column("stacks.node_parent", a.stacks.node_parent, b.stacks.node_parent);
    d.rows("backtraces", a.backtraces, b.backtraces, [](auto f, const CallBacktrace& x, const CallBacktrace& y) {
        f("thread", x.thread, y.thread);
        f("lane_kind", x.lane_kind, y.lane_kind);
        f("start_ns", x.start_ns, y.start_ns);
        f("stack", x.stack, y.stack);
        f("first_detail", x.first_detail, y.first_detail);
    });
    for (const auto& [name, x, y] :
         {std::tuple{"backtrace_frame_details", &a.backtrace_frame_details, &b.backtrace_frame_details},
          std::tuple{"sample_frame_details", &a.sample_frame_details, &b.sample_frame_details}})
        d.rows(name, *x, *y, [](auto f, const FrameDetail& p, const FrameDetail& q) {
            f("original_ip", p.original_ip, q.original_ip);
            f("kernel_mode", p.kernel_mode, q.kernel_mode);
            f("thumb_code", p.thumb_code, q.thumb_code);
            f("unresolved", p.unresolved, q.unresolved);
            f("unwind_method", p.unwind_method, q.unwind_method);
            f("has_original_ip", p.has_original_ip, q.has_original_ip);
        });
    const auto& [osrt, cuda_api, cpu_samples, sched] = a.file_order;
    for (const auto& [name, x, y] : {std::tuple{"file_order.osrt", &osrt, &b.file_order.osrt},
                                     std::tuple{"file_order.cuda_api", &cuda_api, &b.file_order.cuda_api},
                                     std::tuple{"file_order.cpu_samples", &cpu_samples, &b.file_order.cpu_samples},
                                     std::tuple{"file_order.sched", &sched, &b.file_order.sched}})
        d.rows(name, *x, *y, [](auto f, const FileOrderRun& p, const FileOrderRun& q) {
            f("lane", p.lane, q.lane);
            f("first", p.first, q.first);
            f("count", p.count, q.count);
            f("instants", p.instants, q.instants);
        });
    d.rows("cuda_memory_events", a.cuda_memory_events, b.cuda_memory_events,
           [](auto f, const CudaMemoryEvent& x, const CudaMemoryEvent& y) {
               f("time_ns", x.time_ns, y.time_ns);
               f("address", x.address, y.address);
               f("bytes", x.bytes, y.bytes);
               f("pc", x.pc, y.pc);
               f("process", x.process, y.process);
               f("gpu", x.gpu, y.gpu);
               f("context_id", x.context_id, y.context_id);
               f("correlation_id", x.correlation_id, y.correlation_id);
               f("name_id", x.name_id, y.name_id);
               f("mem_kind", x.mem_kind, y.mem_kind);
               f("freed", x.freed, y.freed);
           });
    d.rows("pytorch_memory", a.pytorch_memory, b.pytorch_memory,
           [](auto f, const PytorchMemoryEvent& x, const PytorchMemoryEvent& y) {
               f("time_ns", x.time_ns, y.time_ns);
               f("address", x.address, y.address);
               f("bytes", x.bytes, y.bytes);
               f("total_allocated", x.total_allocated, y.total_allocated);
               f("total_reserved", x.total_reserved, y.total_reserved);
               f("thread", x.thread, y.thread);
               f("device_id", x.device_id, y.device_id);
               f("device_type", x.device_type, y.device_type);
           });
}

void compareNvtxPayloads(Differ& d, const NvtxPayloads& a, const NvtxPayloads& b) {
    d.rows("nvtx_payloads.schemas", a.schemas, b.schemas,
           [](auto f, const NvtxPayloadSchema& x, const NvtxPayloadSchema& y) {
               f("schema_id", x.schema_id, y.schema_id);
               f("flags", x.flags, y.flags);
               f("payload_size", x.payload_size, y.payload_size);
               f("align_to", x.align_to, y.align_to);
               f("domain_name_id", x.domain_name_id, y.domain_name_id);
               f("domain_id", x.domain_id, y.domain_id);
               f("name_id", x.name_id, y.name_id);
               f("first_entry", x.first_entry, y.first_entry);
               f("entry_count", x.entry_count, y.entry_count);
               f("process", x.process, y.process);
               f("type", x.type, y.type);
           });
    d.rows("nvtx_payloads.entries", a.entries, b.entries,
           [](auto f, const NvtxPayloadEntry& x, const NvtxPayloadEntry& y) {
               f("flags", x.flags, y.flags);
               f("type", x.type, y.type);
               f("array_or_union_detail", x.array_or_union_detail, y.array_or_union_detail);
               f("offset", x.offset, y.offset);
               f("name_id", x.name_id, y.name_id);
               f("description_id", x.description_id, y.description_id);
           });
    d.rows("nvtx_payloads.enums", a.enums, b.enums, [](auto f, const NvtxPayloadEnum& x, const NvtxPayloadEnum& y) {
        f("schema_id", x.schema_id, y.schema_id);
        f("size", x.size, y.size);
        f("domain_name_id", x.domain_name_id, y.domain_name_id);
        f("domain_id", x.domain_id, y.domain_id);
        f("name_id", x.name_id, y.name_id);
        f("first_value", x.first_value, y.first_value);
        f("value_count", x.value_count, y.value_count);
        f("process", x.process, y.process);
    });
    d.rows("nvtx_payloads.enum_values", a.enum_values, b.enum_values,
           [](auto f, const NvtxPayloadEnumValue& x, const NvtxPayloadEnumValue& y) {
               f("value", x.value, y.value);
               f("name_id", x.name_id, y.name_id);
               f("is_flag", x.is_flag, y.is_flag);
           });
    d.rows("nvtx_payloads.type_info", a.type_info, b.type_info,
           [](auto f, const NvtxPayloadTypeInfo& x, const NvtxPayloadTypeInfo& y) {
               f("size", x.size, y.size);
               f("align", x.align, y.align);
           });
    d.column("nvtx_payloads.registered_strings", a.registered_strings, b.registered_strings);
    d.column("nvtx_payloads.bytes", a.bytes, b.bytes);
    d.rows("nvtx_payloads.rows", a.rows, b.rows, [](auto f, const NvtxPayloadRow& x, const NvtxPayloadRow& y) {
        f("lane", x.lane, y.lane);
        f("event", x.event, y.event);
        f("nvtx", x.nvtx, y.nvtx);
        f("length", x.length, y.length);
        f("schema_id", x.schema_id, y.schema_id);
        f("offset", x.offset, y.offset);
        f("mark", x.mark, y.mark);
    });
}

void compareMessages(Differ& d, const Report& a, const Report& b) {
    d.rows("nsys_messages", a.nsys_messages, b.nsys_messages, [](auto f, const NsysMessage& x, const NsysMessage& y) {
        f("time_ns", x.time_ns, y.time_ns);
        f("time_source", x.time_source, y.time_source);
        f("source", x.source, y.source);
        f("severity", x.severity, y.severity);
        f("process", x.process, y.process);
        f("text", x.text, y.text);
        f("global_pid", x.global_pid, y.global_pid);
    });
    if (!d.sizes("diagnostics", a.diagnostics.size(), b.diagnostics.size())) return;
    auto x = a.diagnostics.begin();
    for (auto y = b.diagnostics.begin(); y != b.diagnostics.end() && !d.first; ++x, ++y) {
        d.value("diagnostics name", x->first, y->first);
        d.value("diagnostics[" + x->first + "]", x->second, y->second);
    }
}

}  // namespace

std::optional<std::string> firstDifference(const Report& a, const Report& b) {
    Differ d;
    compareMeta(d, a.meta, b.meta);
    compareStrings(d, a.strings, b.strings);
    compareEntities(d, a, b);
    if (d.sizes("lanes", a.lanes.size(), b.lanes.size()))
        for (size_t i = 0; i < a.lanes.size() && !d.first; ++i)
            compareLane(d, "lanes[" + std::to_string(i) + "]", a.lanes[i], b.lanes[i]);
    if (d.sizes("counters", a.counters.size(), b.counters.size()))
        for (size_t i = 0; i < a.counters.size() && !d.first; ++i)
            compareCounter(d, "counters[" + std::to_string(i) + "]", a.counters[i], b.counters[i]);
    compareGpuTables(d, a, b);
    compareUnifiedMemory(d, a, b);
    compareCpuTables(d, a, b);
    compareNvtxPayloads(d, a.nvtx_payloads, b.nvtx_payloads);
    compareMessages(d, a, b);
    return d.first;
}

}  // namespace lanescope::test
