#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <tuple>
#include <type_traits>

#include "model/Report.h"

// The model structs a model file stores as raw bytes, and the names of their members. Writing
// copies them member by member into zeroed memory, so that padding bytes are written as zeros
// (the same report always makes the same file); the layout fingerprint (ModelFormat.h) is
// made of their sizes, alignments and members' places, so a file written by a build whose
// structs differ is rejected.

namespace lanescope::cache {

// Every member of each struct, in declaration order. The structured binding must name every
// member, so adding one to these structs breaks the build here until it is named (then also
// store it in ModelEquality and raise kModelFormatVersion).
// clang-format off
inline auto members(const Process& x) { const auto& [pid, name_id] = x; return std::tie(pid, name_id); }
inline auto members(const Thread& x) {
    const auto& [tid, process, name_id, priority] = x; return std::tie(tid, process, name_id, priority);
}
inline auto members(const Gpu& x) { const auto& [device_id, name_id] = x; return std::tie(device_id, name_id); }
inline auto members(const MachineGpu& x) { const auto& [values] = x; return std::tie(values); }
inline auto members(const SystemProperty& x) {
    const auto& [name_enum, device_state_id, value_id] = x; return std::tie(name_enum, device_state_id, value_id);
}
inline auto members(const CudaDevice& x) { const auto& [gpu, cuda, pid] = x; return std::tie(gpu, cuda, pid); }
inline auto members(const CudaContext& x) {
    const auto& [null_stream, hw, vm, pid, device, context, parent, green] = x;
    return std::tie(null_stream, hw, vm, pid, device, context, parent, green);
}
inline auto members(const CudaStream& x) {
    const auto& [stream, hw, vm, pid, context, priority, flag] = x;
    return std::tie(stream, hw, vm, pid, context, priority, flag);
}
inline auto members(const RecordedName& x) {
    const auto& [pid, tid, name_id, priority] = x; return std::tie(pid, tid, name_id, priority);
}
inline auto members(const LongDuration& x) { const auto& [index, duration_ns] = x; return std::tie(index, duration_ns); }
inline auto members(const KernelInfo& x) {
    const auto& [config, correlation, grid_id] = x; return std::tie(config, correlation, grid_id);
}
inline auto members(const KernelConfig& x) {
    const auto& [grid, block, registers, static_shared, dynamic_shared, local, shared_executed, short_name,
                 blocks_per_sm, warps_per_sm, occupancy, launch_type, mangled_name, local_total, cache_config,
                 shared_limit] = x;
    return std::tie(grid, block, registers, static_shared, dynamic_shared, local, shared_executed, short_name,
                    blocks_per_sm, warps_per_sm, occupancy, launch_type, mangled_name, local_total, cache_config,
                    shared_limit);
}
inline auto members(const MemcpyInfo& x) {
    const auto& [bytes, correlation, copy_kind, src, dst, copy_count] = x;
    return std::tie(bytes, correlation, copy_kind, src, dst, copy_count);
}
inline auto members(const MemsetInfo& x) {
    const auto& [bytes, correlation, value, mem_kind] = x; return std::tie(bytes, correlation, value, mem_kind);
}
inline auto members(const SyncInfo& x) {
    const auto& [correlation, sync_type, deprecated_type, event_sync, event_id] = x;
    return std::tie(correlation, sync_type, deprecated_type, event_sync, event_id);
}
inline auto members(const NvtxInfo& x) {
    const auto& [color, domain, category, has_color, start_end, input_shapes, collective_args, domain_id, registered] = x;
    return std::tie(color, domain, category, has_color, start_end, input_shapes, collective_args, domain_id, registered);
}
inline auto members(const CollectiveArgs& x) {
    const auto& [kernel, name, dtype, group_name, group_ranks, in_nelems, out_nelems, group_size] = x;
    return std::tie(kernel, name, dtype, group_name, group_ranks, in_nelems, out_nelems, group_size);
}
inline auto members(const GraphExecutionInfo& x) {
    const auto& [correlation, graph, graph_exec] = x; return std::tie(correlation, graph, graph_exec);
}
inline auto members(const CudaEventInfo& x) {
    const auto& [correlation, event, event_sync] = x; return std::tie(correlation, event, event_sync);
}
inline auto members(const GpuPageFaultInfo& x) {
    const auto& [address, faults, access_type] = x; return std::tie(address, faults, access_type);
}
inline auto members(const CpuPageFaultInfo& x) {
    const auto& [address, fault_pc, instruction, source_file, source_line, module, pc_unresolved] = x;
    return std::tie(address, fault_pc, instruction, source_file, source_line, module, pc_unresolved);
}
inline auto members(const Migration& x) {
    const auto& [memcpy_row, cause, virtual_address] = x; return std::tie(memcpy_row, cause, virtual_address);
}
inline auto members(const ProcessStream& x) {
    const auto& [global_pid, filename, content] = x; return std::tie(global_pid, filename, content);
}
inline auto members(const CaptureOption& x) { const auto& [name, value] = x; return std::tie(name, value); }
inline auto members(const GenericEventSource& x) {
    const auto& [source, name, time_source] = x; return std::tie(source, name, time_source);
}
inline auto members(const GenericEventType& x) { const auto& [type, name] = x; return std::tie(type, name); }
inline auto members(const GenericEventField& x) {
    const auto& [type, index, name, offset, size, field_type] = x;
    return std::tie(type, index, name, offset, size, field_type);
}
inline auto members(const PeerCopy& x) {
    const auto& [memcpy_row, src_device, src_context, dst_device, dst_context] = x;
    return std::tie(memcpy_row, src_device, src_context, dst_device, dst_context);
}
inline auto members(const KernelGraphNode& x) {
    const auto& [kernel, graph_node] = x; return std::tie(kernel, graph_node);
}
inline auto members(const GraphApiEvent& x) {
    const auto& [start, end, thread, name, node, graph, original, graph_exec] = x;
    return std::tie(start, end, thread, name, node, graph, original, graph_exec);
}
inline auto members(const CallResult& x) {
    const auto& [thread, correlation, start, result] = x; return std::tie(thread, correlation, start, result);
}
inline auto members(const SampleCounts& x) {
    const auto& [thread, state, time, cycles] = x; return std::tie(thread, state, time, cycles);
}
inline auto members(const NvtxDomainCreation& x) {
    const auto& [start, thread, name, domain_id] = x; return std::tie(start, thread, name, domain_id);
}
inline auto members(const NvtxTie& x) {
    const auto& [start, thread, holder] = x; return std::tie(start, thread, holder);
}
inline auto members(const NvtxNaming& x) {
    const auto& [start, thread, name, domain_id, category, type, registered] = x;
    return std::tie(start, thread, name, domain_id, category, type, registered);
}
inline auto members(const OverheadRange& x) {
    const auto& [start, end, process, name, thread, result] = x;
    return std::tie(start, end, process, name, thread, result);
}
inline auto members(const PytorchMemoryEvent& x) {
    const auto& [time_ns, address, bytes, total_allocated, total_reserved, thread, device_id, device_type] = x;
    return std::tie(time_ns, address, bytes, total_allocated, total_reserved, thread, device_id, device_type);
}
inline auto members(const CallBacktrace& x) {
    const auto& [thread, lane_kind, start, stack, first_detail] = x;
    return std::tie(thread, lane_kind, start, stack, first_detail);
}
inline auto members(const FrameDetail& x) {
    const auto& [ip, kernel_mode, thumb_code, unresolved, unwind_method, has_ip] = x;
    return std::tie(ip, kernel_mode, thumb_code, unresolved, unwind_method, has_ip);
}
inline auto members(const CudaMemoryEvent& x) {
    const auto& [time, address, bytes, pc, process, gpu, context, correlation, name_id, mem_kind, freed] = x;
    return std::tie(time, address, bytes, pc, process, gpu, context, correlation, name_id, mem_kind, freed);
}
inline auto members(const NvtxPayloadEntry& x) {
    const auto& [flags, type, detail, offset, name, description] = x;
    return std::tie(flags, type, detail, offset, name, description);
}
inline auto members(const NvtxPayloadSchema& x) {
    const auto& [id, flags, size, align, domain, name, first, count, process, domain_id, type] = x;
    return std::tie(id, flags, size, align, domain, name, first, count, process, domain_id, type);
}
inline auto members(const NvtxPayloadEnum& x) {
    const auto& [id, size, domain, name, first, count, process, domain_id] = x;
    return std::tie(id, size, domain, name, first, count, process, domain_id);
}
inline auto members(const NvtxPayloadEnumValue& x) {
    const auto& [value, name, is_flag] = x; return std::tie(value, name, is_flag);
}
inline auto members(const NvtxPayloadTypeInfo& x) { const auto& [size, align] = x; return std::tie(size, align); }
inline auto members(const FileOrderRun& x) {
    const auto& [lane, first, count, instants] = x; return std::tie(lane, first, count, instants);
}
inline auto members(const NvtxPayloadRow& x) {
    const auto& [lane, event, nvtx, length, schema, offset, mark] = x;
    return std::tie(lane, event, nvtx, length, schema, offset, mark);
}
// clang-format on

template <typename... T>
struct TypeList {};
// Every model struct stored raw; the fingerprint covers exactly these.
using RawStructs =
    TypeList<Process, Thread, Gpu, RecordedName, LongDuration, KernelInfo, KernelConfig, MemcpyInfo, MemsetInfo,
             SyncInfo, NvtxInfo, GraphExecutionInfo, CudaEventInfo, GpuPageFaultInfo, CpuPageFaultInfo, Migration,
             PeerCopy, ProcessStream, CaptureOption, GenericEventSource, GenericEventType, GenericEventField,
             KernelGraphNode, GraphApiEvent, CallResult, SampleCounts, NvtxDomainCreation, NvtxNaming, NvtxTie,
             OverheadRange, CallBacktrace, FrameDetail, PytorchMemoryEvent, CudaMemoryEvent, MachineGpu, SystemProperty,
             CudaDevice, CudaContext, CudaStream, CollectiveArgs, NvtxPayloadEntry, NvtxPayloadSchema, NvtxPayloadEnum,
             NvtxPayloadEnumValue, NvtxPayloadTypeInfo, NvtxPayloadRow, FileOrderRun>;

template <typename T, typename List>
inline constexpr bool kListed = false;
template <typename T, typename... Ts>
inline constexpr bool kListed<T, TypeList<Ts...>> = (std::is_same_v<T, Ts> || ...);

// A column element stored raw: a number or enum, or one of RawStructs.
template <typename T>
inline constexpr bool kStoredRaw = std::is_trivially_copyable_v<T> &&
                                   (std::is_arithmetic_v<T> || std::is_enum_v<T> || kListed<T, RawStructs>);

// The byte offset of a member within its object.
template <typename T, typename M>
size_t offsetIn(const T& object, const M& member) {
    return size_t(reinterpret_cast<const std::byte*>(&member) - reinterpret_cast<const std::byte*>(&object));
}

// Whether T's bytes can hold padding: then they are copied member by member.
template <typename T>
inline constexpr bool kHasPadding = std::is_class_v<T> && !std::has_unique_object_representations_v<T>;

// Copies `count` elements to `out` as bytes, padding bytes zero.
template <typename T>
void copyZeroingPadding(const T* in, size_t count, std::byte* out) {
    static_assert(kStoredRaw<T>);
    if constexpr (!kHasPadding<T>) {
        std::memcpy(out, in, count * sizeof(T));
    } else {
        std::memset(out, 0, count * sizeof(T));
        for (size_t i = 0; i < count; ++i) {
            std::byte* element = out + i * sizeof(T);
            std::apply([&](const auto&... m) { (std::memcpy(element + offsetIn(in[i], m), &m, sizeof m), ...); },
                       members(in[i]));
        }
    }
}

}  // namespace lanescope::cache
