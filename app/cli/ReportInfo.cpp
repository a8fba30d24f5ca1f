#include "app/cli/ReportInfo.h"

#include <cstdio>
#include <ctime>
#include <map>
#include <set>

#include "analysis/JsonWriter.h"
#include "model/DiagnosticKinds.h"

namespace lanescope::cli {

std::string utcText(int64_t ns) {
    if (ns == 0) return "unknown";
    const std::time_t seconds = static_cast<std::time_t>(ns / 1000000000);
    std::tm tm{};
    gmtime_r(&seconds, &tm);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%09lldZ", tm.tm_year + 1900, tm.tm_mon + 1,
                  tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, static_cast<long long>(ns % 1000000000));
    return buf;
}

std::vector<std::pair<const char*, uint64_t>> countList(const EventCounts& c) {
    return {{"kernels", c.kernels},
            {"memcpy", c.memcpy},
            {"memset", c.memset},
            {"cuda_api", c.cuda_api},
            {"nvtx", c.nvtx},
            {"osrt", c.osrt},
            {"nccl", c.nccl},
            {"sync", c.sync},
            {"mpi", c.mpi},
            {"openmp", c.openmp},
            {"slices", c.slices},
            {"instants", c.instants},
            {"counter_samples", c.counter_samples},
            {"cpu_samples", c.cpu_samples},
            {"context_switches", c.context_switches},
            {"graph_executions", c.graph_executions},
            {"cuda_events", c.cuda_events},
            {"um_cpu_page_faults", c.um_cpu_page_faults},
            {"um_gpu_page_faults", c.um_gpu_page_faults}};
}

std::string infoJson(const Report& r) {
    const EventCounts counts = r.counts();
    JsonWriter j;
    j.beginObject();
    j.value("file", r.meta.source_path);
    j.value("format", r.meta.format);
    j.value("producer", r.meta.producer);
    j.value("version", r.meta.version);
    if (!r.meta.reader.empty()) j.value("reader", r.meta.reader);
    if (r.meta.producer == "NVIDIA Nsight Systems") j.value("nsys_version", r.meta.nsys_version);
    j.value("start_utc_ns", r.meta.start_utc_ns);
    j.value("start_utc", utcText(r.meta.start_utc_ns));
    j.value("begin_ns", r.meta.begin_ns);
    j.value("end_ns", r.meta.end_ns);
    j.value("duration_ns", r.meta.end_ns - r.meta.begin_ns);
    if (r.meta.rank >= 0) j.value("rank", r.meta.rank);
    j.beginArray("processes");
    for (size_t p = 0; p < r.processes.size(); ++p) {
        j.beginObject();
        j.value("pid", r.processes[p].pid);
        j.value("name", r.str(r.processes[p].name_id));
        j.beginArray("threads");
        for (const Thread& t : r.threads) {
            if (t.process != static_cast<int32_t>(p)) continue;
            j.beginObject();
            j.value("tid", t.tid);
            j.value("name", r.str(t.name_id));
            j.endObject();
        }
        j.endArray();
        j.endObject();
    }
    j.endArray();
    j.beginArray("gpus");
    for (size_t g = 0; g < r.gpus.size(); ++g) {
        j.beginObject();
        j.value("device_id", r.gpus[g].device_id);
        j.value("name", r.str(r.gpus[g].name_id));
        std::set<int64_t> streams;
        for (const Lane& l : r.lanes)
            if (l.kind == LaneKind::GpuStream && l.gpu == static_cast<int32_t>(g)) streams.insert(l.stream_id);
        j.beginArray("streams");
        for (int64_t s : streams) j.value("", s);
        j.endArray();
        j.endObject();
    }
    j.endArray();
    j.beginObject("counts");
    for (const auto& [name, value] : countList(counts)) j.value(name, value);
    j.endObject();
    std::map<std::string, uint64_t> lanesByKind;
    for (const Lane& l : r.lanes) ++lanesByKind[std::string(laneKindName(l.kind))];
    j.beginObject("lanes");
    for (const auto& [kind, n] : lanesByKind) j.value(kind, n);
    j.endObject();
    j.beginArray("counters");
    for (const Counter& c : r.counters) {
        j.beginObject();
        j.value("name", r.str(c.name_id));
        j.value("samples", static_cast<uint64_t>(c.time_ns.size()));
        j.endObject();
    }
    j.endArray();
    j.beginArray("nsys_messages");  // Nsight Systems' own, in time order
    for (size_t row : nsysMessagesByTime(r.nsys_messages)) {
        const NsysMessage& m = r.nsys_messages[row];
        j.beginObject();
        j.value("time_ns", m.time_ns);
        j.value("severity", nsysMessageSeverityName(m.severity));
        j.value("source", nsysMessageSourceName(m.source));
        j.value("text", m.text);
        j.endObject();
    }
    j.endArray();
    j.beginObject("diagnostics");  // a contract: name -> count, as it always was
    for (const auto& [name, n] : r.diagnostics) j.value(name, n);
    j.endObject();
    j.beginArray("diagnostic_details");
    for (const auto& [name, n] : r.diagnostics) {
        const DiagnosticDescription d = describeDiagnostic(name);
        j.beginObject();
        j.value("name", name);
        j.value("count", n);
        j.value("severity", severityName(d.severity));
        j.value("explanation", d.explanation);
        j.endObject();
    }
    j.endArray();
    const size_t bytes = r.memoryBytes();
    j.value("model_bytes", static_cast<uint64_t>(bytes));
    j.value("bytes_per_event", counts.slices ? static_cast<double>(bytes) / counts.slices : 0.0, 1);
    j.endObject();
    return j.str();
}

}  // namespace lanescope::cli
