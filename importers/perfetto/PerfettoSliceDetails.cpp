#include "importers/perfetto/PerfettoSliceDetails.h"

#include <limits>

#include "model/DiagnosticKinds.h"

namespace lanescope {
namespace {

using perfetto_format::Key;

// Appends the bytes of `v` to a row key (values only, never display text).
void append(std::string& key, uint64_t v) { key.append(reinterpret_cast<const char*>(&v), sizeof v); }

}  // namespace

std::optional<EventKind> SliceDetailsReader::kindOf(const SliceFields& f, std::optional<EventKind> category) {
    if (const std::string* kind = f.string(Key::Kind))
        if (const std::optional<EventKind> k = perfetto_format::eventKindOfCategory(*kind)) return k;
    return category;
}

// The value of `key` as T; beyond T's range it is cut to T's maximum and counted.
template <typename T>
T SliceDetailsReader::number(const SliceFields& f, Key key) {
    const uint64_t v = f.uint(key).value_or(0);
    if (v <= std::numeric_limits<T>::max()) return static_cast<T>(v);
    countDiagnostic(r_.diagnostics, Diag::PerfettoAnnotationInvalid);
    return std::numeric_limits<T>::max();
}

uint8_t SliceDetailsReader::enumValue(const SliceFields& f, Key key, uint8_t count, uint8_t fallback) {
    const std::optional<uint64_t> v = f.uint(key);
    if (!v) return fallback;
    if (*v < count) return static_cast<uint8_t>(*v);
    countDiagnostic(r_.diagnostics, Diag::PerfettoAnnotationInvalid);
    return fallback;
}

uint32_t SliceDetailsReader::payload(EventKind kind, const SliceFields& f) {
    if (f.wrongTypes() > 0) countDiagnostic(r_.diagnostics, Diag::PerfettoAnnotationInvalid, f.wrongTypes());
    auto row = [](const auto& table) { return static_cast<uint32_t>(table.size() - 1); };
    switch (kind) {
        case EventKind::OsRuntimeCall:
        case EventKind::MpiCall:
        case EventKind::OpenMpEvent:
        case EventKind::ProfilerOverhead:
        case EventKind::GpuPageFault:  // never exported
            return kNoPayload;
        case EventKind::ThreadState:
            return threadState(f);
        case EventKind::CoreRun:
            return coreRun(f);
        case EventKind::GraphExecution:
            r_.graph_executions.push_back({number<uint32_t>(f, Key::CorrelationId), number<uint32_t>(f, Key::GraphId),
                                           number<uint32_t>(f, Key::GraphExecId)});
            return row(r_.graph_executions);
        case EventKind::CudaApiCall:
            return f.uint(Key::CorrelationId) ? number<uint32_t>(f, Key::CorrelationId) : kNoPayload;
        case EventKind::NvtxRange:
            return nvtxRow(f);
        case EventKind::Kernel:
            r_.kernels.push_back({kernelConfig(f), number<uint32_t>(f, Key::CorrelationId)});
            return row(r_.kernels);
        case EventKind::Memcpy:
            r_.memcpys.push_back({f.uint(Key::Bytes).value_or(0), number<uint32_t>(f, Key::CorrelationId),
                                  CopyKind(enumValue(f, Key::CopyKind, 14, uint8_t(CopyKind::Unknown))),
                                  MemKind(enumValue(f, Key::SrcMemKind, 8, uint8_t(MemKind::Unknown))),
                                  MemKind(enumValue(f, Key::DstMemKind, 8, uint8_t(MemKind::Unknown)))});
            return row(r_.memcpys);
        case EventKind::Memset:
            r_.memsets.push_back({f.uint(Key::Bytes).value_or(0), number<uint32_t>(f, Key::CorrelationId),
                                  number<uint32_t>(f, Key::MemsetValue),
                                  MemKind(enumValue(f, Key::MemKind, 8, uint8_t(MemKind::Unknown)))});
            return row(r_.memsets);
        case EventKind::Sync:
            r_.syncs.push_back({number<uint32_t>(f, Key::CorrelationId), number<uint8_t>(f, Key::SyncType)});
            return row(r_.syncs);
    }
    return kNoPayload;
}

uint32_t SliceDetailsReader::kernelConfig(const SliceFields& f) {
    KernelConfig c;
    c.grid[0] = number<uint32_t>(f, Key::GridX);
    c.grid[1] = number<uint32_t>(f, Key::GridY);
    c.grid[2] = number<uint32_t>(f, Key::GridZ);
    c.block[0] = number<uint16_t>(f, Key::BlockX);
    c.block[1] = number<uint16_t>(f, Key::BlockY);
    c.block[2] = number<uint16_t>(f, Key::BlockZ);
    c.registers_per_thread = number<uint16_t>(f, Key::RegistersPerThread);
    c.static_shared_bytes = number<uint32_t>(f, Key::StaticSharedBytes);
    c.dynamic_shared_bytes = number<uint32_t>(f, Key::DynamicSharedBytes);
    c.local_bytes_per_thread = number<uint32_t>(f, Key::LocalBytesPerThread);
    if (f.has(Key::SharedExecutedBytes)) c.shared_executed_bytes = number<uint32_t>(f, Key::SharedExecutedBytes);
    c.launch_type = number<uint8_t>(f, Key::LaunchType);
    if (f.has(Key::LocalMemoryTotal)) c.local_memory_total = f.uint(Key::LocalMemoryTotal).value_or(0);
    if (f.has(Key::CacheConfig)) c.cache_config = std::min<uint8_t>(number<uint8_t>(f, Key::CacheConfig), 254);
    if (f.has(Key::SharedLimitConfig))
        c.shared_memory_limit_config = std::min<uint8_t>(number<uint8_t>(f, Key::SharedLimitConfig), 254);
    const std::string* shortName = f.string(Key::ShortName);
    const std::string* mangledName = f.string(Key::MangledName);
    std::string key;
    for (uint64_t v : {uint64_t{c.grid[0]}, uint64_t{c.grid[1]}, uint64_t{c.grid[2]}, uint64_t{c.block[0]},
                       uint64_t{c.block[1]}, uint64_t{c.block[2]}, uint64_t{c.registers_per_thread},
                       uint64_t{c.static_shared_bytes}, uint64_t{c.dynamic_shared_bytes},
                       uint64_t{c.local_bytes_per_thread}, uint64_t{c.shared_executed_bytes}, uint64_t{c.launch_type},
                       c.local_memory_total, uint64_t{c.cache_config}, uint64_t{c.shared_memory_limit_config}})
        append(key, v);
    // The names last, apart: a short name is never empty, so the mangled one cannot pass for it.
    key += shortName ? *shortName : std::string();
    if (mangledName) key += '\n' + *mangledName;
    auto [it, added] = configs_.try_emplace(std::move(key), static_cast<uint32_t>(r_.kernel_configs.size()));
    if (!added) return it->second;
    if (shortName) c.short_name_id = r_.strings.intern(*shortName);
    if (mangledName) c.mangled_name_id = r_.strings.intern(*mangledName);
    r_.kernel_configs.push_back(c);
    return it->second;
}

uint32_t SliceDetailsReader::nvtxRow(const SliceFields& f) {
    NvtxInfo n;
    const std::string* domain = f.string(Key::NvtxDomain);
    if (f.uint(Key::NvtxColor)) {
        n.color = number<uint32_t>(f, Key::NvtxColor);
        n.has_color = true;
    }
    n.category = number<uint32_t>(f, Key::NvtxCategory);
    n.start_end = f.boolean(Key::NvtxStartEnd).value_or(false);
    // Every field that is set (input_shapes_id, a Kineto trace's, stays 0).
    std::string key;
    append(key, n.color);
    append(key, (uint64_t{n.has_color} << 1) | uint64_t{n.start_end});
    append(key, n.category);
    if (domain) key += "d" + *domain;  // "d": a domain named "" differs from the default
    auto [it, added] = nvtx_.try_emplace(std::move(key), static_cast<uint32_t>(r_.nvtx.size()));
    if (!added) return it->second;
    if (domain) n.domain_name_id = r_.strings.intern(*domain);
    r_.nvtx.push_back(n);
    return it->second;
}

uint32_t SliceDetailsReader::threadState(const SliceFields& f) {
    const auto state = ThreadRunState(enumValue(f, Key::ThreadState, 4, uint8_t(ThreadRunState::Unknown)));
    uint32_t cpu = number<uint32_t>(f, Key::Cpu);
    if (cpu > kThreadStateMaxCpu) {  // the payload keeps 20 bits of it
        countDiagnostic(r_.diagnostics, Diag::PerfettoAnnotationInvalid);
        cpu = kThreadStateMaxCpu;
    }
    return threadStatePayload(state, cpu);
}

uint32_t SliceDetailsReader::coreRun(const SliceFields& f) {
    const std::optional<int64_t> pid = f.int64(Key::Pid), tid = f.int64(Key::Tid);
    if (!pid || !tid) return kNoPayload;
    runs_.push_back({*pid, *tid});
    return static_cast<uint32_t>(runs_.size() - 1);
}

uint32_t SliceDetailsReader::stack(const SliceFields& f) {
    if (f.wrongTypes() > 0) countDiagnostic(r_.diagnostics, Diag::PerfettoAnnotationInvalid, f.wrongTypes());
    const std::vector<FrameText>* frames = f.frames(Key::Stack);
    if (!frames) return kNoStack;
    std::vector<FrameName> names;
    names.reserve(frames->size());
    for (const FrameText& frame : *frames)
        names.push_back({r_.strings.intern(frame.function), r_.strings.intern(frame.module)});
    return stacks_.intern(names);
}

}  // namespace lanescope
