// The native .nsys-rep reader against the SQLite export of the same file: the two reports
// compared in full (every lane, event, field, side-table row, thread, process, GPU, counter,
// overhead range and diagnostic, strings by their text), and every statistics table and rule.
#include <sys/wait.h>

#include <cstdio>
#include <sstream>
#include <tuple>

#include "Absent.h"
#include "ImportHelpers.h"
#include "analysis/Registry.h"
#include "importers/nsysrep/NativeReader.h"
#include "model/EventDetails.h"

using namespace lanescope;
using namespace lanescope::test;

namespace {

std::string text(const Report& r, uint32_t id) { return id == UINT32_MAX ? "<none>" : std::string(r.str(id)); }

// One event's payload as text, by kind, with strings resolved: equal texts = equal meaning.
std::string payloadText(const Report& r, EventKind kind, uint32_t p) {
    std::ostringstream o;
    switch (kind) {
        case EventKind::Kernel: {
            const KernelInfo& k = r.kernels.at(p);
            const KernelConfig& c = r.kernel_configs.at(k.config);
            o << "kernel corr=" << k.correlation_id << " grid=" << c.grid[0] << "," << c.grid[1] << "," << c.grid[2]
              << " block=" << c.block[0] << "," << c.block[1] << "," << c.block[2] << " regs=" << c.registers_per_thread
              << " smem=" << c.static_shared_bytes << "/" << c.dynamic_shared_bytes
              << " local=" << c.local_bytes_per_thread << " launch=" << int(c.launch_type)
              << " short=" << text(r, c.short_name_id);
            break;
        }
        case EventKind::Memcpy: {
            const MemcpyInfo& m = r.memcpys.at(p);
            o << "memcpy bytes=" << m.bytes << " corr=" << m.correlation_id << " kind=" << int(m.copy_kind)
              << " src=" << int(m.src_kind) << " dst=" << int(m.dst_kind);
            break;
        }
        case EventKind::Memset: {
            const MemsetInfo& m = r.memsets.at(p);
            o << "memset bytes=" << m.bytes << " corr=" << m.correlation_id << " value=" << m.value
              << " mem=" << int(m.mem_kind);
            break;
        }
        case EventKind::Sync: {
            const SyncInfo& s = r.syncs.at(p);
            o << "sync corr=" << s.correlation_id << " type=" << int(s.sync_type) << " eventsync=" << s.event_sync_id;
            break;
        }
        case EventKind::GraphExecution: {
            const GraphExecutionInfo& g = r.graph_executions.at(p);
            o << "graph corr=" << g.correlation_id << " id=" << g.graph_id << " exec=" << g.graph_exec_id;
            break;
        }
        case EventKind::GpuPageFault: {
            const GpuPageFaultInfo& f = r.gpu_page_faults.at(p);
            o << "gpu faults addr=" << f.address << " n=" << f.faults << " access=" << int(f.access_type);
            break;
        }
        case EventKind::NvtxRange: {
            if (p == kNoPayload) return "nvtx none";
            const NvtxInfo& n = r.nvtx.at(p);
            o << "nvtx color=" << n.color << " has=" << n.has_color << " domain=" << text(r, n.domain_name_id)
              << " cat=" << n.category << " startend=" << n.start_end;
            break;
        }
        default:
            o << "payload=" << p;
    }
    return o.str();
}

// A call stack as text, innermost frame first: equal texts = equal stacks.
std::string stackText(const Report& r, uint32_t stack) {
    std::string out = stack == kNoStack ? "<no stack>" : "";
    for (const StackFrameText& f : stackFrames(r, stack)) out += f.function + " @ " + f.module + " | ";
    return out;
}

// An instant's payload as text: a CPU sample's stack, a CUDA event record, a CPU page fault, an
// OS runtime start or stop's class, else an NVTX marker's attributes.
std::string instantPayloadText(const Report& r, const Lane& lane, uint32_t p) {
    std::ostringstream o;
    switch (lane.kind) {
        case LaneKind::CpuSamples:
            return stackText(r, p);
        case LaneKind::GpuStream: {
            const CudaEventInfo& e = r.cuda_events.at(p);
            o << "event record corr=" << e.correlation_id << " id=" << e.event_id << " sync=" << e.event_sync_id;
            return o.str();
        }
        case LaneKind::UmCpuPageFaults: {
            const CpuPageFaultInfo& f = r.cpu_page_faults.at(p);
            o << "cpu fault addr=" << f.address << " pc=" << f.fault_pc << " at=" << text(r, f.instruction_id)
              << " file=" << text(r, f.source_file_id) << " line=" << f.source_line
              << " module=" << text(r, f.module_id) << " unresolved=" << f.pc_unresolved;
            return o.str();
        }
        case LaneKind::OsRuntime:  // where tracing started (31) or stopped (32)
            return "class " + std::to_string(p);
        default:
            return payloadText(r, EventKind::NvtxRange, p);
    }
}

std::string laneText(const Report& r, const Lane& l) {
    std::ostringstream o;
    o << laneKindName(l.kind) << " '" << text(r, l.name_id) << "'";
    if (l.process >= 0) o << " pid " << r.processes.at(l.process).pid;
    if (l.thread >= 0) o << " tid " << r.threads.at(l.thread).tid;
    if (l.gpu >= 0) o << " gpu " << r.gpus.at(l.gpu).device_id;
    o << " stream " << l.stream_id << " context " << l.context_id << " depths " << int(l.depth_count) << " events "
      << l.events.size() << " instants " << l.instants.size();
    return o.str();
}

// Compares in full; on the first difference of each kind, says where.
// What an export holds of the report: a 2022.4 export has no SCHED_EVENTS.threadState, so the
// states recorded with the context switches are unknown to it.
enum class SwitchStates { Exported, NotExported };

// A thread-state payload without the recorded switch states (model/Lane.h).
uint32_t withoutRecordedStates(uint32_t payload) { return payload & ~uint32_t{0xFF0}; }

void compareReports(const Report& sql, const Report& rep, SwitchStates switchStates) {
    CHECK(rep.meta.producer == sql.meta.producer);
    if (sql.meta.start_utc_ns != 0) CHECK(rep.meta.start_utc_ns == sql.meta.start_utc_ns);
    CHECK(rep.meta.begin_ns == sql.meta.begin_ns);
    CHECK(rep.meta.end_ns == sql.meta.end_ns);

    REQUIRE(rep.processes.size() == sql.processes.size());
    for (size_t i = 0; i < sql.processes.size(); ++i) {
        INFO("process " << i);
        CHECK(rep.processes[i].pid == sql.processes[i].pid);
        CHECK(text(rep, rep.processes[i].name_id) == text(sql, sql.processes[i].name_id));
    }
    REQUIRE(rep.threads.size() == sql.threads.size());
    for (size_t i = 0; i < sql.threads.size(); ++i) {
        INFO("thread " << i);
        CHECK(rep.threads[i].tid == sql.threads[i].tid);
        CHECK(rep.threads[i].process == sql.threads[i].process);
        CHECK(text(rep, rep.threads[i].name_id) == text(sql, sql.threads[i].name_id));
        CHECK(rep.threads[i].priority == sql.threads[i].priority);
    }
    REQUIRE(rep.recorded_names.size() == sql.recorded_names.size());
    for (size_t i = 0; i < sql.recorded_names.size(); ++i) {
        INFO("recorded name " << i);
        CHECK(rep.recorded_names[i].pid == sql.recorded_names[i].pid);
        CHECK(rep.recorded_names[i].tid == sql.recorded_names[i].tid);
        CHECK(text(rep, rep.recorded_names[i].name_id) == text(sql, sql.recorded_names[i].name_id));
        CHECK(rep.recorded_names[i].priority == sql.recorded_names[i].priority);
    }
    REQUIRE(rep.gpus.size() == sql.gpus.size());
    for (size_t i = 0; i < sql.gpus.size(); ++i) {
        CHECK(rep.gpus[i].device_id == sql.gpus[i].device_id);
        CHECK(text(rep, rep.gpus[i].name_id) == text(sql, sql.gpus[i].name_id));
    }

    REQUIRE(rep.lanes.size() == sql.lanes.size());
    for (size_t li = 0; li < sql.lanes.size(); ++li) {
        const Lane &a = sql.lanes[li], &b = rep.lanes[li];
        INFO("lane " << li << ": " << laneText(sql, a) << " | native: " << laneText(rep, b));
        REQUIRE(laneText(rep, b) == laneText(sql, a));
        for (size_t i = 0; i < a.events.size(); ++i) {
            const IntervalColumns &x = a.events, &y = b.events;
            const bool comparable = switchStates == SwitchStates::Exported || x.kind[i] != EventKind::ThreadState;
            const uint32_t xp = comparable ? x.payload[i] : withoutRecordedStates(x.payload[i]);
            const uint32_t yp = comparable ? y.payload[i] : withoutRecordedStates(y.payload[i]);
            const bool same = x.start_ns[i] == y.start_ns[i] && x.endNs(i) == y.endNs(i) && x.kind[i] == y.kind[i] &&
                              x.depth[i] == y.depth[i] && text(sql, x.name_id[i]) == text(rep, y.name_id[i]) &&
                              payloadText(sql, x.kind[i], xp) == payloadText(rep, y.kind[i], yp);
            if (!same) {
                FAIL_CHECK("event " << i << ": export " << x.start_ns[i] << ".." << x.endNs(i) << " '"
                                    << text(sql, x.name_id[i]) << "' " << payloadText(sql, x.kind[i], x.payload[i])
                                    << " | native " << y.start_ns[i] << ".." << y.endNs(i) << " '"
                                    << text(rep, y.name_id[i]) << "' " << payloadText(rep, y.kind[i], y.payload[i]));
                break;
            }
        }
        CHECK(b.depth_order == a.depth_order);
        CHECK(b.depth_begin == a.depth_begin);
        for (size_t i = 0; i < a.instants.size(); ++i) {
            const InstantColumns &x = a.instants, &y = b.instants;
            const bool same = x.time_ns[i] == y.time_ns[i] && text(sql, x.name_id[i]) == text(rep, y.name_id[i]) &&
                              instantPayloadText(sql, a, x.payload[i]) == instantPayloadText(rep, b, y.payload[i]);
            if (!same) {
                FAIL_CHECK("instant " << i << ": export " << x.time_ns[i] << " '" << text(sql, x.name_id[i])
                                      << "' | native " << y.time_ns[i] << " '" << text(rep, y.name_id[i]) << "'");
                break;
            }
        }
    }

    REQUIRE(rep.counters.size() == sql.counters.size());  // GPU metrics, CUDA memory usage
    for (size_t i = 0; i < sql.counters.size(); ++i) {
        const Counter &a = sql.counters[i], &b = rep.counters[i];
        INFO("counter " << text(sql, a.name_id));
        CHECK(text(rep, b.name_id) == text(sql, a.name_id));
        CHECK(text(rep, b.unit_id) == text(sql, a.unit_id));
        CHECK(b.gpu == a.gpu);
        CHECK(b.process == a.process);
        CHECK(b.time_ns == a.time_ns);
        CHECK(b.value == a.value);
    }

    REQUIRE(rep.backtraces.size() == sql.backtraces.size());  // of CUDA API and OS runtime calls
    for (size_t i = 0; i < sql.backtraces.size(); ++i) {
        const CallBacktrace &a = sql.backtraces[i], &b = rep.backtraces[i];
        if (a.key() != b.key() || stackText(sql, a.stack) != stackText(rep, b.stack)) {
            FAIL_CHECK("backtrace " << i << ": export thread " << a.thread << " at " << a.start_ns << ": "
                                    << stackText(sql, a.stack) << " | native thread " << b.thread << " at "
                                    << b.start_ns << ": " << stackText(rep, b.stack));
            break;
        }
    }
    CHECK(rep.stacks.frameCount() == sql.stacks.frameCount());
    CHECK(rep.stacks.nodeCount() == sql.stacks.nodeCount());
    // The frames' details: per backtrace (its frames from first_detail), and the samples' in file order.
    auto detailsText = [](const Report& r, uint32_t first, uint32_t stack) {
        std::ostringstream o;
        for (uint32_t node = stack; node != kNoStack && first != kNoFrameDetails; node = r.stacks.node_parent[node]) {
            const FrameDetail& d = r.backtrace_frame_details.at(first++);
            o << d.original_ip << '/' << d.has_original_ip << '/' << int(d.kernel_mode) << '/' << int(d.thumb_code)
              << '/' << int(d.unresolved) << '/' << int(d.unwind_method) << ' ';
        }
        return o.str();
    };
    for (size_t i = 0; i < sql.backtraces.size(); ++i) {
        const CallBacktrace &a = sql.backtraces[i], &b = rep.backtraces[i];
        INFO("backtrace " << i << " at " << a.start_ns);
        CHECK(detailsText(rep, b.first_detail, b.stack) == detailsText(sql, a.first_detail, a.stack));
    }
    REQUIRE(rep.sample_frame_details.size() == sql.sample_frame_details.size());
    for (size_t i = 0; i < sql.sample_frame_details.size(); ++i) {
        const FrameDetail &a = sql.sample_frame_details[i], &b = rep.sample_frame_details[i];
        INFO("sample frame " << i);
        CHECK(b.original_ip == a.original_ip);
        CHECK(b.has_original_ip == a.has_original_ip);
        CHECK(b.kernel_mode == a.kernel_mode);
        CHECK(b.thumb_code == a.thumb_code);
        CHECK(b.unresolved == a.unresolved);
        CHECK(b.unwind_method == a.unwind_method);
    }

    REQUIRE(rep.profiler_overhead.size() == sql.profiler_overhead.size());
    for (size_t i = 0; i < sql.profiler_overhead.size(); ++i) {
        const OverheadRange &a = sql.profiler_overhead[i], &b = rep.profiler_overhead[i];
        CHECK(b.start_ns == a.start_ns);
        CHECK(b.end_ns == a.end_ns);
        CHECK(b.process == a.process);
        CHECK(b.thread == a.thread);
        CHECK(text(rep, b.name_id) == text(sql, a.name_id));
    }
    REQUIRE(rep.process_streams.size() == sql.process_streams.size());  // the processes' output files
    for (size_t i = 0; i < sql.process_streams.size(); ++i) {
        const ProcessStream &a = sql.process_streams[i], &b = rep.process_streams[i];
        INFO("kept file " << i);
        CHECK(b.global_pid == a.global_pid);
        CHECK(text(rep, b.filename_id) == text(sql, a.filename_id));
        CHECK(text(rep, b.content_id) == text(sql, a.content_id));
    }
    if (!sql.capture_options.empty()) {  // exports before 2025 have no META_DATA_CAPTURE
        REQUIRE(rep.capture_options.size() == sql.capture_options.size());
        for (size_t i = 0; i < sql.capture_options.size(); ++i) {
            INFO("capture setting " << i);
            CHECK(text(rep, rep.capture_options[i].name_id) == text(sql, sql.capture_options[i].name_id));
            CHECK(text(rep, rep.capture_options[i].value_id) == text(sql, sql.capture_options[i].value_id));
        }
    }
    REQUIRE(rep.generic_event_sources.size() == sql.generic_event_sources.size());  // the generic-event schema
    for (size_t i = 0; i < sql.generic_event_sources.size(); ++i) {
        const GenericEventSource &a = sql.generic_event_sources[i], &b = rep.generic_event_sources[i];
        CHECK(b.source_id == a.source_id);
        CHECK(text(rep, b.name_id) == text(sql, a.name_id));
        CHECK(b.time_source == a.time_source);
    }
    REQUIRE(rep.generic_event_types.size() == sql.generic_event_types.size());
    for (size_t i = 0; i < sql.generic_event_types.size(); ++i) {
        CHECK(rep.generic_event_types[i].type_id == sql.generic_event_types[i].type_id);
        CHECK(text(rep, rep.generic_event_types[i].name_id) == text(sql, sql.generic_event_types[i].name_id));
    }
    REQUIRE(rep.generic_event_fields.size() == sql.generic_event_fields.size());
    for (size_t i = 0; i < sql.generic_event_fields.size(); ++i) {
        const GenericEventField &a = sql.generic_event_fields[i], &b = rep.generic_event_fields[i];
        INFO("generic event field " << i);
        CHECK(b.type_id == a.type_id);
        CHECK(b.index == a.index);
        CHECK(text(rep, b.name_id) == text(sql, a.name_id));
        CHECK(b.offset == a.offset);
        CHECK(b.size == a.size);
        CHECK(b.type == a.type);
    }
    REQUIRE(rep.migrations.size() == sql.migrations.size());  // unified memory
    for (size_t i = 0; i < sql.migrations.size(); ++i) {
        const Migration &a = sql.migrations[i], &b = rep.migrations[i];
        INFO("migration " << i);
        CHECK(b.memcpy == a.memcpy);
        CHECK(b.cause == a.cause);
        CHECK(b.virtual_address == a.virtual_address);
    }
    REQUIRE(rep.kernel_graph_nodes.size() == sql.kernel_graph_nodes.size());  // kernels traced as graph nodes
    for (size_t i = 0; i < sql.kernel_graph_nodes.size(); ++i) {
        CHECK(rep.kernel_graph_nodes[i].kernel == sql.kernel_graph_nodes[i].kernel);
        CHECK(rep.kernel_graph_nodes[i].graph_node_id == sql.kernel_graph_nodes[i].graph_node_id);
    }
    REQUIRE(rep.graph_api_events.size() == sql.graph_api_events.size());  // CUDA_GRAPH_EVENTS, _NODE_EVENTS
    for (size_t i = 0; i < sql.graph_api_events.size(); ++i) {
        const GraphApiEvent &a = sql.graph_api_events[i], &b = rep.graph_api_events[i];
        INFO("graph event " << i << " at " << a.start_ns);
        CHECK(b.start_ns == a.start_ns);
        CHECK(b.end_ns == a.end_ns);
        CHECK(b.thread == a.thread);
        CHECK(text(rep, b.name_id) == text(sql, a.name_id));
        CHECK(b.node == a.node);
        CHECK(b.graph_id == a.graph_id);
        CHECK(b.original_graph_id == a.original_graph_id);
        CHECK(b.graph_exec_id == a.graph_exec_id);
    }
    // DIAGNOSTIC_EVENT; exports by 2022.4 have no such table (the 2025.3 exports of the same
    // reports have it, and are compared too).
    if (!sql.nsys_messages.empty()) REQUIRE(rep.nsys_messages.size() == sql.nsys_messages.size());
    for (size_t i = 0; i < sql.nsys_messages.size(); ++i) {
        const NsysMessage &a = sql.nsys_messages[i], &b = rep.nsys_messages[i];
        INFO("message " << i << ": " << a.text);
        CHECK(b.time_ns == a.time_ns);
        CHECK(b.time_source == a.time_source);
        CHECK(b.source == a.source);
        CHECK(b.severity == a.severity);
        CHECK(b.process == a.process);
        CHECK(b.text == a.text);
    }
    CHECK(rep.graph_executions.size() == sql.graph_executions.size());
    REQUIRE(rep.cuda_events.size() == sql.cuda_events.size());  // in the file's order, CUDA_EVENT's
    for (size_t i = 0; i < sql.cuda_events.size(); ++i) {
        const CudaEventInfo &a = sql.cuda_events[i], &b = rep.cuda_events[i];
        INFO("CUDA event record " << i);
        CHECK(b.correlation_id == a.correlation_id);
        CHECK(b.event_id == a.event_id);
        CHECK(b.event_sync_id == a.event_sync_id);
    }
    // The file's order of calls, samples and context switches (the SQL tables' rows), run by run.
    const auto& [osrt, cudaApi, samples, sched] = sql.file_order;
    for (const auto& [name, x, y] :
         {std::tuple{"osrt", &osrt, &rep.file_order.osrt}, std::tuple{"cuda_api", &cudaApi, &rep.file_order.cuda_api},
          std::tuple{"cpu_samples", &samples, &rep.file_order.cpu_samples},
          std::tuple{"sched", &sched, &rep.file_order.sched}}) {
        INFO("file_order." << name << ": " << x->size() << " runs exported, " << y->size() << " native");
        CHECK((*y == *x));
    }
    CHECK(rep.cpu_page_faults.size() == sql.cpu_page_faults.size());
    CHECK(rep.gpu_page_faults.size() == sql.gpu_page_faults.size());
    CHECK(rep.cpu_utilization_counter == sql.cpu_utilization_counter);
    REQUIRE(rep.cuda_api_results.size() == sql.cuda_api_results.size());  // non-zero CUDA API results
    for (size_t i = 0; i < sql.cuda_api_results.size(); ++i) {
        const CallResult &a = sql.cuda_api_results[i], &b = rep.cuda_api_results[i];
        INFO("result " << i << " at " << a.start_ns);
        CHECK(b.key() == a.key());
        CHECK(b.result == a.result);
    }
    CHECK(rep.nvtx_other_starts_ns == sql.nvtx_other_starts_ns);  // domain creations, ... (RangeIds)
    REQUIRE(rep.nvtx_domains.size() == sql.nvtx_domains.size());
    for (size_t i = 0; i < sql.nvtx_domains.size(); ++i) {
        const NvtxDomainCreation &a = sql.nvtx_domains[i], &b = rep.nvtx_domains[i];
        CHECK(b.start_ns == a.start_ns);
        CHECK(b.thread == a.thread);
        CHECK(rep.str(b.name_id) == sql.str(a.name_id));
    }
    CHECK(rep.diagnostics == sql.diagnostics);
}

// Every statistics table and rule gives the same CSV on both.
void compareAnalyses(const Report& sql, const Report& rep) {
    for (const StatsReportEntry& entry : statsReports()) {
        INFO(entry.name);
        CHECK(toCsv(entry.compute(rep, TimeRange::all(), {})) == toCsv(entry.compute(sql, TimeRange::all(), {})));
    }
    for (const RuleEntry& rule : rules()) {
        INFO(rule.name);
        const RuleOptions options = rule.name == "gpu_gaps" ? RuleOptions{{{"gap", "1"}}} : RuleOptions{};
        CHECK(toCsv(rule.run(rep, options).table) == toCsv(rule.run(sql, options).table));
    }
}

void checkPair(const std::filesystem::path& rep, const std::filesystem::path& sqlite,
               SwitchStates switchStates = SwitchStates::Exported) {
    INFO(rep.filename().string());
    const auto native = importOk(rep);
    const auto exported = importOk(sqlite);
    CHECK(native->meta.reader == "native");
    CHECK(native->meta.format == "nsys-rep");
    CHECK(!native->meta.nsys_version.empty());
    compareReports(*exported, *native, switchStates);
    compareAnalyses(*exported, *native);
}

}  // namespace

