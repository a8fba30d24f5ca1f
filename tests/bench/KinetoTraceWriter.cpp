#include "tests/bench/KinetoTraceWriter.h"

#include <charconv>
#include <string>

#include "tests/bench/KinetoWorkload.h"
#include "tests/bench/TextFile.h"

namespace lanescope::bench {
namespace {

// The document before the events: what Kineto writes first (device, distributed and CUDA info).
constexpr const char* kHeader = R"({
  "schemaVersion": 1,
  "deviceProperties": [
    {
      "id": 0, "name": "NVIDIA H100 80GB HBM3", "totalGlobalMem": 84929347584,
      "computeMajor": 9, "computeMinor": 0,
      "maxThreadsPerBlock": 1024, "maxThreadsPerMultiprocessor": 2048,
      "regsPerBlock": 65536, "warpSize": 32,
      "sharedMemPerBlock": 49152, "numSms": 132
    , "regsPerMultiprocessor": 65536, "sharedMemPerBlockOptin": 232448, "sharedMemPerMultiprocessor": 233472
    }
  ],
  "distributedInfo": {"backend": "nccl", "rank": 0, "world_size": 8, "pg_count": 1, "pg_config": [{"pg_name": "0", "pg_desc": "default_pg", "backend_config": "cuda:nccl", "pg_size": 8, "ranks": [0, 1, 2, 3, 4, 5, 6, 7]}], "nccl_version": "2.21.5"},
  "cuda_driver_version": 12040,
  "cuda_runtime_version": 12040,
  "cupti_version": 12040,
  "record_shapes": 1,
  "with_stack": 1,
  "displayTimeUnit": "ms",
  "baseTimeNanoseconds": 1727000000000000000,
  "traceEvents": [)";

class JsonText {
public:
    explicit JsonText(std::string& out) : out_(out) {}
    JsonText& operator<<(std::string_view text) {
        out_ += text;
        return *this;
    }
    JsonText& operator<<(int64_t n) {
        char digits[24];
        out_.append(digits, std::to_chars(digits, digits + sizeof digits, n).ptr);
        return *this;
    }
    // Microseconds with three decimals, as Kineto writes ts and dur: 4459284064454.059.
    JsonText& micros(int64_t ns) {
        *this << ns / 1000;
        const auto frac = static_cast<int>(ns % 1000);
        const char tail[4] = {'.', static_cast<char>('0' + frac / 100), static_cast<char>('0' + frac / 10 % 10),
                              static_cast<char>('0' + frac % 10)};
        out_.append(tail, 4);
        return *this;
    }

private:
    std::string& out_;
};

const char* categoryOf(TraceKind kind) {
    switch (kind) {
        case TraceKind::CpuOp:
            return "cpu_op";
        case TraceKind::Python:
            return "python_function";
        case TraceKind::Annotation:
            return "user_annotation";
        case TraceKind::Runtime:
            return "cuda_runtime";
        case TraceKind::Driver:
            return "cuda_driver";
        case TraceKind::Kernel:
            return "kernel";
        case TraceKind::Memcpy:
            return "gpu_memcpy";
        case TraceKind::Memset:
            return "gpu_memset";
        case TraceKind::GpuAnnotation:
            return "gpu_user_annotation";
        case TraceKind::LaunchFlow:
        case TraceKind::KernelFlow:
            return "ac2g";
        case TraceKind::ForwardFlow:
        case TraceKind::BackwardFlow:
            return "fwdbwd";
        case TraceKind::MemoryInstant:
            return "cpu_instant_event";
        case TraceKind::Counter:
            return "";
    }
    return "";
}

bool onGpu(TraceKind kind) {
    return kind == TraceKind::Kernel || kind == TraceKind::Memcpy || kind == TraceKind::Memset ||
           kind == TraceKind::GpuAnnotation || kind == TraceKind::KernelFlow;
}

// The GPU work's args up to the stream and correlation, as Kineto writes them.
void gpuArgs(JsonText& j, const TraceEvent& e) {
    j << "      \"External id\": " << static_cast<int64_t>(e.external) << ",      "
      << (e.kind == TraceKind::Kernel ? "\"queued\": 0, " : "") << "\"device\": " << KinetoWorkload::kDevice
      << ", \"context\": 1,      \"stream\": " << e.tid << ", \"correlation\": " << static_cast<int64_t>(e.id);
}

void writeArgs(JsonText& j, const TraceEvent& e, int64_t evIdx) {
    switch (e.kind) {
        case TraceKind::CpuOp:
            j << "      \"External id\": " << static_cast<int64_t>(e.external) << ",\"Record function id\": 0, "
              << e.op->inputs << ", \"Ev Idx\": " << evIdx;
            break;
        case TraceKind::Python:
            j << "      \"Python parent id\": " << e.value - 1 << ", \"Python id\": " << e.value
              << ", \"Python thread\": 0";
            break;
        case TraceKind::Annotation:
            j << "      \"External id\": " << static_cast<int64_t>(e.external)
              << ",\"Record function id\": 0, \"Ev Idx\": " << evIdx;
            break;
        case TraceKind::Runtime:
        case TraceKind::Driver:
            j << "      \"External id\": " << static_cast<int64_t>(e.external)
              << ",      \"cbid\": " << (e.kind == TraceKind::Driver ? 307 : 211)
              << ", \"correlation\": " << static_cast<int64_t>(e.id);
            break;
        case TraceKind::Kernel: {
            const KernelShape& k = *e.kernel;
            gpuArgs(j, e);
            j << ",      \"registers per thread\": " << int64_t{k.registers}
              << ",      \"shared memory\": " << int64_t{k.shared_bytes}
              << ",      \"blocks per SM\": 3.878788,      \"warps per SM\": 15.515152,"
              << "      \"grid\": [" << int64_t{k.grid[0]} << ", " << int64_t{k.grid[1]} << ", " << int64_t{k.grid[2]}
              << "],      \"block\": [" << int64_t{k.block[0]} << ", " << int64_t{k.block[1]} << ", "
              << int64_t{k.block[2]} << "],      \"est. achieved occupancy %\": 25";
            if (e.tid == KinetoWorkload::kNcclStream)
                j << ", \"Collective name\": \"allreduce\", \"In msg nelems\": 25165824, \"Out msg nelems\": 25165824, "
                     "\"Group size\": 8, \"dtype\": \"Float\", \"In split size\": \"[]\", \"Out split size\": \"[]\", "
                     "\"Process Group Name\": \"0\", \"Process Group Description\": \"default_pg\", "
                     "\"Process Group Ranks\": \"[0, 1, 2, 3, 4, 5, 6, 7]\"";
            break;
        }
        case TraceKind::Memcpy:
        case TraceKind::Memset:
            gpuArgs(j, e);
            j << ",      \"bytes\": " << e.value
              << ", \"memory bandwidth (GB/s)\": " << (e.kind == TraceKind::Memcpy ? "21.33" : "4.1");
            break;
        case TraceKind::GpuAnnotation:
            j << "      \"External id\": " << static_cast<int64_t>(e.external);
            break;
        default:
            break;
    }
}

void writeEvent(JsonText& j, const TraceEvent& e, int64_t evIdx) {
    const int64_t pid = onGpu(e.kind) ? KinetoWorkload::kDevice : KinetoWorkload::kPid;
    switch (e.kind) {
        case TraceKind::LaunchFlow:
        case TraceKind::KernelFlow:
        case TraceKind::ForwardFlow:
        case TraceKind::BackwardFlow: {
            const bool start = e.kind == TraceKind::LaunchFlow || e.kind == TraceKind::ForwardFlow;
            j << "  {\n    \"ph\": \"" << (start ? "s" : "f") << "\", \"id\": " << static_cast<int64_t>(e.id)
              << ", \"pid\": " << pid << ", \"tid\": " << e.tid << ", \"ts\": ";
            j.micros(e.start_ns) << ",\n    \"cat\": \"" << categoryOf(e.kind) << "\", \"name\": \""
                                 << categoryOf(e.kind) << (start ? "\"\n  }" : "\", \"bp\": \"e\"\n  }");
            return;
        }
        case TraceKind::MemoryInstant:
            j << "  {\n    \"ph\": \"i\", \"cat\": \"cpu_instant_event\", \"s\": \"t\", \"name\": \"[memory]\",\n"
                 "    \"pid\": "
              << pid << ", \"tid\": " << e.tid << ",\n    \"ts\": ";
            j.micros(e.start_ns) << ",\n    \"args\": {\n      \"Total Reserved\": 8589934592, \"Total Allocated\": "
                                 << int64_t{6} * (1 << 30) << ", \"Bytes\": " << e.value
                                 << ", \"Addr\": 139872712540160, \"Device Type\": 1, \"Device Id\": 0\n    }\n  }";
            return;
        case TraceKind::Counter:
            j << "  {\n    \"ph\": \"C\", \"name\": \"CUDA caching allocator\", \"pid\": " << pid << ", \"ts\": ";
            j.micros(e.start_ns) << ",\n    \"args\": {\"Allocated\": " << e.value
                                 << ", \"Reserved\": 8589934592}\n  }";
            return;
        default:
            break;
    }
    j << "  {\n    \"ph\": \"X\", \"cat\": \"" << categoryOf(e.kind) << "\", \"name\": \"" << e.name
      << "\", \"pid\": " << pid << ", \"tid\": " << e.tid << ",\n    \"ts\": ";
    j.micros(e.start_ns) << ", \"dur\": ";
    j.micros(e.dur_ns) << ",\n    \"args\": {\n";
    writeArgs(j, e, evIdx);
    j << "\n    }\n  }";
}

void count(KinetoTraceCounts& c, TraceKind kind) {
    switch (kind) {
        case TraceKind::CpuOp:
            ++c.cpu_op;
            break;
        case TraceKind::Python:
            ++c.python;
            break;
        case TraceKind::Annotation:
            ++c.annotation;
            break;
        case TraceKind::Runtime:
        case TraceKind::Driver:
            ++c.cuda_api;
            break;
        case TraceKind::Kernel:
            ++c.kernels;
            break;
        case TraceKind::Memcpy:
            ++c.memcpy;
            break;
        case TraceKind::Memset:
            ++c.memset;
            break;
        case TraceKind::GpuAnnotation:
            ++c.gpu_annotation;
            break;
        case TraceKind::MemoryInstant:
            ++c.instants;
            break;
        case TraceKind::Counter:
            ++c.counters;
            break;
        default:
            ++c.flows;
            break;
    }
}

bool isComplete(TraceKind kind) { return kind <= TraceKind::GpuAnnotation; }

// The M events: process and thread names and sort indices, the GPU's process and its streams.
uint64_t writeMetadata(JsonText& j) {
    struct Meta {
        const char* name;
        int64_t pid, tid;
        const char* key;
        std::string value;
    };
    const int64_t pid = KinetoWorkload::kPid, gpu = KinetoWorkload::kDevice;
    const Meta metas[] = {
        {"process_name", pid, 0, "name", "\"python3\""},
        {"process_labels", pid, 0, "labels", "\"CPU\""},
        {"process_sort_index", pid, 0, "sort_index", std::to_string(pid)},
        {"process_name", gpu, 0, "name", "\"python3\""},
        {"process_labels", gpu, 0, "labels", "\"GPU 0\""},
        {"process_sort_index", gpu, 0, "sort_index", "5000000"},
        {"thread_name", pid, KinetoWorkload::kMainTid, "name", "\"thread 2417 (python3)\""},
        {"thread_sort_index", pid, KinetoWorkload::kMainTid, "sort_index", "2417"},
        {"thread_name", pid, KinetoWorkload::kAutogradTid, "name", "\"thread 2475 (pt_autograd_0)\""},
        {"thread_sort_index", pid, KinetoWorkload::kAutogradTid, "sort_index", "2475"},
        {"thread_name", gpu, KinetoWorkload::kComputeStream, "name", "\"stream 7 \""},
        {"thread_sort_index", gpu, KinetoWorkload::kComputeStream, "sort_index", "7"},
        {"thread_name", gpu, KinetoWorkload::kNcclStream, "name", "\"stream 24 \""},
        {"thread_sort_index", gpu, KinetoWorkload::kNcclStream, "sort_index", "24"},
    };
    for (const Meta& m : metas)
        j << ",\n  {\n    \"name\": \"" << m.name << "\", \"ph\": \"M\", \"ts\": 4459284000000.000, \"pid\": " << m.pid
          << ", \"tid\": " << m.tid << ",\n    \"args\": {\n      \"" << m.key << "\": " << m.value << "\n    }\n  }";
    return std::size(metas);
}

}  // namespace

KinetoTraceCounts writeKinetoTrace(const std::filesystem::path& out, uint64_t events) {
    TextFile file(out);
    JsonText j(file.text());
    KinetoTraceCounts counts;
    KinetoWorkload workload(20241001);
    j << kHeader << "\n";
    int64_t evIdx = 0;
    bool first = true;
    while (counts.complete() < events) {
        for (const TraceEvent& e : workload.nextStep()) {
            if (isComplete(e.kind) && counts.complete() == events) break;
            count(counts, e.kind);
            if (!first) j << ",\n";
            first = false;
            writeEvent(j, e, evIdx++);
            file.flushIfFull();
        }
    }
    counts.metadata = writeMetadata(j);
    j << "\n  ],\n  \"traceName\": \"" << out.filename().string() << "\"\n}\n";
    file.close();
    return counts;
}

}  // namespace lanescope::bench
