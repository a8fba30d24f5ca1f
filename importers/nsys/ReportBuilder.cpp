#include "importers/nsys/ReportBuilder.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <functional>
#include <limits>
#include <thread>
#include <tuple>
#include <type_traits>

#include "importers/WorkerErrors.h"
#include "importers/nsys/NvtxPayloadStaging.h"
#include "importers/nsys/SyncLanePlacement.h"
#include "model/DiagnosticKinds.h"

namespace lanescope::nsys {
namespace {

constexpr int64_t kDenseStringIdLimit = 64 * 1024 * 1024;

// Appends column `pick` of each part (LanePart) to `to`, each value first made the report's in
// place, through map(value, part) where one is given. Into an empty column the parts' own pages
// move (StagingColumn::append and intoColumn): nothing is copied and no fresh page written.
// Otherwise the values are copied into a column sized once, each part's pages faulted in as it
// comes and the part freed once copied.
template <typename T, typename Pick, typename Map>
void appendParts(Column<T>& to, const std::vector<LanePart>& from, Pick pick, Map map) {
    if constexpr (!std::is_same_v<Map, std::nullptr_t>)
        for (const LanePart& part : from) {
            StagingColumn<T>& column = pick(*part.lane);
            for (size_t i = 0; i < column.size(); ++i) column[i] = map(column[i], part);
        }
    if (to.empty()) {
        StagingColumn<T>& joined = pick(*from.front().lane);
        for (size_t p = 1; p < from.size(); ++p) joined.append(std::move(pick(*from[p].lane)));
        to = joined.intoColumn();
        return;
    }
    size_t total = to.size();
    for (const LanePart& part : from) total += pick(*part.lane).size();
    to.reserve(total);
    for (const LanePart& part : from) {
        StagingColumn<T>& column = pick(*part.lane);
        faultInUpTo(to, to.size() + column.size());
        to.insert(to.end(), column.begin(), column.end());
        column.release();
    }
}

// Runs the jobs on up to `threads` threads (this one among them), each job once.
void runJobs(const std::vector<std::function<void()>>& jobs, unsigned threads) {
    std::atomic<size_t> next{0};
    auto work = [&] {
        for (size_t i; (i = next.fetch_add(1)) < jobs.size();) jobs[i]();
    };
    WorkerErrors errors;
    std::vector<std::jthread> helpers;
    for (unsigned t = 1; t < std::min<size_t>(threads, jobs.size()); ++t) helpers.emplace_back(errors.guard(work));
    errors.guard(work)();
    helpers.clear();
    errors.rethrow();
}

}  // namespace

uint32_t ChunkIds::eventPayload(EventKind kind, uint32_t payload) const {
    switch (kind) {
        case EventKind::Kernel:
            return payload + kernel;
        case EventKind::Memcpy:
            return payload + memcpy;
        case EventKind::Memset:
            return payload + memset;
        case EventKind::Sync:
            return payload + sync;
        case EventKind::GraphExecution:
            return payload + graph;
        case EventKind::GpuPageFault:
            return payload + gpu_fault;
        case EventKind::NvtxRange:
            return nvtx[payload];
        default:
            return payload;
    }
}

uint32_t ChunkIds::instantPayload(LaneKind lane, uint32_t payload) const {
    if (lane == LaneKind::CpuSamples) return stack(payload);            // a stack id
    if (lane == LaneKind::UmCpuPageFaults) return payload + cpu_fault;  // a row of cpu_page_faults
    if (lane == LaneKind::OsRuntime) return payload;                    // the event class (model/Lane.h)
    return payload != kNoPayload ? nvtx[payload] : payload;             // a row of nvtx
}

NvtxKey NvtxKey::of(const NvtxInfo& info) {
    return {(uint64_t{info.color} << 32) | info.category, (uint64_t{info.domain_name_id} << 3) |
                                                              (uint64_t{info.registered_name} << 2) |
                                                              (uint64_t{info.has_color} << 1) | info.start_end};
}

uint32_t EventChunk::nvtxRow(const NvtxInfo& info) {
    const NvtxKey key = NvtxKey::of(info);
    if (lastNvtxRow_ != UINT32_MAX && key == lastNvtxKey_) return lastNvtxRow_;
    lastNvtxKey_ = key;
    const auto hash = static_cast<uint32_t>(NvtxKeyHash{}(key));
    uint32_t row = nvtxIndex.find(hash, [&](uint32_t r) { return nvtxKeys[r] == key; });
    if (row == IdIndex::kAbsent) {
        row = static_cast<uint32_t>(nvtx.size());
        nvtx.push_back(info);
        nvtxKeys.push_back(key);
        nvtxIndex.insert(hash, row);
    }
    return lastNvtxRow_ = row;
}

void EventChunk::noteNvtx(int64_t start, int64_t globalTid, NvtxHolder holder) {
    const PendingNvtxTie e{start, holder == NvtxHolder::Other ? 0 : globalTid, holder};
    const bool tied = nvtxSeen > 0 && start == lastNvtx.start_ns;
    if (tied) {
        if (!lastNvtxTied) nvtxTies.push_back(lastNvtx);
        if (nvtxSeen == 1) firstNvtxTied = true;
        nvtxTies.push_back(e);
    }
    if (nvtxSeen++ == 0) firstNvtx = e;
    lastNvtx = e;
    lastNvtxTied = tied;
}

uint32_t EventChunk::kernelConfigRow(const KernelConfig& config) {
    auto [it, inserted] = kernelConfigIndex.try_emplace(config, static_cast<uint32_t>(kernelConfigs.size()));
    if (inserted) kernelConfigs.push_back(config);
    return it->second;
}

bool ReportBuilder::loadStringIds(const SqliteDb& db, std::string& error) {
    SqliteStmt stmt(db, "SELECT id, value FROM StringIds");
    if (!stmt.prepared()) {
        error = stmt.error();
        return false;
    }
    // Ids 0..n-1 in order (every export seen) keep their ids, as the native reader's
    // (setStrings); others are interned.
    std::vector<std::string> table;
    std::vector<std::pair<int64_t, std::string>> others;
    while (stmt.step()) {
        const int64_t id = stmt.i64(0);
        if (others.empty() && id == static_cast<int64_t>(table.size()))
            table.emplace_back(stmt.text(1));
        else
            others.emplace_back(id, stmt.text(1));
    }
    if (!stmt.ok()) {
        error = stmt.error();
        return false;
    }
    setStrings(table);
    for (auto& [id, text] : others) {
        const uint32_t value = report_.strings.intern(text);
        if (id >= 0 && id < kDenseStringIdLimit) {
            if (static_cast<size_t>(id) >= stringIds_.size())
                stringIds_.resize(static_cast<size_t>(id) + 1, UINT32_MAX);
            stringIds_[static_cast<size_t>(id)] = value;
        } else {
            sparseStringIds_[id] = value;
        }
    }
    return true;
}

void ReportBuilder::setStrings(const std::vector<std::string>& strings) {
    // The file's string table keeps its ids (model/StringPool.h adoptTable) when the pool is
    // still new; otherwise its strings are interned.
    if (report_.strings.size() == 1 && !strings.empty()) report_.strings.adoptTable(strings);
    stringIds_.resize(strings.size());
    for (size_t i = 0; i < strings.size(); ++i)
        stringIds_[i] = i == 0 || report_.strings.tableSize() != strings.size() ? report_.strings.intern(strings[i])
                                                                                : static_cast<uint32_t>(i);
}

void ReportBuilder::setProcessName(int64_t globalPid, std::string_view name) {
    entities_.nameProcess(globalPid, pidOf(globalPid), report_.strings.intern(name));
}

void ReportBuilder::setThreadName(int64_t globalTid, int64_t nsysStringId) {
    const uint32_t name = string(nsysStringId);
    if (name != UINT32_MAX) entities_.nameThread(globalPidOf(globalTid), pidOf(globalTid), tidOf(globalTid), name);
}

void ReportBuilder::setThreadPriority(int64_t globalTid, int32_t priority) {
    entities_.setThreadPriority(globalPidOf(globalTid), tidOf(globalTid), priority);
}

void ReportBuilder::setGpuName(int64_t cudaDeviceId, std::string_view name) {
    entities_.nameGpu(cudaDeviceId, report_.strings.intern(name));
}

uint32_t ReportBuilder::string(int64_t nsysId) const {
    if (nsysId >= 0 && static_cast<uint64_t>(nsysId) < stringIds_.size() &&
        stringIds_[static_cast<size_t>(nsysId)] != UINT32_MAX)
        return stringIds_[static_cast<size_t>(nsysId)];
    auto it = sparseStringIds_.find(nsysId);
    return it == sparseStringIds_.end() ? UINT32_MAX : it->second;
}

void ReportBuilder::loadProcessesAndThreads(const SqliteDb& db) {
    if (auto sql = selectByName(db, "PROCESSES", {"globalPid", "name"}, {"globalPid"})) {
        SqliteStmt stmt(db, *sql);
        while (stmt.step()) setProcessName(stmt.i64(0), stmt.text(1));
    }
    if (auto sql = selectByName(db, "ThreadNames", {"globalTid", "nameId", "priority"}, {"globalTid", "nameId"})) {
        SqliteStmt stmt(db, *sql);
        while (stmt.step()) {
            setThreadName(stmt.i64(0), stmt.i64(1));
            if (!stmt.isNull(2)) setThreadPriority(stmt.i64(0), static_cast<int32_t>(stmt.i64(2)));
        }
    }
}

void ReportBuilder::loadGpus(const SqliteDb& db) {
    // The CUDA device id of a GPU: TARGET_INFO_GPU.cuDevice where the schema has it,
    // otherwise through TARGET_INFO_CUDA_DEVICE (gpuId -> cudaId), otherwise its id.
    std::unordered_map<int64_t, int64_t> cudaIdOfGpu;
    if (auto sql = selectByName(db, "TARGET_INFO_CUDA_DEVICE", {"gpuId", "cudaId"}, {"gpuId", "cudaId"})) {
        SqliteStmt stmt(db, *sql);
        while (stmt.step()) cudaIdOfGpu[stmt.i64(0)] = stmt.i64(1);
    }
    if (auto sql = selectByName(db, "TARGET_INFO_GPU", {"id", "name", "cuDevice"}, {"id", "name"})) {
        SqliteStmt stmt(db, *sql);
        while (stmt.step()) {
            int64_t cudaId = stmt.i64(0);
            if (!stmt.isNull(2))
                cudaId = stmt.i64(2);
            else if (auto it = cudaIdOfGpu.find(stmt.i64(0)); it != cudaIdOfGpu.end())
                cudaId = it->second;
            entities_.nameGpu(cudaId, report_.strings.intern(stmt.text(1)));
        }
    }
    // Every GPU of the machine, with whichever properties this export's schema has.
    std::vector<std::string> wanted;
    for (const GpuPropertyColumn& column : gpuPropertyColumns()) wanted.emplace_back(column.name);
    if (auto sql = selectByName(db, "TARGET_INFO_GPU", wanted, {"id"})) {
        SqliteStmt stmt(db, *sql);
        while (stmt.step()) {
            MachineGpu& gpu = report_.machine_gpus.emplace_back();
            for (size_t p = 0; p < kGpuPropertyCount; ++p) {
                const int column = static_cast<int>(p);
                if (stmt.isNull(column)) continue;
                gpu.values[p] = gpuPropertyColumns()[p].text ? int64_t{report_.strings.intern(stmt.text(column))}
                                                             : stmt.i64(column);
            }
        }
    }
}

int32_t ReportBuilder::processIndex(int64_t globalPid) { return entities_.process(globalPid, pidOf(globalPid)); }

int32_t ReportBuilder::threadIndex(int64_t globalTid) {
    return entities_.thread(globalPidOf(globalTid), pidOf(globalTid), tidOf(globalTid));
}

int32_t ReportBuilder::gpuIndex(int64_t deviceId) { return entities_.gpu(deviceId); }

size_t ReportBuilder::laneIndex(const LaneKey& key) {
    auto [it, inserted] = lanes_.try_emplace(key, report_.lanes.size());
    if (inserted) {
        Lane lane;
        lane.kind = key.kind;
        lane.name_id = report_.strings.intern(EntityRegistry::defaultLaneName(key.kind, key.stream));
        const bool gpuLane = key.kind == LaneKind::GpuStream || key.kind == LaneKind::CudaSync ||
                             key.kind == LaneKind::Nccl || key.kind == LaneKind::UnifiedMemory;
        if (key.kind == LaneKind::CpuCore) {
            lane.cpu = static_cast<int32_t>(key.owner);
            lane.name_id = report_.strings.intern("CPU " + std::to_string(key.owner));
        } else if (gpuLane) {
            lane.process = processIndex(key.owner);
            lane.gpu = key.device >= 0 ? gpuIndex(key.device) : -1;
            lane.stream_id = key.stream;
            lane.context_id = key.context;
        } else if (key.kind == LaneKind::UmCpuPageFaults) {  // nsys records the process only
            lane.process = processIndex(key.owner);
        } else {
            lane.thread = threadIndex(key.owner);
            lane.process = report_.threads[static_cast<size_t>(lane.thread)].process;
        }
        report_.lanes.push_back(std::move(lane));
    }
    return it->second;
}

ChunkIds ReportBuilder::resolveChunk(EventChunk& chunk) {
    ChunkIds ids;
    std::vector<uint32_t>& localToGlobal = ids.strings;
    localToGlobal.resize(chunk.strings.size());
    for (uint32_t i = 0; i < chunk.strings.size(); ++i) localToGlobal[i] = report_.strings.intern(chunk.strings.str(i));
    auto resolveName = [&](uint32_t id) { return ids.name(id); };

    std::vector<uint32_t>& nvtxToGlobal = ids.nvtx;
    nvtxToGlobal.resize(chunk.nvtx.size());
    for (size_t i = 0; i < chunk.nvtx.size(); ++i) {
        if (chunk.nvtxKeys[i].own) {
            nvtxToGlobal[i] = static_cast<uint32_t>(report_.nvtx.size());
            report_.nvtx.push_back(chunk.nvtx[i]);
            continue;
        }
        auto [it, inserted] = nvtxIndex_.try_emplace(chunk.nvtxKeys[i], static_cast<uint32_t>(report_.nvtx.size()));
        if (inserted) report_.nvtx.push_back(chunk.nvtx[i]);
        nvtxToGlobal[i] = it->second;
    }
    mergePayloads(chunk, nvtxToGlobal, report_.nvtx_payloads);
    ids.kernel = static_cast<uint32_t>(report_.kernels.size());
    ids.memcpy = static_cast<uint32_t>(report_.memcpys.size());
    ids.memset = static_cast<uint32_t>(report_.memsets.size());
    ids.sync = static_cast<uint32_t>(report_.syncs.size());
    ids.graph = static_cast<uint32_t>(report_.graph_executions.size());
    ids.gpu_fault = static_cast<uint32_t>(report_.gpu_page_faults.size());
    ids.cpu_fault = static_cast<uint32_t>(report_.cpu_page_faults.size());
    std::vector<uint32_t> configToGlobal(chunk.kernelConfigs.size());
    for (size_t i = 0; i < chunk.kernelConfigs.size(); ++i) {
        KernelConfig config = chunk.kernelConfigs[i];
        config.short_name_id = resolveName(config.short_name_id);
        if (config.mangled_name_id != KernelConfig::kNoMangledName)
            config.mangled_name_id = resolveName(config.mangled_name_id);
        auto [it, inserted] =
            kernelConfigIndex_.try_emplace(config, static_cast<uint32_t>(report_.kernel_configs.size()));
        if (inserted) report_.kernel_configs.push_back(config);
        configToGlobal[i] = it->second;
    }
    for (KernelInfo k : chunk.kernels) {
        k.config = configToGlobal[k.config];
        report_.kernels.push_back(k);
    }
    report_.memcpys.insert(report_.memcpys.end(), chunk.memcpys.begin(), chunk.memcpys.end());
    report_.memsets.insert(report_.memsets.end(), chunk.memsets.begin(), chunk.memsets.end());
    report_.syncs.insert(report_.syncs.end(), chunk.syncs.begin(), chunk.syncs.end());
    report_.graph_executions.insert(report_.graph_executions.end(), chunk.graphExecutions.begin(),
                                    chunk.graphExecutions.end());
    report_.gpu_page_faults.insert(report_.gpu_page_faults.end(), chunk.gpuPageFaults.begin(),
                                   chunk.gpuPageFaults.end());
    for (CpuPageFaultInfo f : chunk.cpuPageFaults) {
        f.instruction_id = resolveName(f.instruction_id);
        f.source_file_id = resolveName(f.source_file_id);
        f.module_id = resolveName(f.module_id);
        report_.cpu_page_faults.push_back(f);
    }
    for (Migration m : chunk.migrations) {
        m.memcpy += ids.memcpy;
        report_.migrations.push_back(m);
    }
    for (PeerCopy c : chunk.peerCopies) {
        c.memcpy += ids.memcpy;
        report_.peer_copies.push_back(c);
    }
    for (KernelGraphNode n : chunk.kernelGraphNodes) {
        n.kernel += ids.kernel;
        report_.kernel_graph_nodes.push_back(n);
    }
    cudaEvents_.insert(cudaEvents_.end(), chunk.cudaEvents.begin(), chunk.cudaEvents.end());
    for (PendingGraphApiEvent e : chunk.graphApiEvents) {
        e.event.name_id = resolveName(e.event.name_id);
        graphApiEvents_.push_back(e);
    }
    for (PendingNsysMessage& m : chunk.nsysMessages) nsysMessages_.push_back(std::move(m));
    for (PendingDomain d : chunk.domains) {
        d.name_id = resolveName(d.name_id);
        domains_.push_back(d);
    }
    ids.stacks = stacks_.merge(chunk.stacks.stacks(), resolveName);
    const auto detailBase = static_cast<uint32_t>(report_.backtrace_frame_details.size());
    report_.backtrace_frame_details.insert(report_.backtrace_frame_details.end(), chunk.backtraceFrameDetails.begin(),
                                           chunk.backtraceFrameDetails.end());
    for (PendingBacktrace b : chunk.backtraces) {
        b.stack = ids.stack(b.stack);
        if (b.first_detail != kNoFrameDetails) b.first_detail += detailBase;
        backtraces_.push_back(b);
    }
    report_.sample_frame_details.insert(report_.sample_frame_details.end(), chunk.sampleFrameDetails.begin(),
                                        chunk.sampleFrameDetails.end());
    sched_.insert(sched_.end(), chunk.sched.begin(), chunk.sched.end());
    results_.insert(results_.end(), chunk.callResults.begin(), chunk.callResults.end());
    unusualSamples_.insert(unusualSamples_.end(), chunk.unusualSamples.begin(), chunk.unusualSamples.end());
    nvtxOtherStarts_.insert(nvtxOtherStarts_.end(), chunk.nvtxOtherStarts.begin(), chunk.nvtxOtherStarts.end());
    if (chunk.nvtxSeen > 0) {
        // A tie across the chunks' border: the last event before it and the chunk's first.
        const bool across = anyNvtx_ && chunk.firstNvtx.start_ns == lastNvtx_.start_ns;
        if (across && !lastNvtxTied_) nvtxTies_.push_back(lastNvtx_);
        if (across && !chunk.firstNvtxTied) nvtxTies_.push_back(chunk.firstNvtx);
        nvtxTies_.insert(nvtxTies_.end(), chunk.nvtxTies.begin(), chunk.nvtxTies.end());
        lastNvtxTied_ = chunk.lastNvtxTied || (across && chunk.nvtxSeen == 1);
        lastNvtx_ = chunk.lastNvtx;
        anyNvtx_ = true;
    }

    mergeDiagnostics(report_.diagnostics, chunk.diagnostics);
    return ids;
}

void ReportBuilder::merge(std::vector<EventChunk>& chunks, unsigned threads) {
    std::vector<ChunkIds> ids;
    for (EventChunk& chunk : chunks) ids.push_back(resolveChunk(chunk));
    std::unordered_map<LaneKey, std::vector<LanePart>, LaneKeyHash> parts;  // in chunk order
    for (size_t c = 0; c < chunks.size(); ++c)
        for (auto& [key, pending] : chunks[c].lanes) parts[key].push_back({&pending, &ids[c]});
    std::vector<LaneKey> keys;
    for (const auto& entry : parts) keys.push_back(entry.first);
    std::sort(keys.begin(), keys.end(), [](const LaneKey& a, const LaneKey& b) {
        return std::tie(a.kind, a.owner, a.device, a.stream, a.context) <
               std::tie(b.kind, b.owner, b.device, b.stream, b.context);
    });
    // One job per column of each lane, its parts appended in order (appendParts). Columns are
    // independent (but an event's payload, which its kind says how to read), so the jobs run on
    // all threads.
    // Lanes (and their threads) are created in a stable order first, then found: once all
    // exist, report_.lanes moves no more and the jobs may hold references into it.
    for (const LaneKey& key : keys) laneIndex(key);
    addFileOrder(chunks);
    std::vector<Lane*> targets;
    for (const LaneKey& key : keys) targets.push_back(&report_.lanes[laneIndex(key)]);
    std::vector<std::function<void()>> jobs;
    for (size_t k = 0; k < keys.size(); ++k) {
        Lane& target = *targets[k];
        const LaneKind kind = keys[k].kind;
        const std::vector<LanePart>& from = parts[keys[k]];
        auto add = [&](auto& to, auto pick, auto map) {
            jobs.emplace_back([&to, &from, pick, map] { appendParts(to, from, pick, map); });
        };
        auto name = [](uint32_t id, const LanePart& part) { return part.ids->name(id); };
        add(
            target.events.start_ns, [](PendingLane & l) -> auto& { return l.events.start_ns; }, nullptr);
        jobs.emplace_back([&to = target.events, &from] {  // durations, and the long ones at their merged indexes
            auto offset = uint32_t(to.duration_ns.size());
            for (const LanePart& part : from) {
                StagingIntervals& events = part.lane->events;
                for (const LongDuration& d : events.long_durations)
                    to.long_durations.push_back({d.index + offset, d.duration_ns});
                events.long_durations = {};
                offset += uint32_t(events.duration_ns.size());
            }
            appendParts(
                to.duration_ns, from, [](PendingLane & l) -> auto& { return l.events.duration_ns; }, nullptr);
        });
        add(
            target.events.name_id, [](PendingLane & l) -> auto& { return l.events.name_id; }, name);
        // The payloads read with their kinds, before the kinds are moved.
        jobs.emplace_back([&to = target.events, &from] {
            for (const LanePart& part : from) {
                StagingIntervals& events = part.lane->events;
                for (size_t i = 0; i < events.payload.size(); ++i)  // not events.size(): start_ns may be moved
                    events.payload[i] = part.ids->eventPayload(events.kind[i], events.payload[i]);
            }
            appendParts(
                to.payload, from, [](PendingLane & l) -> auto& { return l.events.payload; }, nullptr);
            appendParts(
                to.kind, from, [](PendingLane & l) -> auto& { return l.events.kind; }, nullptr);
        });
        add(
            target.instants.time_ns, [](PendingLane & l) -> auto& { return l.instants.time_ns; }, nullptr);
        add(
            target.instants.name_id, [](PendingLane & l) -> auto& { return l.instants.name_id; }, name);
        add(
            target.instants.payload, [](PendingLane & l) -> auto& { return l.instants.payload; },
            [kind](uint32_t payload, const LanePart& part) { return part.ids->instantPayload(kind, payload); });
    }
    runJobs(jobs, threads);
    for (EventChunk& chunk : chunks) chunk = EventChunk{};  // frees what is left of the chunks now
}

void ReportBuilder::addFileOrder(const std::vector<EventChunk>& chunks) {
    Column<FileOrderRun>* const lists[] = {&report_.file_order.osrt, &report_.file_order.cuda_api,
                                           &report_.file_order.cpu_samples};
    auto listOf = [](LaneKind kind) -> size_t {
        return kind == LaneKind::OsRuntime ? 0 : kind == LaneKind::CudaApi ? 1 : 2;
    };
    // Sized once: a report whose threads' calls alternate has about a run per call, and
    // doubling a column of 18 M runs held its old and new copies at once.
    size_t added[std::size(lists)] = {};
    for (const EventChunk& chunk : chunks)
        for (const PendingRun& run : chunk.fileOrder) ++added[listOf(chunk.laneKeys[run.lane].kind)];
    for (size_t i = 0; i < std::size(lists); ++i)
        if (added[i] > 0) lists[i]->reserve(lists[i]->size() + added[i]);
    // Per lane: the index its next event and its next instant will have once appended.
    std::unordered_map<LaneKey, std::array<uint32_t, 2>, LaneKeyHash> next;
    for (const EventChunk& chunk : chunks)
        for (const PendingRun& run : chunk.fileOrder) {
            const LaneKey& key = chunk.laneKeys[run.lane];
            const auto lane = static_cast<uint32_t>(laneIndex(key));
            auto [at, inserted] = next.try_emplace(key);
            if (inserted) {
                const Lane& l = report_.lanes[lane];
                at->second = {static_cast<uint32_t>(l.events.size()), static_cast<uint32_t>(l.instants.size())};
            }
            uint32_t& first = at->second[run.instants ? 1 : 0];
            appendRun(*lists[listOf(key.kind)], {lane, first, run.count, run.instants});
            first += run.count;
        }
}

void ReportBuilder::moveMpiDomainToMpiLanes() {
    const uint32_t mpi = report_.strings.find("MPI");
    if (mpi == UINT32_MAX) return;
    std::vector<bool> isMpi(report_.nvtx.size());
    bool any = false;
    for (size_t i = 0; i < isMpi.size(); ++i) any |= isMpi[i] = report_.nvtx[i].domain_name_id == mpi;
    if (!any) return;
    std::vector<LaneKey> nvtxLanes;
    for (const auto& [key, index] : lanes_)
        if (key.kind == LaneKind::Nvtx) nvtxLanes.push_back(key);
    std::sort(nvtxLanes.begin(), nvtxLanes.end(), [](const LaneKey& a, const LaneKey& b) { return a.owner < b.owner; });
    for (const LaneKey& key : nvtxLanes) {
        const size_t fromIndex = lanes_.at(key);
        std::vector<size_t> moved;
        for (size_t i = 0; i < report_.lanes[fromIndex].events.size(); ++i) {
            const IntervalColumns& from = report_.lanes[fromIndex].events;
            if (from.kind[i] == EventKind::NvtxRange && from.payload[i] < isMpi.size() && isMpi[from.payload[i]])
                moved.push_back(i);
        }
        if (moved.empty()) continue;
        const size_t toIndex = laneIndex(LaneKey{LaneKind::Mpi, key.owner});  // may move the lanes
        // No lane is created below: references into report_.lanes stay valid.
        IntervalColumns kept;
        IntervalColumns& src = report_.lanes[fromIndex].events;
        Lane& to = report_.lanes[toIndex];
        size_t next = 0;
        for (size_t i = 0; i < src.size(); ++i) {
            const bool move = next < moved.size() && moved[next] == i;
            next += move;
            IntervalColumns& dst = move ? to.events : kept;
            dst.append(src.start_ns[i], src.endNs(i), src.name_id[i], move ? kNoPayload : src.payload[i],
                       move ? EventKind::MpiCall : src.kind[i]);
        }
        src = std::move(kept);
    }
}

void ReportBuilder::complete() {
    std::unordered_map<int64_t, uint32_t> domainNames;  // nsys domainId -> name; the last creation wins
    for (const PendingDomain& d : domains_)
        if (d.event_type == 0) domainNames[d.domain_id] = d.name_id;
    // domain_name_id holds nsys's domainId until here: keep it as domain_id, then name it.
    auto domainName = [&](uint32_t& domain, uint32_t& domainId) {
        domainId = domain;
        auto it = domainNames.find(domain);
        domain = it != domainNames.end() ? it->second : 0;
    };
    for (NvtxInfo& info : report_.nvtx) domainName(info.domain_name_id, info.domain_id);
    for (NvtxPayloadSchema& schema : report_.nvtx_payloads.schemas) domainName(schema.domain_name_id, schema.domain_id);
    for (NvtxPayloadEnum& e : report_.nvtx_payloads.enums) domainName(e.domain_name_id, e.domain_id);
    entities_.sortGpusByDevice();
    placeSyncLanesOnTheirContextsGpu(report_);
    entities_.keepRecordedNames();
    moveMpiDomainToMpiLanes();
    addThreadStates();
    // Threads are found once every lane exists, so that backtraces create none of their own.
    report_.backtraces.reserve(backtraces_.size());
    for (const PendingBacktrace& b : backtraces_)
        report_.backtraces.push_back(
            {threadIndex(b.global_tid), static_cast<uint8_t>(b.lane), b.start_ns, b.stack, b.first_detail});
    backtraces_ = {};
    std::sort(report_.backtraces.begin(), report_.backtraces.end(),
              [](const CallBacktrace& a, const CallBacktrace& b) { return a.key() < b.key(); });
    report_.stacks = stacks_.release();
    report_.cuda_api_results.reserve(results_.size());
    for (const PendingResult& r : results_)
        report_.cuda_api_results.push_back({threadIndex(r.global_tid), r.correlation_id, r.start_ns, r.result});
    results_ = {};
    std::sort(report_.cuda_api_results.begin(), report_.cuda_api_results.end(),
              [](const CallResult& a, const CallResult& b) { return a.key() < b.key(); });
    report_.unusual_samples.reserve(unusualSamples_.size());
    for (const PendingSampleCounts& s : unusualSamples_)
        report_.unusual_samples.push_back({threadIndex(s.global_tid), s.state, s.time_ns, s.cycles});
    unusualSamples_ = {};
    std::sort(report_.unusual_samples.begin(), report_.unusual_samples.end(),
              [](const SampleCounts& a, const SampleCounts& b) { return a.key() < b.key(); });
    report_.nvtx_other_starts_ns = std::move(nvtxOtherStarts_);
    std::sort(report_.nvtx_other_starts_ns.begin(), report_.nvtx_other_starts_ns.end());
    for (const PendingDomain& d : domains_) {
        if (d.global_tid == 0) continue;
        const int32_t thread = threadIndex(d.global_tid);
        const auto domainId = static_cast<uint32_t>(d.domain_id);
        if (d.event_type == 0)
            report_.nvtx_domains.push_back({d.start_ns, thread, d.name_id, domainId});
        else
            report_.nvtx_namings.push_back(
                {d.start_ns, thread, d.name_id, domainId, d.category, d.event_type, d.registered_name});
    }
    domains_ = {};
    for (const PendingNvtxTie& t : nvtxTies_)
        report_.nvtx_ties.push_back(
            {t.start_ns, t.holder == NvtxHolder::Other ? -1 : threadIndex(t.global_tid), t.holder});
    nvtxTies_ = {};
    std::stable_sort(report_.nvtx_ties.begin(), report_.nvtx_ties.end(),
                     [](const NvtxTie& a, const NvtxTie& b) { return a.start_ns < b.start_ns; });
    std::sort(report_.nvtx_namings.begin(), report_.nvtx_namings.end(), [](const NvtxNaming& a, const NvtxNaming& b) {
        return std::tie(a.start_ns, a.thread) < std::tie(b.start_ns, b.thread);
    });
    std::sort(report_.nvtx_domains.begin(), report_.nvtx_domains.end(),
              [](const NvtxDomainCreation& a, const NvtxDomainCreation& b) {
                  return std::tie(a.start_ns, a.thread) < std::tie(b.start_ns, b.thread);
              });
    for (PendingGraphApiEvent& e : graphApiEvents_) {
        e.event.thread = threadIndex(e.global_tid);
        report_.graph_api_events.push_back(e.event);
    }
    graphApiEvents_ = {};
    std::stable_sort(report_.graph_api_events.begin(), report_.graph_api_events.end(),
                     [](const GraphApiEvent& a, const GraphApiEvent& b) { return a.start_ns < b.start_ns; });
    for (PendingNsysMessage& m : nsysMessages_) {
        // Session-level messages carry a globalPid with no process (pid 0).
        m.message.process = pidOf(m.global_pid) > 0 ? processIndex(m.global_pid) : -1;
        m.message.global_pid = m.global_pid;
        report_.nsys_messages.push_back(std::move(m.message));
    }
    nsysMessages_ = {};
    std::stable_sort(report_.migrations.begin(), report_.migrations.end(),
                     [](const Migration& a, const Migration& b) { return a.memcpy < b.memcpy; });
    std::stable_sort(report_.peer_copies.begin(), report_.peer_copies.end(),
                     [](const PeerCopy& a, const PeerCopy& b) { return a.memcpy < b.memcpy; });
    std::stable_sort(report_.kernel_graph_nodes.begin(), report_.kernel_graph_nodes.end(),
                     [](const KernelGraphNode& a, const KernelGraphNode& b) { return a.kernel < b.kernel; });
    addCudaEventRecords();
}

void ReportBuilder::addCudaEventRecords() {
    if (cudaEvents_.empty()) return;
    // The end of each cudaEventRecord call by (process, correlation id): the records' time.
    std::unordered_map<uint64_t, int64_t> callEnd;
    auto key = [](int32_t process, uint32_t correlation) { return (uint64_t(uint32_t(process)) << 32) | correlation; };
    for (const Lane& l : report_.lanes) {
        if (l.kind != LaneKind::CudaApi) continue;
        for (size_t i = 0; i < l.events.size(); ++i)  // cudaEventRecord, or a graph launch recording one
            if (l.events.payload[i] != kNoPayload)
                callEnd.try_emplace(key(l.process, l.events.payload[i]), l.events.endNs(i));
    }
    const uint32_t name = report_.strings.intern("CUDA event record");
    for (const PendingCudaEvent& e : cudaEvents_) {
        const int32_t process = processIndex(e.stream.owner);
        const auto at = callEnd.find(key(process, e.info.correlation_id));
        if (at == callEnd.end()) {
            countDiagnostic(report_.diagnostics, Diag::CudaEventRecordWithoutCall);
            continue;
        }
        report_.cuda_events.push_back(e.info);
        const size_t stream = laneIndex(e.stream);  // may move the lanes: held as an index
        InstantColumns& in = report_.lanes[stream].instants;
        in.time_ns.push_back(at->second);
        in.name_id.push_back(name);
        in.payload.push_back(uint32_t(report_.cuda_events.size() - 1));
    }
    cudaEvents_ = {};
}

}  // namespace lanescope::nsys