TEST_CASE("native .nsys-rep equals its SQLite export: Nsight Systems 2025.3 captures") {
    for (const char* name : {"train_1gpu", "ddp_rank0", "ddp_rank1", "cpu_1gpu", "train_metrics"})
        checkPair(dataFile(std::string("nsys-2025.3/") + name + ".nsys-rep"),
                  dataFile(std::string("nsys-2025.3/") + name + ".sqlite"));
}

TEST_CASE(
    "native .nsys-rep equals its SQLite export: CUDA graphs, unified memory, event records, torch.compile "
    "(2025.3)") {
    for (const char* name : {"cuda_graphs", "cuda_graphs_nodes", "unified_memory", "torch_compile",
                             "torch_compile_graphs", "ddp_both_ranks", "two_gpus_one_process", "occupancy"})
        checkPair(dataFile(std::string("nsys-2025.3/") + name + ".nsys-rep"),
                  dataFile(std::string("nsys-2025.3/") + name + ".sqlite"));
}

TEST_CASE("native .nsys-rep equals its SQLite export: a 2022.4 capture, exported by 2022.4 and 2025.3") {
    checkPair(dataFile("nsys-2022.4/cpu_nvtx_threads.nsys-rep"), dataFile("nsys-2022.4/cpu_nvtx_threads.sqlite"));
    const auto export25 = sharedFile("nsys-2025.3-exports/cpu_nvtx_threads.sqlite");
    if (export25.empty()) LANESCOPE_SKIP_ABSENT("../shared/corpus/nsys-2025.3-exports");
    checkPair(dataFile("nsys-2022.4/cpu_nvtx_threads.nsys-rep"), export25);
}

