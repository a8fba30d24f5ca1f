#include "importers/nsysrep/CaptureSettings.h"

#include <algorithm>
#include <array>
#include <span>

#include "importers/nsysrep/ProtoReader.h"

namespace lanescope::nsysrep {
namespace {

// One value of an enum option and the name the export prints for it.
struct EnumLabel {
    uint64_t value;
    std::string_view label;
};

// The enum values seen in the corpus, by option. A value not listed prints as "<unknown N>":
// CAPTURE_EVENT_TYPE 169 (`-t openmp`, nsys 2022.4) is one, since no 2025.3 export names it.
constexpr EnumLabel kEventTypes[] = {{1, "CpuCycles"},   {12, "NvtxEvents"}, {123, "Cuda"},
                                     {127, "OSRuntime"}, {128, "CuDNN"},     {129, "CuBLAS"}};
constexpr EnumLabel kStartTriggers[] = {{2, "Immediate"}};
constexpr EnumLabel kStopTriggers[] = {{3, "Delayed"}};
constexpr EnumLabel kDeviceTypes[] = {{3, "Unix"}};
constexpr EnumLabel kAttachModes[] = {{4, "LaunchAnother"}};
constexpr EnumLabel kMpiImplementations[] = {{0, "OpenMPI"}};
constexpr EnumLabel kPerfCollectionModes[] = {{1, "ProcessTree"}};
constexpr EnumLabel kIpTriggerTypes[] = {{2, "Software"}};
constexpr EnumLabel kCudaGraphTraceModes[] = {{0, "Graph"}, {1, "Node"}};

// How an option is stored and printed. Text, Integer and Boolean print a row always, with their
// default when the field is absent; the other kinds print only what the message holds.
enum class Kind : uint8_t {
    Text,             // length-delimited UTF-8, printed as is; default ""
    Integer,          // varint, printed as an int64; default: the entry's `fallback`
    Boolean,          // varint, "true" or "false"; default false
    Enum,             // varint, printed by its label; no row when absent (seen for 69.5 and 69.7 only)
    EnumList,         // message whose repeated varint 1 holds enum values: a row per value, in order
    Arguments,        // repeated text: rows NAME_0, NAME_1, ...
    Environment,      // repeated { 1 name, 2 value }: a row per entry, name="value" without escaping
    Message,          // sub-message: the entries below it, prefixed NAME:, when present (even empty)
    RepeatedMessage,  // repeated sub-message: the entries below it per occurrence k, prefixed NAME_k:
};

constexpr bool hasMembers(Kind kind) { return kind == Kind::Message || kind == Kind::RepeatedMessage; }

// The wire type an option of `kind` is stored as: varint for numbers, length-delimited otherwise.
constexpr uint8_t wireOf(Kind kind) {
    return kind == Kind::Integer || kind == Kind::Boolean || kind == Kind::Enum ? 0 : 2;
}

// A field number no report of the corpus has shown: the option is never set there, so its row
// always prints the default.
constexpr uint32_t kUnknown = UINT32_MAX;

// One option of the capture settings: its row name (without the prefixes of the messages that
// hold it), its field path (field numbers from the top-level message down, 0 past the end), its
// kind, and its enum labels (Enum, EnumList) or default (Integer).
struct Option {
    std::string_view name;
    std::array<uint32_t, 3> path;
    Kind kind;
    std::span<const EnumLabel> labels = {};
    int64_t fallback = 0;

