// The path engine's items: reads the reports' calls, GPU operations and sync rows into Items, and indexes them.
#include <algorithm>
#include <map>
#include <string>
#include <tuple>
#include <unordered_map>

#include "analysis/critical_path/PathEngine.h"
#include "model/Correlation.h"

namespace lanescope::critical_path_detail {

std::string_view withoutVersionSuffix(std::string_view name) {
    // "_v" then digits at the end
    size_t i = name.size();
    while (i > 0 && name[i - 1] >= '0' && name[i - 1] <= '9') --i;
    if (i < name.size() && i >= 2 && name[i - 1] == 'v' && name[i - 2] == '_') return name.substr(0, i - 2);
    return name;
}

SyncKind syncKindOfName(std::string_view name) {
    const std::string_view n = withoutVersionSuffix(name);
    if (n == "cudaDeviceSynchronize" || n == "cudaThreadSynchronize" || n == "cuCtxSynchronize")
        return SyncKind::Device;
    if (n == "cudaStreamSynchronize" || n == "cuStreamSynchronize") return SyncKind::Stream;
    if (n == "cudaEventSynchronize" || n == "cuEventSynchronize") return SyncKind::Event;
    if ((n.starts_with("cudaMemcpy") || n.starts_with("cuMemcpy")) && n.find("Async") == std::string_view::npos)
        return SyncKind::Memcpy;
    return SyncKind::None;
}

bool isStreamWait(std::string_view name) {
    const std::string_view n = withoutVersionSuffix(name);
    return n == "cudaStreamWaitEvent" || n == "cuStreamWaitEvent";
}

bool containsNcclCaseless(std::string_view s) {
    for (size_t i = 0; i + 4 <= s.size(); ++i) {
        auto lower = [](char c) { return char(c >= 'A' && c <= 'Z' ? c + 32 : c); };
        if (lower(s[i]) == 'n' && lower(s[i + 1]) == 'c' && lower(s[i + 2]) == 'c' && lower(s[i + 3]) == 'l')
            return true;
    }
    return false;
}

bool validSyncId(uint32_t v) { return v != 0 && v != 0xFFFFFFFFu; }

PathEngine::PathEngine(const std::vector<const Report*>& reports, const std::vector<int64_t>& offsets, bool several)
    : reports_(reports) {
    traces_.resize(reports.size());
    for (size_t r = 0; r < reports.size(); ++r) {
        TraceIndex& t = traces_[r];
        t.report = reports[r];
        t.offset = offsets[r];
        t.kineto = reports[r]->meta.format == "kineto-json";
        if (several) t.prefix = "rank " + std::to_string(r) + " ";
    }
    for (size_t r = 0; r < reports.size(); ++r) readCalls(r);
    prev_call_.assign(items_.size(), -1);
    kept_.assign(items_.size(), 0);
    for (size_t r = 0; r < reports.size(); ++r) indexCalls(r);
    for (size_t r = 0; r < reports.size(); ++r) readOps(r);
    prev_call_.resize(items_.size(), -1);
    kept_.resize(items_.size(), 0);
    prev_op_.assign(items_.size(), -1);
    event_dep_.assign(items_.size(), -1);
    for (size_t r = 0; r < reports.size(); ++r) indexOps(r);
    for (size_t r = 0; r < reports.size(); ++r) readSyncs(r);
}

void PathEngine::readCalls(size_t r) {
    const Report& rep = *reports_[r];
    const int64_t off = traces_[r].offset;
    size_t ticks = 0;
    for (size_t li = 0; li < rep.lanes.size(); ++li) {
        const Lane& lane = rep.lanes[li];
        PathCategory category = PathCategory::CudaApi;
        if (lane.kind == LaneKind::CudaApi)
            category = PathCategory::CudaApi;
        else if (lane.kind == LaneKind::OsRuntime)
            category = PathCategory::OsRuntime;
        else if (lane.kind == LaneKind::Mpi)
            category = PathCategory::Mpi;
        else
            continue;
        if (lane.thread < 0) continue;
        const Thread& th = rep.threads[size_t(lane.thread)];
        const int64_t pid = th.process >= 0 ? rep.processes[size_t(th.process)].pid : 0;
        const IntervalColumns& ev = lane.events;
        std::unordered_map<uint32_t, SyncKind> syncOfName;
        for (uint32_t i = 0; i < ev.size(); ++i) {
            tick(ticks);
            uint32_t corr = 0;
            SyncKind sk = SyncKind::None;
            if (category == PathCategory::CudaApi) {
                if (ev.kind[i] != EventKind::CudaApiCall) continue;
                corr = ev.payload[i] == kNoPayload ? 0 : ev.payload[i];
                auto found = syncOfName.find(ev.name_id[i]);
                if (found == syncOfName.end())
                    found = syncOfName.emplace(ev.name_id[i], syncKindOfName(rep.str(ev.name_id[i]))).first;
                sk = found->second;
            }
            items_.add(ev.start_ns[i] + off, ev.endNs(i) + off, kCpuSide, category, ev.name_id[i], uint16_t(r), pid,
                       th.tid, -1, -1, corr, sk, int32_t(li), i);
        }
    }
}

void PathEngine::indexCalls(size_t r) {
    TraceIndex& t = traces_[r];
    // Calls of report r are the rows from the first call of r to the end so far.
    size_t first = 0;
    while (first < items_.size() && items_.report[first] != r) ++first;
    size_t last = first;
    while (last < items_.size() && items_.report[last] == r && items_.side[last] == kCpuSide) ++last;
    std::map<std::pair<int64_t, int64_t>, std::vector<int32_t>> byThread;
    for (size_t i = first; i < last; ++i) byThread[{items_.pid[i], items_.tid[i]}].push_back(int32_t(i));
    std::vector<CorrKey> all;
    const auto& S = items_.start;
    const auto& E = items_.end;
    for (auto& [key, list] : byThread) {
        std::sort(list.begin(), list.end(), [&](int32_t a, int32_t b) {
            return std::make_tuple(S[a], -E[a], a) < std::make_tuple(S[b], -E[b], b);
        });
        std::vector<int32_t> kept;
        for (int32_t c : list) {
            if (!kept.empty() && S[c] >= S[kept.back()] && E[c] <= E[kept.back()]) {
                if (items_.corr[c] != 0) all.push_back({items_.pid[c], items_.corr[c], kept.back()});
                continue;
            }
            kept.push_back(c);
            if (items_.corr[c] != 0) all.push_back({items_.pid[c], items_.corr[c], c});
        }
        for (size_t k = 0; k < kept.size(); ++k) {
            kept_[size_t(kept[k])] = 1;
            if (k > 0) prev_call_[size_t(kept[k])] = kept[k - 1];
        }
        t.thread_calls[key] = std::move(kept);
    }
    // One call per (pid, corr): the earliest (start, row).
    std::sort(all.begin(), all.end(), [&](const CorrKey& a, const CorrKey& b) {
        return std::make_tuple(a.pid, a.corr, S[a.item], a.item) < std::make_tuple(b.pid, b.corr, S[b.item], b.item);
    });
    for (size_t i = 0; i < all.size(); ++i)
        if (i == 0 || all[i].pid != all[i - 1].pid || all[i].corr != all[i - 1].corr) t.call_by_corr.push_back(all[i]);
    std::sort(t.call_by_corr.begin(), t.call_by_corr.end(),
              [](const CorrKey& a, const CorrKey& b) { return a.key() < b.key(); });
}

void PathEngine::readOps(size_t r) {
    TraceIndex& t = traces_[r];
    const Report& rep = *reports_[r];
    const int64_t off = t.offset;
    op_of_event_.resize(reports_.size());
    // Kineto: an operation's process is its launching call's (the lowest pid of the calls
    // with its correlation id), else the process with the most CUDA API calls.
    std::unordered_map<uint32_t, int64_t> pidOfCorr;
    int64_t mainPid = 0;
    if (t.kineto) {
        for (const CorrKey& k : t.call_by_corr) pidOfCorr.emplace(k.corr, k.pid);  // sorted by pid: lowest first
        std::map<int64_t, int64_t> apiCalls;
        for (size_t i = 0; i < items_.size(); ++i)
            if (items_.report[i] == r && items_.category[i] == PathCategory::CudaApi) ++apiCalls[items_.pid[i]];
        int64_t most = -1;
        for (const auto& [p, n] : apiCalls)
            if (n > most) most = n, mainPid = p;
    }
    size_t ticks = 0;
    for (size_t li = 0; li < rep.lanes.size(); ++li) {
        const Lane& lane = rep.lanes[li];
        if (lane.kind != LaneKind::GpuStream) continue;
        const IntervalColumns& ev = lane.events;
        const int64_t lanePid = lane.process >= 0 ? rep.processes[size_t(lane.process)].pid : 0;
        const int64_t device = lane.gpu >= 0 ? rep.gpus[size_t(lane.gpu)].device_id : 0;
        std::unordered_map<uint32_t, bool> ncclName;
        for (uint32_t i = 0; i < ev.size(); ++i) {
            tick(ticks);
            PathCategory category = PathCategory::Kernel;
            switch (ev.kind[i]) {
                case EventKind::Kernel: {
                    auto found = ncclName.find(ev.name_id[i]);
                    if (found == ncclName.end())
                        found = ncclName.emplace(ev.name_id[i], containsNcclCaseless(rep.str(ev.name_id[i]))).first;
                    category = found->second ? PathCategory::Communication : PathCategory::Kernel;
                    break;
                }
                case EventKind::Memcpy:
                    category = PathCategory::Memcpy;
                    break;
                case EventKind::Memset:
                    category = PathCategory::Memset;
                    break;
                case EventKind::GraphExecution:
                    category = PathCategory::CudaGraph;
                    break;
                default:
                    continue;
            }
            const uint32_t corr = correlationIdOf(rep, {uint32_t(li), i}).value_or(0);
            int64_t pid = lanePid;
            if (t.kineto) {
                const auto found = corr != 0 ? pidOfCorr.find(corr) : pidOfCorr.end();
                pid = found != pidOfCorr.end() ? found->second : mainPid;
            }
            op_of_event_[r].emplace((uint64_t(li) << 32) | i, int32_t(items_.size()));
            items_.add(ev.start_ns[i] + off, ev.endNs(i) + off, kGpuSide, category, ev.name_id[i], uint16_t(r), pid, -1,
                       device, lane.stream_id, corr, SyncKind::None, int32_t(li), i);
        }
    }
}

void PathEngine::indexOps(size_t r) {
    TraceIndex& t = traces_[r];
    const auto& S = items_.start;
    const auto& E = items_.end;
    std::map<std::pair<int64_t, int64_t>, std::vector<int32_t>> byStream;
    for (size_t i = 0; i < items_.size(); ++i) {
        if (items_.report[i] != r || items_.side[i] != kGpuSide) continue;
        // An operation's correlation id 0 is an id like the others (nsys's unified-memory
        // migrations carry 0: enqueued before every call).
        byStream[{items_.pid[i], items_.stream[i]}].push_back(int32_t(i));
        t.ops_by_corr.push_back({items_.pid[i], items_.corr[i], int32_t(i)});
    }
    std::sort(t.ops_by_corr.begin(), t.ops_by_corr.end(),
              [](const CorrKey& a, const CorrKey& b) { return a.key() < b.key(); });
    for (auto& [key, list] : byStream) {
        std::vector<int32_t> ex = list;
        std::sort(ex.begin(), ex.end(), [&](int32_t a, int32_t b) {
            return std::make_tuple(S[a], E[a], items_.corr[a], a) < std::make_tuple(S[b], E[b], items_.corr[b], b);
        });
        for (size_t k = 1; k < ex.size(); ++k) prev_op_[size_t(ex[k])] = ex[k - 1];
        StreamOps& s = t.streams[key];
        s.by_corr = list;
        std::sort(s.by_corr.begin(), s.by_corr.end(), [&](int32_t a, int32_t b) {
            return std::make_tuple(items_.corr[a], S[a], a) < std::make_tuple(items_.corr[b], S[b], b);
        });
        for (int32_t o : s.by_corr) s.corrs.push_back(items_.corr[o]);
    }
}

int32_t PathEngine::lastOpBefore(const StreamOps* s, int64_t corr) const {
    if (!s || s->corrs.empty()) return -1;
    const size_t i = size_t(
        std::lower_bound(s->corrs.begin(), s->corrs.end(), corr, [](uint32_t a, int64_t c) { return int64_t{a} < c; }) -
        s->corrs.begin());
    return i > 0 ? s->by_corr[i - 1] : -1;
}

int32_t PathEngine::firstOpAfter(const StreamOps* s, int64_t corr) const {
    if (!s || s->corrs.empty()) return -1;
    const size_t i = size_t(
        std::upper_bound(s->corrs.begin(), s->corrs.end(), corr, [](int64_t c, uint32_t a) { return c < int64_t{a}; }) -
        s->corrs.begin());
    return i < s->corrs.size() ? s->by_corr[i] : -1;
}

void PathEngine::readSyncs(size_t r) {
    TraceIndex& t = traces_[r];
    const Report& rep = *reports_[r];
    auto pidOfLane = [&](const Lane& lane) {
        return lane.process >= 0 ? rep.processes[size_t(lane.process)].pid : int64_t{0};
    };
    // Event records: (pid, eventSyncId) -> (stream, corr); (pid, eventId) -> [(corr, stream)].
    // Kineto keys them by 0 for the pid (its sync events name no process).
    struct Rec {
        uint32_t row;
        int64_t pid, stream;
    };
    std::vector<Rec> recs;
    for (const Lane& lane : rep.lanes) {
        if (lane.kind != LaneKind::GpuStream) continue;
        for (size_t i = 0; i < lane.instants.size(); ++i) {
            const uint32_t row = lane.instants.payload[i];
            if (row < rep.cuda_events.size()) recs.push_back({row, t.kineto ? 0 : pidOfLane(lane), lane.stream_id});
        }
    }
    std::sort(recs.begin(), recs.end(), [](const Rec& a, const Rec& b) { return a.row < b.row; });
    std::map<std::pair<int64_t, uint32_t>, std::pair<int64_t, int64_t>> bySyncId;
    std::map<std::pair<int64_t, uint32_t>, std::vector<std::pair<int64_t, int64_t>>> byEvent;
    for (const Rec& rec : recs) {
        const CudaEventInfo& info = rep.cuda_events[rec.row];
        if (validSyncId(info.event_sync_id))
            bySyncId[{rec.pid, info.event_sync_id}] = {rec.stream, int64_t{info.correlation_id}};
        byEvent[{rec.pid, info.event_id}].emplace_back(int64_t{info.correlation_id}, rec.stream);
    }
    for (auto& [key, list] : byEvent) std::sort(list.begin(), list.end());
    auto recordOf = [&](int64_t pid, uint32_t syncId, uint32_t eventId,
                        int64_t beforeCorr) -> std::optional<std::pair<int64_t, int64_t>> {
        if (validSyncId(syncId)) {
            const auto found = bySyncId.find({pid, syncId});
            if (found != bySyncId.end()) return found->second;
        }
        if (t.kineto) return std::nullopt;
        const auto found = byEvent.find({pid, eventId});
        if (found == byEvent.end()) return std::nullopt;
        const auto& list = found->second;
        const auto at = std::lower_bound(list.begin(), list.end(), std::pair<int64_t, int64_t>{beforeCorr, -1});
        if (at == list.begin()) return std::nullopt;
        return std::pair{std::prev(at)->second, std::prev(at)->first};
    };
    // The first CUDA API call (in row order) of each (pid, corr); Kineto: of each corr.
    struct CallOfCorr {
        int64_t pid;
        uint32_t corr;
        int32_t item;
    };
    std::vector<CallOfCorr> calls;
    for (size_t i = 0; i < items_.size(); ++i)
        if (items_.report[i] == r && items_.category[i] == PathCategory::CudaApi && items_.corr[i] != 0)
            calls.push_back({t.kineto ? 0 : items_.pid[i], items_.corr[i], int32_t(i)});
    std::sort(calls.begin(), calls.end(), [](const CallOfCorr& a, const CallOfCorr& b) {
        return std::tie(a.pid, a.corr, a.item) < std::tie(b.pid, b.corr, b.item);
    });
    auto callOf = [&](int64_t pid, uint32_t corr) -> int32_t {
        const auto at = std::lower_bound(calls.begin(), calls.end(), CallOfCorr{pid, corr, INT32_MIN},
                                         [](const CallOfCorr& a, const CallOfCorr& b) {
                                             return std::tie(a.pid, a.corr, a.item) < std::tie(b.pid, b.corr, b.item);
                                         });
        return at != calls.end() && at->pid == pid && at->corr == corr ? at->item : -1;
    };
    struct SyncRow {
        uint32_t row;
        int64_t pid, stream;
    };
    std::vector<SyncRow> rows;
    for (const Lane& lane : rep.lanes) {
        if (lane.kind != LaneKind::CudaSync) continue;
        for (size_t i = 0; i < lane.events.size(); ++i)
            if (lane.events.kind[i] == EventKind::Sync && lane.events.payload[i] < rep.syncs.size())
                rows.push_back({lane.events.payload[i], t.kineto ? 0 : pidOfLane(lane), lane.stream_id});
    }
    std::sort(rows.begin(), rows.end(), [](const SyncRow& a, const SyncRow& b) { return a.row < b.row; });
    struct Wait {
        int64_t pid;
        uint32_t waitCorr;
        int64_t waitStream, recStream, recCorr;
    };
    std::vector<Wait> waits;
    for (const SyncRow& sr : rows) {
        const SyncInfo& info = rep.syncs[sr.row];
        const uint32_t corr = info.correlation_id;
        const int32_t call = callOf(sr.pid, corr);
        if (call < 0) continue;
        const int64_t pid = items_.pid[call];
        const bool validStream = sr.stream >= 0 && sr.stream != 0xFFFFFFFF;
        if (isStreamWait(rep.str(items_.name_id[call]))) {
            const auto rec = recordOf(sr.pid, info.event_sync_id, info.event_id, corr);
            if (rec && validStream && (!t.kineto || (rec->first >= 0 && rec->second >= 0)))
                waits.push_back({pid, corr, sr.stream, rec->first, rec->second});
        } else if (items_.sync[call] == SyncKind::Stream && validStream) {
            t.sync_facts[{pid, corr}] = SyncFact{sr.stream, -1, -1};
        } else if (items_.sync[call] == SyncKind::Event) {
            const auto rec = recordOf(sr.pid, info.event_sync_id, info.event_id, corr);
            if (rec && (!t.kineto || (rec->first >= 0 && rec->second >= 0)))
                t.sync_facts[{pid, corr}] = SyncFact{-1, rec->first, rec->second};
        }
    }
    const auto& S = items_.start;
    const auto& E = items_.end;
    for (const Wait& w : waits) {
        const int32_t producer = lastOpBefore(streamOf(t, w.pid, w.recStream), w.recCorr);
        const int32_t consumer = firstOpAfter(streamOf(t, w.pid, w.waitStream), w.waitCorr);
        if (producer < 0 || consumer < 0 || producer == consumer) continue;
        int32_t& old = event_dep_[size_t(consumer)];
        if (old < 0 || std::make_tuple(E[producer], -S[producer], -int64_t{producer}) >
                           std::make_tuple(E[old], -S[old], -int64_t{old}))
            old = producer;
    }
}

std::optional<std::pair<int64_t, int64_t>> PathEngine::mainThread() const {
    const TraceIndex& t = traces_[0];
    std::map<std::pair<int64_t, int64_t>, int64_t> counts;
    for (const auto& [key, calls] : t.thread_calls)
        for (int32_t c : calls)
            if (items_.category[c] == PathCategory::CudaApi) ++counts[key];
    if (counts.empty())
        for (const auto& [key, calls] : t.thread_calls)
            if (!calls.empty()) counts[key] += int64_t(calls.size());
    if (counts.empty()) {
        forEachNamingRange(0, [&](int64_t pid, int64_t tid, const NamingRange&) { ++counts[{pid, tid}]; });
    }
    if (counts.empty()) return std::nullopt;
    std::map<int64_t, int64_t> perPid;
    for (const auto& [key, n] : counts) perPid[key.first] += n;
    int64_t pid = 0, most = -1;
    for (const auto& [p, n] : perPid)
        if (n > most) most = n, pid = p;
    if (counts.count({pid, pid})) return std::pair{pid, pid};
    int64_t tid = 0;
    most = -1;
    for (const auto& [key, n] : counts)
        if (key.first == pid && n > most) most = n, tid = key.second;
    return std::pair{pid, tid};
}

std::string PathEngine::laneLabel(int32_t item) const {
    const TraceIndex& t = traces_[items_.report[item]];
    if (items_.side[item] == kGpuSide)
        return t.prefix + "pid " + std::to_string(items_.pid[item]) + " GPU " + std::to_string(items_.device[item]) +
               " stream " + std::to_string(items_.stream[item]);
    return t.prefix + "pid " + std::to_string(items_.pid[item]) + " tid " + std::to_string(items_.tid[item]) + " " +
           std::string(kCategoryNames[size_t(items_.category[item])]);
}

std::string PathEngine::threadLabel(size_t report, int64_t pid, int64_t tid) const {
    return traces_[report].prefix + "pid " + std::to_string(pid) + " tid " + std::to_string(tid);
}

}  // namespace lanescope::critical_path_detail