TEST_CASE("native .nsys-rep equals its SQLite export: a 2022.4 OpenMP capture") {
    checkPair(dataFile("nsys-2022.4/openmp_loops.nsys-rep"), dataFile("nsys-2022.4/openmp_loops.sqlite"));
}

TEST_CASE("native .nsys-rep equals its SQLite export: NVTX ranges with core payloads share their rows (2022.4)") {
    const auto rep = dataFile("nsys-2022.4/nvtx_payloads.nsys-rep");
    const auto sqlite = dataFile("nsys-2022.4/nvtx_payloads.sqlite");
    checkPair(rep, sqlite);
    // The 120 ranges with a uint64 payload (field 8 { 1 value }, no extended payload) share
    // their NvtxInfo row with the other ranges of their domain, colour and category, as the
    // export's reader shares them: one row each would be 32 bytes an event for nothing.
    const auto native = importOk(rep), exported = importOk(sqlite);
    CHECK(native->counts().nvtx == 2000);
    CHECK(native->nvtx.size() == exported->nvtx.size());
    CHECK(native->nvtx.size() < 40);
    CHECK(native->nvtx_payloads.rows.empty());
}

// Against the 2022.4 exports beside them: nsys 2025.3 exporting these older reports reads the
// sync type from the 2025 field (every sync comes out "Unknown") and moves the MPI domain's
// NVTX ranges into MPI tables; the file itself holds what the older exporter shows
// (docs/nsys-rep-format.md, "Across versions").
TEST_CASE("native .nsys-rep equals its SQLite export: public 2022.2 and 2020.5 reports (../shared/corpus/public)",
          "[more-reports]") {
    const auto baseline = sharedFile("public/openhackathons-org__AI-Profiler__baseline_nvtx.nsys-rep");
    if (baseline.empty()) LANESCOPE_SKIP_ABSENT("../shared/corpus/public");
    checkPair(baseline, sharedFile("public/openhackathons-org__AI-Profiler__baseline_nvtx.sqlite"),
              SwitchStates::NotExported);
    const auto dir = tempDir("native-public");
    for (const char* r : {"3", "4", "6"}) {
        const std::string stem = std::string("public/mpi-jacobi/openhackathons-org__gpubootcamp__report") + r;
        checkPair(sharedFile(stem + ".qdrep"), inflatedXz(sharedFile(stem + ".sqlite.xz"), dir),
                  SwitchStates::NotExported);
    }
    std::filesystem::remove_all(dir);
}

