#include "importers/perfetto/PerfettoLaneBuilder.h"

#include <cctype>
#include <climits>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "formats/perfetto/PerfettoConventions.h"
#include "importers/EntityRegistry.h"
#include "model/DiagnosticKinds.h"

namespace lanescope::perfetto_import {
namespace {

// Reads the decimal number at name[i..], moving i past it. False when there is none, or when
// it reaches 2^40 (no id in a track name is that large).
bool readNumber(const std::string& name, size_t& i, int64_t& value) {
    const size_t first = i;
    value = 0;
    for (; i < name.size() && std::isdigit(static_cast<unsigned char>(name[i])); ++i) {
        if (value >= (int64_t{1} << 40)) return false;
        value = value * 10 + (name[i] - '0');
    }
    return i > first;
}

bool parseGpuTrackName(const std::string& name, int64_t& device, std::string& gpuName) {
    if (!name.starts_with("GPU ")) return false;
    size_t i = 4;
    int64_t n = 0;
    if (!readNumber(name, i, n)) return false;
    if (i == name.size()) {
        device = n;
        gpuName = name;
        return true;
    }
    if (name.compare(i, 2, ": ") != 0) return false;
    device = n;
    gpuName = name.substr(i + 2);
    return true;
}

// The core number of a track named "CPU 3" (the Perfetto exporter's core tracks); -1 for any
// other name.
int32_t coreOfTrackName(const std::string& name) {
    if (!name.starts_with("CPU ")) return -1;
    size_t i = 4;
    int64_t core = 0;
    if (!readNumber(name, i, core) || i != name.size() || core > INT32_MAX) return -1;
    return static_cast<int32_t>(core);
}

// "Stream 7" for "Stream 7 [row 1]" (the Perfetto exporter's track per row of a lane whose events
// overlap without nesting); "" for any other name.
std::string rowTrackBaseName(const std::string& name) {
    constexpr std::string_view kRow = " [row ";
    const size_t at = name.rfind(kRow);
    if (at == std::string::npos || at == 0 || name.back() != ']') return {};
    size_t i = at + kRow.size();
    int64_t row = 0;
    if (!readNumber(name, i, row) || i + 1 != name.size()) return {};
    return name.substr(0, at);
}

template <typename Values>
void appendColumn(Values& to, Values& from) {
    to.insert(to.end(), from.begin(), from.end());
    Values().swap(from);
}

// "python3 [1365], context 1" or "python3 [1365]": a GPU's work for one process (the Perfetto exporter).
bool parseGpuProcessTrackName(const std::string& name, int64_t& pid, int64_t& context) {
    const size_t open = name.rfind(" [");
    if (open == std::string::npos) return false;
    size_t i = open + 2;
    if (!readNumber(name, i, pid) || i >= name.size() || name[i] != ']') return false;
    context = -1;
    if (++i == name.size()) return true;
    constexpr std::string_view kContext = ", context ";
    if (name.compare(i, kContext.size(), kContext) != 0) return false;
    i += kContext.size();
    return readNumber(name, i, context) && i == name.size();
}

class LaneBuilder {
public:
    LaneBuilder(Report& report, TrackSet& tracks) : r_(report), tracks_(tracks), entities_(report) {}
    void build();

private:
    bool isStartEnd(EventKind kind, uint32_t payload) const;
    // The kind of lane a track's events go to: that of its first slice, or of its first
    // instant's category when it has no slice (Nvtx when neither names one).
    LaneKind laneKind(const Track& t) const;
    // The stream id in a track name such as "Stream 7" or "Sync, stream 7"; -1 without one.
    static int64_t streamOf(const std::string& trackName);
    // The report's thread of each of tracks_.runThreads, made where no thread track named it.
    std::vector<int32_t> runThreads();
    // A core run's payload, an index into tracks_.runThreads, becomes its thread's index
    // (via `threadOf`, from runThreads()); kNoPayload stays.
    static void resolveCoreRuns(IntervalColumns& events, const std::vector<int32_t>& threadOf);
    // The process of a pid; a name given replaces a default one.
    int32_t processOfPid(int64_t pid, const std::string& name) {
        if (!name.empty()) entities_.nameProcess(pid, r_.strings.intern(name));
        return entities_.process(pid);
    }

