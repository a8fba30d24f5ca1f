#include "importers/cache/ModelFormat.h"

#include "importers/cache/FastHash.h"
#include "importers/cache/RawLayout.h"

namespace lanescope::cache {
namespace {

constexpr std::array<std::string_view, kSectionCount> kSectionNames = {
    "meta",
    "meta.strings.lengths",
    "meta.strings.chars",
    "strings.lengths",
    "strings.chars",
    "lanes",
    "lanes.events.start_ns",
    "lanes.events.duration_ns",
    "lanes.events.long_durations",
    "lanes.events.name_id",
    "lanes.events.payload",
    "lanes.events.kind",
    "lanes.events.depth",
    "lanes.depth_order",
    "lanes.depth_begin",
    "lanes.instants.time_ns",
    "lanes.instants.name_id",
    "lanes.instants.payload",
    "counters",
    "counters.time_ns",
    "counters.value",
    "nsys_messages",
    "nsys_messages.text.lengths",
    "nsys_messages.text.chars",
    "diagnostics.names.lengths",
    "diagnostics.names.chars",
    "diagnostics.counts",
    "processes",
    "threads",
    "gpus",
    "recorded_names",
    "kernels",
    "kernel_configs",
    "memcpys",
    "memsets",
    "syncs",
    "nvtx",
    "graph_executions",
    "cuda_events",
    "gpu_page_faults",
    "cpu_page_faults",
    "migrations",
    "peer_copies",
    "kernel_graph_nodes",
    "graph_api_events",
    "process_streams",
    "capture_options",
    "generic_event_sources",
    "generic_event_types",
    "generic_event_fields",
    "cuda_api_results",
    "unusual_samples",
    "nvtx_other_starts_ns",
    "nvtx_domains",
    "nvtx_namings",
    "nvtx_ties",
    "profiler_overhead",
    "stacks.frame_function",
    "stacks.frame_module",
    "stacks.node_frame",
    "stacks.node_parent",
    "backtraces",
    "backtrace_frame_details",
    "sample_frame_details",
    "file_order.osrt",
    "file_order.cuda_api",
    "file_order.cpu_samples",
    "file_order.sched",
    "pytorch_memory",
    "cuda_memory_events",
    "machine_gpus",
    "system_properties",
    "cuda_devices",
    "cuda_contexts",
    "cuda_streams",
    "collective_args",
    "nvtx_payloads.schemas",
    "nvtx_payloads.entries",
    "nvtx_payloads.enums",
    "nvtx_payloads.enum_values",
    "nvtx_payloads.type_info",
    "nvtx_payloads.registered_strings",
    "nvtx_payloads.bytes",
    "nvtx_payloads.rows",
};

template <typename T>
void addLayout(FastHash& hash) {
    const uint64_t size[] = {sizeof(T), alignof(T)};
    hash.update(size, sizeof size);
    const T sample{};
    std::apply(
        [&](const auto&... m) {
            const uint64_t places[] = {offsetIn(sample, m)..., sizeof m...};
            hash.update(places, sizeof places);
        },
        members(sample));
}

template <typename... T>
void addLayouts(FastHash& hash, TypeList<T...>) {
    (addLayout<T>(hash), ...);
}

}  // namespace

std::string_view sectionName(Section section) { return kSectionNames[size_t(section)]; }

uint64_t layoutFingerprint() {
    static const uint64_t fingerprint = [] {
        FastHash hash;
        addLayouts(hash, RawStructs{});
        const uint64_t sizes[] = {sizeof(ModelFileHeader), sizeof(SectionEntry),  sizeof(MetaRecord),
                                  sizeof(LaneRecord),      sizeof(CounterRecord), sizeof(MessageRecord),
                                  sizeof(LaneKind),        sizeof(EventKind),     sizeof(int)};
        hash.update(sizes, sizeof sizes);
        return hash.digest();
    }();
    return fingerprint;
}

}  // namespace lanescope::cache