TEST_CASE("native reader: the recorded version, the reader, and nsys never run") {
    const auto report = importOk(dataFile("nsys-2025.3/train_1gpu.nsys-rep"));
    CHECK(report->meta.nsys_version == "2025.3.1.0");
    CHECK(report->meta.version == "2025.3.1.0");
    CHECK(report->meta.start_utc_ns == 1795316027191150611);  // the export's utcEpochNs
    CHECK(nsysrep::recordedVersion(dataFile("nsys-2022.4/cpu_nvtx_threads.nsys-rep")).starts_with("2022.4"));
    // No nsys anywhere: the native reader does not need one.
    ImportOptions options;
    options.nsys_path = "/nonexistent/nsys";
    CHECK(importOk(dataFile("nsys-2025.3/train_1gpu.nsys-rep"), options)->counts().kernels == 1950);
    // The export path, asked for while LANESCOPE_NSYS=off, says why it will not run.
    ::setenv("LANESCOPE_NSYS", "off", 1);
    options.nsys_reader = NsysReader::NsysExport;
    const ImportError e = importError(dataFile("nsys-2025.3/train_1gpu.nsys-rep"), options);
    ::unsetenv("LANESCOPE_NSYS");
    CHECK(e.kind == ImportError::Kind::NsysMissing);
    CHECK(e.message.find("LANESCOPE_NSYS=off") != std::string::npos);
}