    Report& r_;
    TrackSet& tracks_;
    EntityRegistry entities_;  // processes by pid, threads by (pid, tid), GPUs by device id
};

bool LaneBuilder::isStartEnd(EventKind kind, uint32_t payload) const {
    return kind == EventKind::NvtxRange && payload < r_.nvtx.size() && r_.nvtx[payload].start_end;
}

LaneKind LaneBuilder::laneKind(const Track& t) const {
    if (t.events.size() == 0) return t.instantLane.value_or(LaneKind::Nvtx);
    return perfetto_format::laneKindOf(t.events.kind[0], isStartEnd(t.events.kind[0], t.events.payload[0]));
}

int64_t LaneBuilder::streamOf(const std::string& trackName) {
    const size_t at = trackName.rfind("tream ");
    if (at == std::string::npos) return -1;
    size_t i = at + 6;
    int64_t id = 0;
    return readNumber(trackName, i, id) ? id : -1;
}

std::vector<int32_t> LaneBuilder::runThreads() {
    std::vector<int32_t> out;
    out.reserve(tracks_.runThreads.size());
    for (const TraceThreadId& id : tracks_.runThreads) out.push_back(entities_.thread(id.pid, id.tid));
    return out;
}

void LaneBuilder::resolveCoreRuns(IntervalColumns& events, const std::vector<int32_t>& threadOf) {
    for (size_t e = 0; e < events.size(); ++e) {
        uint32_t& payload = events.payload[e];
        if (events.kind[e] == EventKind::CoreRun && payload < threadOf.size())
            payload = static_cast<uint32_t>(threadOf[payload]);
    }
}

void LaneBuilder::build() {
    // Processes and threads, in the order their tracks were first met.
    for (const Track& t : tracks_.tracks)
        if (t.isProcess) processOfPid(t.pid, t.processName.empty() ? t.name : t.processName);
    std::vector<int32_t> threadOf(tracks_.tracks.size(), -1), processOf(tracks_.tracks.size(), -1),
        gpuOf(tracks_.tracks.size(), -1);
    for (size_t i = 0; i < tracks_.tracks.size(); ++i) {
        const Track& t = tracks_.tracks[i];
        if (t.isThread) {
            const std::string& name = !t.threadName.empty() ? t.threadName : t.name;
            if (!name.empty()) entities_.nameThread(t.pid, t.tid, r_.strings.intern(name));
            threadOf[i] = entities_.thread(t.pid, t.tid);
            processOf[i] = r_.threads[threadOf[i]].process;
        } else if (t.isProcess) {
            processOf[i] = entities_.process(t.pid);
        } else if (t.described && t.parent == 0 && !t.isCounter) {
            int64_t device = 0;
            std::string gpuName;
            if (parseGpuTrackName(t.name, device, gpuName)) {
                entities_.nameGpu(device, r_.strings.intern(gpuName));
                gpuOf[i] = entities_.gpu(device);
            }
        }
    }
    // The rows of one lane, split into "<name> [row d]" tracks, are one lane again: the events
    // of the later rows move to the first row's track, which takes the lane's name.
    std::map<std::pair<uint64_t, std::string>, size_t> firstRow;  // (parent, name) -> track
    for (size_t i = 0; i < tracks_.tracks.size(); ++i) {
        Track& t = tracks_.tracks[i];
        std::string base = rowTrackBaseName(t.name);
        if (base.empty()) continue;
        auto [it, first] = firstRow.try_emplace({t.parent, base}, i);
        t.name = std::move(base);
        if (first) continue;
        Track& into = tracks_.tracks[it->second];
        into.events.appendAll(std::move(t.events));
        appendColumn(into.instants.time_ns, t.instants.time_ns);
        appendColumn(into.instants.name_id, t.instants.name_id);
        appendColumn(into.instants.payload, t.instants.payload);
    }
    // Under a GPU, a track named for a process and context owns that process's lanes there.
    std::vector<int64_t> contextOf(tracks_.tracks.size(), -1);
    for (size_t i = 0; i < tracks_.tracks.size(); ++i) {
        const Track& t = tracks_.tracks[i];
        const auto parent = tracks_.index.find(t.parent);
        if (t.parent == 0 || t.isCounter || parent == tracks_.index.end() || gpuOf[parent->second] < 0) continue;
        int64_t pid = 0, context = -1;
        if (!parseGpuProcessTrackName(t.name, pid, context)) continue;
        processOf[i] = processOfPid(pid, "");
        contextOf[i] = context;
    }
    // Owners up the parent chain (bounded, in case of a cycle).
    auto owner = [&](size_t i, int32_t& thread, int32_t& process, int32_t& gpu, size_t& parentIndex) {
        thread = process = gpu = -1;
        parentIndex = SIZE_MAX;
        size_t cur = i;
        for (int hops = 0; hops < 64; ++hops) {
            if (threadOf[cur] >= 0 && thread < 0 && process < 0) thread = threadOf[cur];
            if (processOf[cur] >= 0 && process < 0) process = processOf[cur];
            if (gpuOf[cur] >= 0 && gpu < 0) gpu = gpuOf[cur];
            const uint64_t parent = tracks_.tracks[cur].parent;
            if (parent == 0) break;
            auto it = tracks_.index.find(parent);
            if (it == tracks_.index.end()) break;
            if (cur == i) parentIndex = it->second;
            cur = it->second;
        }
    };

    const std::vector<int32_t> threadOfRun = runThreads();  // after the threads that have tracks
    const uint32_t nvtxRow = static_cast<uint32_t>(r_.nvtx.size());
    bool usedNvtx = false;
    for (size_t i = 0; i < tracks_.tracks.size(); ++i) {
        Track& t = tracks_.tracks[i];
        if (!t.stack.empty()) countDiagnostic(r_.diagnostics, Diag::PerfettoUnterminatedSlice, t.stack.size());
        int32_t thread, process, gpu;
        size_t parentIndex;
        owner(i, thread, process, gpu, parentIndex);
        if (t.events.size() > 0 || t.instants.size() > 0) {
            Lane lane;
            const bool ncclName = t.name == "NCCL";
            if (ncclName && parentIndex != SIZE_MAX && gpuOf[parentIndex] >= 0) {
                lane.kind = LaneKind::Nccl;  // copies of kernels and NVTX ranges: both kinds stay
            } else {
                lane.kind = laneKind(t);
                for (size_t e = 0; e < t.events.size(); ++e) {
                    if (perfetto_format::laneKindOf(t.events.kind[e],
                                                    isStartEnd(t.events.kind[e], t.events.payload[e])) == lane.kind)
                        continue;
                    countDiagnostic(r_.diagnostics, Diag::PerfettoKindMixedOnTrack);
                    t.events.kind[e] = EventKind::NvtxRange;
                    t.events.payload[e] = kNoPayload;
                }
            }
            if (lane.kind == LaneKind::GpuStream || lane.kind == LaneKind::CudaSync) {
                lane.stream_id = streamOf(t.name);
                if (parentIndex != SIZE_MAX) lane.context_id = contextOf[parentIndex];
            }
            if (lane.kind == LaneKind::CpuCore) lane.cpu = coreOfTrackName(t.name);
            resolveCoreRuns(t.events, threadOfRun);
            std::string name = t.name;
            if (name.empty() && thread >= 0) name = std::string(r_.str(r_.threads[thread].name_id));
            if (name.empty() && process >= 0) name = std::string(r_.str(r_.processes[process].name_id));
            if (name.empty()) name = t.uuid == 0 ? "Global" : "Track " + std::to_string(t.uuid);
            lane.name_id = r_.strings.intern(name);
            lane.thread = thread;
            lane.process = process >= 0 ? process : (thread >= 0 ? r_.threads[thread].process : -1);
            lane.gpu = gpu;
            // Plain ranges and instants (CPU samples excepted) share one NVTX row without attributes.
            for (size_t e = 0; e < t.events.size(); ++e) {
                if (t.events.kind[e] != EventKind::NvtxRange || t.events.payload[e] != kNoPayload) continue;
                t.events.payload[e] = nvtxRow;
                usedNvtx = true;
            }
            if (lane.kind != LaneKind::CpuSamples) {  // a CPU sample's payload is its stack already
                for (auto& p : t.instants.payload) p = nvtxRow;
                usedNvtx = usedNvtx || t.instants.size() > 0;
            }
            lane.events = std::move(t.events);
            lane.instants = std::move(t.instants);
            r_.lanes.push_back(std::move(lane));
        }
        if (t.isCounter || !t.counterTime.empty()) {
            Counter c;
            std::string name = t.name;
            if (name.empty()) name = "Counter " + std::to_string(t.uuid);
            c.name_id = r_.strings.intern(name);
            c.unit_id = r_.strings.intern(t.unit);
            c.gpu = gpu;
            c.process = process >= 0 ? process : (thread >= 0 ? r_.threads[thread].process : -1);
            c.time_ns = std::move(t.counterTime);
            c.value = std::move(t.counterValue);
            r_.counters.push_back(std::move(c));
        }
    }
    if (usedNvtx) r_.nvtx.push_back(NvtxInfo{});
}

}  // namespace

void buildLanes(Report& report, TrackSet& tracks) { LaneBuilder(report, tracks).build(); }

}  // namespace lanescope::perfetto_import