    constexpr size_t depth() const { return static_cast<size_t>(std::ranges::find(path, 0u) - path.begin()); }
    constexpr uint32_t field() const { return path[depth() - 1]; }
};

using enum Kind;

// Every option in the export's row order, which is not field order (PROFILING_SESSION_UUID is field
// 77, printed between 26 and 30). Columns: row name, field path, kind, then the enum labels or the
// integer default. The members of a message option follow it, one level deeper.
// Field numbers are verified by a non-default value in some report unless a comment says
// otherwise: "by position" = only ever present with its default, placed by its neighbours;
// "guess" = never present, inferred from the free numbers around it.
constexpr Option kCaptureOptions[] = {
    {"DEVICE_ID", {1}, Text},
    {"CAPTURE_EVENT_TYPE", {2}, EnumList, kEventTypes},
    {"RATE_HZ", {3}, Integer},
    {"START_TRIGGER", {4}, Enum, kStartTriggers},
    {"STOP_TRIGGER", {5}, Enum, kStopTriggers},
    {"THREAD_STATE_SCAN_FREQ", {6}, Integer, {}, 50},  // guess: 6 and 7 are the only numbers free
    {"POWER_RATE_SCAN_FREQ", {7}, Integer, {}, 50},    // between 5 and 8
    {"DEVICE_TYPE", {8}, Enum, kDeviceTypes},
    {"DEVICE_DISPLAY_NAME", {9}, Text},
    {"OS_RUNTIME_OPTIONS", {12}, Message},  // 12.4 and 12.5 (2025.3) are not printed
    {"DURATION_THRESHOLD_NS", {12, 1}, Integer},
    {"COLLECT_BACKTRACES", {12, 2}, Boolean},
    {"BACKTRACES_THRESHOLD_NS", {12, 3}, Integer},
    {"MPI_TRACE_OPTIONS", {18}, Message},
    {"COLLECT_MPI_TRACE", {18, 1}, Boolean},
    {"MPI_IMPLEMENTATION", {18, 2}, Enum, kMpiImplementations},  // by position
    // PROCESS_k: k counts occurrences, a guess (every report has one process).
    {"PROCESS", {26}, RepeatedMessage},
    {"HOW_TO_ATTACH", {26, 1}, Enum, kAttachModes},
    {"LAUNCH_AS_ROOT", {26, kUnknown}, Boolean},
    {"COMMAND", {26, 10}, Text},
    {"ARGUMENT", {26, 11}, Arguments},
    {"WORKING_DIR", {26, 12}, Text},
    {"PID", {26, kUnknown}, Integer},
    {"USER_NAME", {26, kUnknown}, Text},
    {"COLLECT_NVTX_TRACE", {26, 20}, Boolean},
    {"COLLECT_CUDA_TRACE", {26, 21}, Boolean},
    {"COLLECT_CPU_TRACE", {26, 22}, Boolean},  // by position
    {"COLLECT_NVMEDIA_TRACE", {26, kUnknown}, Boolean},
    {"COLLECT_VIDEO_API_TRACE", {26, kUnknown}, Boolean},
    {"ENVIRONMENT_VARIABLE", {26, 30}, Environment},
    {"COLLECT_BLOCK_TRACE", {26, kUnknown}, Boolean},
    {"COLLECT_BLOCK_PHASE_TRACE", {26, kUnknown}, Boolean},
    {"COLLECT_WARP_TRACE", {26, kUnknown}, Boolean},
    {"COLLECT_WARP_PHASE_TRACE", {26, kUnknown}, Boolean},
    {"CUDA_FLUSH_PERIODICALLY", {26, 40}, Boolean},
    {"CUDA_FLUSH_PERIOD", {26, 41}, Integer},  // by position
    {"CUDA_SKIP_SOME_API_CALLS", {26, 42}, Boolean},
    {"COLLECT_GPU_MEMORY_USAGE", {26, 43}, Boolean},
    {"COLLECT_UVM_CPU_PAGE_FAULTS", {26, 44}, Boolean},
    {"CUDA_BACKTRACE_OPTIONS", {26, 47}, Message},  // members by position: all bools 1, thresholds 0
    {"COLLECT_OTHER_BACKTRACES", {26, 47, 1}, Boolean},
    {"OTHER_BACKTRACES_THRESHOLD_NS", {26, 47, 2}, Integer},
    {"COLLECT_KERNEL_BACKTRACES", {26, 47, 3}, Boolean},
    {"KERNEL_BACKTRACES_THRESHOLD_NS", {26, 47, 4}, Integer},
    {"COLLECT_MEMORY_BACKTRACES", {26, 47, 5}, Boolean},
    {"MEMORY_BACKTRACES_THRESHOLD_NS", {26, 47, 6}, Integer},
    {"COLLECT_SYNCHRONOIZATION_BACKTRACES", {26, 47, 7}, Boolean},  // nsys's spelling
    {"SYNCHRONOIZATION_BACKTRACES_THRESHOLD_NS", {26, 47, 8}, Integer},
    {"COLLECT_PYTHON_BACKTRACES", {26, 47, 9}, Boolean},
    {"COLLECT_UVM_GPU_PAGE_FAULTS", {26, 48}, Boolean},
    {"CUDA_GRAPH_TRACE_OPTIONS", {26, 49}, Message},
    {"MODE", {26, 49, 1}, Enum, kCudaGraphTraceModes},  // guess: 49.2 is always its complement
    {"COLLECT_GL_WORKLOAD", {26, kUnknown}, Boolean},
    {"COLLECT_DX12_TRACE", {26, kUnknown}, Boolean},
    {"COLLECT_DX11_TRACE", {26, kUnknown}, Boolean},
    {"COLLECT_VULKAN_TRACE", {26, kUnknown}, Boolean},
    {"CUDA_FLUSH_ON_CUDA_PROFILER_STOP", {26, kUnknown}, Boolean},  // 26.92 (always 0)? 26.93 is not printed
    {"PROFILING_SESSION_ID", {kUnknown}, Text},
    {"PROFILING_SESSION_UUID", {77}, Text},
    {"APPLICATION_PID", {kUnknown}, Integer},
    {"PACKAGE_NAME", {kUnknown}, Text},
    {"RESUME", {kUnknown}, Boolean},
    {"SHOW_BACKTRACE", {30}, Boolean},
    {"START_DELAY_MS", {31}, Integer},  // guess: the only number between 30 and 32
    {"RUN_DURATION_MS", {32}, Integer},
    {"HAS_ANNOTATIONS", {kUnknown}, Boolean},
    {"USE_UNWIND_TABLES", {kUnknown}, Boolean},
    {"USE_FRAME_POINTERS", {kUnknown}, Boolean},
    {"USE_DWARF", {39}, Boolean},
    {"BANDWIDTH_VERSION", {kUnknown}, Integer},
    {"BANDWIDTH_RATE_HZ", {kUnknown}, Integer},
    {"COLLECT_GPU_CTX_SW_TRACE", {kUnknown}, Boolean},
    {"TRACE_ALL_TASKS", {kUnknown}, Boolean},
    {"IN_APP_FREQ_MODE", {kUnknown}, Boolean},
    {"COLLECT_VSYNC", {kUnknown}, Boolean},
    {"COLLECT_THREAD_STATE_TRACE", {kUnknown}, Boolean},
    {"ALLOW_SEND_ONLY_MODE", {kUnknown}, Boolean},
    {"FORCE_ARCH_TIMER", {kUnknown}, Boolean},
    {"USE_LBRS", {54}, Boolean},
    {"INCLUDE_CHILDREN", {55}, Boolean},
    {"USE_LINUX_PERF", {56}, Boolean},
    {"DISABLE_TIME_SYNC", {kUnknown}, Boolean},  // field 60 (0 in every report) is one of these 7
    {"LAUNCH_AS_ROOT", {kUnknown}, Boolean},     // or is not printed
    {"TRACE_AFTER_FORK_BEFORE_EXEC", {kUnknown}, Boolean},
    {"COLLECT_SLI_EVENTS", {kUnknown}, Boolean},
    {"HOTKEY_ENABLED", {kUnknown}, Boolean},
    {"HOTKEY_VALUE", {kUnknown}, Integer},
    {"COLLECT_WDDM_EVENTS", {kUnknown}, Boolean},
    {"NVTX_OPTIONS", {67}, Message},  // always an empty message: its members' numbers are unknown
    {"TRACE_NVTX_RANGE_HOT_KEY", {67, kUnknown}, Boolean},
    {"TRACE_NVTX_RANGE_HOT_KEY_VALUE", {67, kUnknown}, Integer},
    {"NVTX_DOMAIN_FILTER_STRING", {67, kUnknown}, Text},
    {"NVTX_DOMAIN_FILTER_MODE_INCLUDE", {67, kUnknown}, Boolean},
    {"LINUX_PERF_OPTIONS", {69}, Message},
    {"COLLECT_CPU_CTXSW_TRACE", {69, 1}, Boolean},
    {"SAMPLING_PERIOD", {69, 2}, Integer},
    {"COLLECT_IP_BACKTRACE_SAMPLES", {69, 3}, Boolean},
    {"SAMPLES_PER_BACKTRACE", {69, 4}, Integer},
    {"COLLECTION_MODE", {69, 5}, Enum, kPerfCollectionModes},
    {"CPU_IP_SAMPLING_TRIGGER_EVENT_INDEX", {69, 6}, Integer},  // by position
    {"CPU_IP_TRIGGER_TYPE", {69, 7}, Enum, kIpTriggerTypes},
    {"COLLECT_EVENT_COUNTS", {69, kUnknown}, Boolean},
    {"EVENT_COUNT_INTERVAL_MS", {69, kUnknown}, Integer},
    {"GPU_METRICS_OPTIONS", {70}, Message},
    {"SAMPLING_FREQUENCY", {70, 1}, Integer},
    // GPU_k: k counts occurrences, a guess (only one GPU seen).
    {"GPU", {70, 4}, RepeatedMessage},
    {"ID", {70, 4, 1}, Integer},  // by position
    {"METRIC_SET_INDEX", {70, 4, 2}, Integer},
    {"COLLECT_OPENSHMEM_TRACE", {kUnknown}, Boolean},
    {"START_FRAME_VALUE", {kUnknown}, Integer},
    {"RUN_DURATION_FRAMES", {kUnknown}, Integer},
    {"SYMBOL_RESOLUTION_OPTIONS", {78}, Message},
    {"RESOLVE_SYMBOLS", {78, 1}, Boolean},
    {"SAMPLE_ALL_TASKS", {kUnknown}, Boolean},
    {"PYTHON_BACKTRACE_SAMPLING_OPTIONS", {83}, Message},
    {"COLLECT_SAMPLES", {83, 1}, Boolean},
    {"SAMPLING_RATE", {83, 2}, Integer},
};

// True when every entry below the top level follows, with its members, the message entry that
// holds it, and extends that entry's path: the nesting appendRows reads the table by.
constexpr bool wellNested(std::span<const Option> options) {
    for (size_t i = 0; i < options.size(); ++i) {
        const size_t depth = options[i].depth();
        if (depth == 0) return false;
        if (depth == 1) continue;
        size_t parent = i;
        while (parent > 0 && options[parent].depth() >= depth) --parent;
        const Option& holder = options[parent];
        if (holder.depth() != depth - 1 || !hasMembers(holder.kind)) return false;
        if (!std::equal(holder.path.begin(), holder.path.begin() + (depth - 1), options[i].path.begin())) return false;
    }
    return true;
}
static_assert(wellNested(kCaptureOptions));

// A decoded message: its fields in wire order, and its offset in the file (for errors).
struct DecodedMessage {
    std::string_view bytes;
    uint64_t base = 0;
    std::vector<ProtoField> fields;
};

DecodedMessage decode(std::string_view bytes, uint64_t base) {
    DecodedMessage message{bytes, base, {}};
    ProtoReader reader(bytes, base);
    for (ProtoField field; reader.next(field);) message.fields.push_back(field);
    return message;
}

// The sub-message held in `field` of `outer`.
DecodedMessage decodeInner(const DecodedMessage& outer, const ProtoField& field) {
    return decode(field.bytes, outer.base + static_cast<uint64_t>(field.bytes.data() - outer.bytes.data()));
}

// Every occurrence of `option` in `message`, in wire order: a repeated option's values, or a
// singular one's, whose last occurrence is its value. A field of another wire type is not it.
std::vector<const ProtoField*> occurrences(const DecodedMessage& message, const Option& option) {
    std::vector<const ProtoField*> found;
    if (option.field() == kUnknown) return found;
    for (const ProtoField& field : message.fields)
        if (field.number == option.field() && field.wire == wireOf(option.kind)) found.push_back(&field);
    return found;
}

// The export's name for an enum value; "<unknown N>" for a value no report of the corpus has.
std::string labelOf(const Option& option, uint64_t value) {
    for (const EnumLabel& known : option.labels)
        if (known.value == value) return std::string(known.label);
    return "<unknown " + std::to_string(value) + ">";
}

// An ENVIRONMENT_VARIABLE value: name="value", as the export prints it, without escaping.
std::string environmentEntry(const DecodedMessage& entry) {
    std::string_view name, value;
    for (const ProtoField& field : entry.fields) {
        if (field.number == 1 && field.wire == 2) name = field.bytes;
        if (field.number == 2 && field.wire == 2) value = field.bytes;
    }
    return std::string(name) + "=\"" + std::string(value) + "\"";
}

using Rows = std::vector<CaptureSetting>;

void appendRows(std::span<const Option> options, const DecodedMessage& message, const std::string& prefix, Rows& rows);

// The rows of one option of `message`, named `name`; `members` are the options of its
// sub-messages (Message, RepeatedMessage).
void appendOption(const Option& option, std::span<const Option> members, const DecodedMessage& message,
                  const std::string& name, Rows& rows) {
    const std::vector<const ProtoField*> found = occurrences(message, option);
    const ProtoField* last = found.empty() ? nullptr : found.back();
    switch (option.kind) {
        case Text:
            rows.push_back({name, last ? std::string(last->bytes) : ""});
            break;
        case Integer:
            rows.push_back({name, std::to_string(last ? last->i64() : option.fallback)});
            break;
        case Boolean:
            rows.push_back({name, last && last->value != 0 ? "true" : "false"});
            break;
        case Enum:
            if (last) rows.push_back({name, labelOf(option, last->value)});
            break;
        case EnumList:
            for (const ProtoField* list : found)
                for (const ProtoField& value : decodeInner(message, *list).fields)
                    if (value.number == 1 && value.wire == 0) rows.push_back({name, labelOf(option, value.value)});
            break;
        case Arguments:
            for (size_t k = 0; k < found.size(); ++k)
                rows.push_back({name + "_" + std::to_string(k), std::string(found[k]->bytes)});
            break;
        case Environment:
            for (const ProtoField* entry : found)
                rows.push_back({name, environmentEntry(decodeInner(message, *entry))});
            break;
        case Message:
            if (last) appendRows(members, decodeInner(message, *last), name + ":", rows);
            break;
        case RepeatedMessage:
            for (size_t k = 0; k < found.size(); ++k)
                appendRows(members, decodeInner(message, *found[k]), name + "_" + std::to_string(k) + ":", rows);
            break;
    }
}

// How many entries after options[i] are its members: the deeper ones that follow it.
size_t memberCount(std::span<const Option> options, size_t i) {
    size_t count = 0;
    while (i + 1 + count < options.size() && options[i + 1 + count].depth() > options[i].depth()) ++count;
    return count;
}

// The rows of `options` (the entries of one message, each followed by its members) read from
// `message`, their names prefixed with `prefix`.
void appendRows(std::span<const Option> options, const DecodedMessage& message, const std::string& prefix, Rows& rows) {
    for (size_t i = 0; i < options.size();) {
        const size_t members = memberCount(options, i);
        appendOption(options[i], options.subspan(i + 1, members), message, prefix + std::string(options[i].name), rows);
        i += 1 + members;
    }
}

}  // namespace

std::vector<CaptureSetting> readCaptureSettings(std::string_view section, uint64_t base) {
    Rows rows;
    appendRows(kCaptureOptions, decode(section, base), "", rows);
    return rows;
}

}  // namespace lanescope::nsysrep
