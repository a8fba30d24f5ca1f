#include "importers/kineto/KinetoImporter.h"

#include <simdjson.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <map>
#include <unordered_map>

#include "importers/kineto/BlockReader.h"
#include "importers/kineto/JsonEventStream.h"
#include "model/DiagnosticKinds.h"
#include "model/LaneFreezer.h"

namespace lanescope {
namespace {

namespace od = simdjson::ondemand;

ImportError fail(ImportError::Kind kind, const std::filesystem::path& path, const std::string& why) {
    return {kind, path.string() + ": " + why};
}

// Microseconds as JSON number text ("4459284064454.059", "-3", "1.5e3") -> nanoseconds,
// exact for plain decimals (digits past the third fraction digit are rounded half up).
bool microsToNs(std::string_view text, int64_t& ns) {
    while (!text.empty() && (text.back() == ' ' || text.back() == '\n' || text.back() == '\r' ||
                             text.back() == '\t'))
        text.remove_suffix(1);
    if (text.empty()) return false;
    size_t i = 0;
    const bool negative = text[0] == '-';
    if (negative) ++i;
    int64_t whole = 0;
    size_t digits = 0;
    for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i, ++digits) {
        if (whole > (std::numeric_limits<int64_t>::max() / 1000 - 9) / 10) return false;
        whole = whole * 10 + (text[i] - '0');
    }
    if (digits == 0) return false;
    int64_t frac = 0;
    if (i < text.size() && text[i] == '.') {
        ++i;
        int n = 0;
        bool roundUp = false;
        for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i, ++n) {
            if (n < 3) frac = frac * 10 + (text[i] - '0');
            else if (n == 3) roundUp = text[i] >= '5';
        }
        for (int k = std::min(n, 3); k < 3; ++k) frac *= 10;
        if (roundUp) ++frac;
    }
    if (i < text.size()) {  // exponent: fall back to double
        double v = 0;
        auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
        if (ec != std::errc() || !std::isfinite(v) || std::fabs(v) > 9e15) return false;
        ns = static_cast<int64_t>(std::llround(v * 1000.0));
        return true;
    }
    ns = whole * 1000 + frac;
    if (negative) ns = -ns;
    return true;
}

// What a category becomes.
enum class Cat : uint8_t { CpuOp, Annotation, Python, CudaApi, Kernel, Memcpy, Memset, GpuAnnotation, Overhead, Unknown };

Cat categoryOf(std::string_view cat, std::string_view name) {
    if (cat == "cpu_op" || cat == "Operator" || cat == "cpu_instant_event") return Cat::CpuOp;
    if (cat == "user_annotation") return Cat::Annotation;
    if (cat == "python_function") return Cat::Python;
    if (cat == "cuda_runtime" || cat == "cuda_driver" || cat == "Runtime" || cat == "Driver") return Cat::CudaApi;
    if (cat == "kernel" || cat == "Kernel") {
        if (name.starts_with("Memcpy")) return Cat::Memcpy;  // old traces filed copies under Kernel
        if (name.starts_with("Memset")) return Cat::Memset;
        return Cat::Kernel;
    }
    if (cat == "gpu_memcpy" || cat == "Memcpy") return Cat::Memcpy;
    if (cat == "gpu_memset" || cat == "Memset") return Cat::Memset;
    if (cat == "gpu_user_annotation") return Cat::GpuAnnotation;
    if (cat == "overhead") return Cat::Overhead;
    return Cat::Unknown;
}

const char* cpuLaneName(Cat c) {
    switch (c) {
        case Cat::CpuOp: return "CPU ops";
        case Cat::Python: return "Python";
        default: return "Annotations";
    }
}

MemKind memKindOf(std::string_view s) {
    if (s == "Pageable") return MemKind::Pageable;
    if (s == "Pinned") return MemKind::Pinned;
    if (s == "Device") return MemKind::Device;
    if (s == "Array") return MemKind::Array;
    if (s == "Managed") return MemKind::Managed;
    return MemKind::Unknown;
}

// "Memcpy HtoD (Pageable -> Device)" -> HtoD, Pageable, Device.
void parseMemcpyName(std::string_view name, MemcpyInfo& m) {
    static const std::pair<std::string_view, CopyKind> kinds[] = {
        {"HtoD", CopyKind::HtoD}, {"DtoH", CopyKind::DtoH}, {"HtoA", CopyKind::HtoA}, {"AtoH", CopyKind::AtoH},
        {"AtoA", CopyKind::AtoA}, {"AtoD", CopyKind::AtoD}, {"DtoA", CopyKind::DtoA}, {"DtoD", CopyKind::DtoD},
        {"HtoH", CopyKind::HtoH}, {"PtoP", CopyKind::PtoP}};
    for (const auto& [label, kind] : kinds)
        if (name.find(label) != std::string_view::npos) {
            m.copy_kind = kind;
            break;
        }
    const size_t open = name.find('('), arrow = name.find(" -> "), close = name.rfind(')');
    if (open != std::string_view::npos && arrow != std::string_view::npos && close != std::string_view::npos &&
        open < arrow && arrow < close) {
        m.src_kind = memKindOf(name.substr(open + 1, arrow - open - 1));
        m.dst_kind = memKindOf(name.substr(arrow + 4, close - arrow - 4));
    }
}

// Identity of a lane while importing: CPU lanes by (pid, tid, category), GPU lanes by
// (device, stream).
struct Key {
    LaneKind kind;
    uint8_t sub = 0;  // Cat of CPU NVTX-like lanes
    int64_t a = 0, b = 0;
    bool operator<(const Key& o) const {
        return std::tie(kind, sub, a, b) < std::tie(o.kind, o.sub, o.a, o.b);
    }
};

struct Pending {
    IntervalColumns events;
    InstantColumns instants;
    int64_t context = -1;
};

// One parsed event; views point into the parser's buffers, valid while the document lives.
struct Event {
    char ph = 0;
    std::string_view cat, name, pidText, tidText;
    int64_t pid = 0, tid = 0, ts = 0, dur = 0;
    bool hasTs = false, hasDur = false;
    // args
    int64_t device = -1, stream = -1, context = -1, correlation = 0, bytes = 0, registers = 0, shared = 0,
            sortIndex = 0, rank = -1;
    uint32_t grid[3] = {0, 0, 0}, block[3] = {0, 0, 0};
    std::string_view argName;
    std::vector<std::pair<std::string_view, double>> counterValues;
};

struct ConfigHash {
    size_t operator()(const KernelConfig& c) const {
        uint64_t h = 0xCBF29CE484222325ull;
        for (uint64_t v : {uint64_t{c.grid[0]}, uint64_t{c.grid[1]}, uint64_t{c.grid[2]}, uint64_t{c.block[0]},
                           uint64_t{c.block[1]}, uint64_t{c.block[2]}, uint64_t{c.registers_per_thread},
                           uint64_t{c.static_shared_bytes}, uint64_t{c.short_name_id}})
            h = (h ^ v) * 0x100000001B3ull;
        return h;
    }
};

class Builder {
public:
    Builder(Report& r) : r_(r) {}

    void add(Event& e);
    void finish();

    std::unordered_map<int64_t, uint32_t> gpuNames;  // device id -> name
    uint64_t events = 0;

private:
    Pending& lane(const Key& k) { return lanes_[k]; }
    void interval(const Key& k, int64_t start, int64_t end, uint32_t name, uint32_t payload, EventKind kind) {
        Pending& p = lane(k);
        p.events.start_ns.push_back(start);
        p.events.end_ns.push_back(end);
        p.events.name_id.push_back(name);
        p.events.payload.push_back(payload);
        p.events.kind.push_back(kind);
    }
    void complete(const Event& e, Cat c, int64_t start, int64_t end);
    uint32_t nvtxRow() {
        if (nvtxRow_ == UINT32_MAX) {
            nvtxRow_ = static_cast<uint32_t>(r_.nvtx.size());
            r_.nvtx.push_back(NvtxInfo{});
        }
        return nvtxRow_;
    }
    uint32_t startEndRow() {
        if (startEndRow_ == UINT32_MAX) {
            startEndRow_ = static_cast<uint32_t>(r_.nvtx.size());
            NvtxInfo info;
            info.start_end = true;
            r_.nvtx.push_back(info);
        }
        return startEndRow_;
    }
    int64_t idOf(std::string_view text, int64_t number) {
        if (text.empty()) return number;
        auto [it, inserted] = stringIds_.try_emplace(std::string(text), -1000000 - static_cast<int64_t>(stringIds_.size()));
        if (inserted) processNames_[it->second] = r_.strings.intern(text);
        return it->second;
    }
    int32_t process(int64_t pid);
    int32_t thread(int64_t pid, int64_t tid);
    int32_t gpu(int64_t device);

    Report& r_;
    std::map<Key, Pending> lanes_;
    struct Open { int64_t ts; uint32_t name; Cat cat; std::string catText; };
    std::map<std::pair<int64_t, int64_t>, std::vector<Open>> stacks_;  // B/E per (pid, tid)
    std::unordered_map<int64_t, uint32_t> processNames_;
    std::map<std::pair<int64_t, int64_t>, uint32_t> threadNames_;
    std::unordered_map<std::string, int64_t> stringIds_;  // string pid/tid -> synthetic id
    std::unordered_map<int64_t, int32_t> processes_;
    std::map<std::pair<int64_t, int64_t>, int32_t> threads_;
    std::unordered_map<int64_t, int32_t> gpus_;
    std::unordered_map<int64_t, uint64_t> apiCallsOfPid_;
    std::map<std::tuple<int64_t, std::string, std::string>, size_t> counters_;
    std::vector<int64_t> counterPids_;  // parallel to Report::counters
    std::unordered_map<KernelConfig, uint32_t, ConfigHash> configs_;
    uint32_t nvtxRow_ = UINT32_MAX, startEndRow_ = UINT32_MAX;
};


int32_t Builder::process(int64_t pid) {
    auto [it, inserted] = processes_.try_emplace(pid, static_cast<int32_t>(r_.processes.size()));
    if (inserted) {
        Process p;
        p.pid = pid;
        auto name = processNames_.find(pid);
        p.name_id = name != processNames_.end() ? name->second : r_.strings.intern("Process " + std::to_string(pid));
        r_.processes.push_back(p);
    }
    return it->second;
}

int32_t Builder::thread(int64_t pid, int64_t tid) {
    auto it = threads_.find({pid, tid});
    if (it != threads_.end()) return it->second;
    Thread t;
    t.tid = tid;
    t.process = process(pid);
    auto name = threadNames_.find({pid, tid});
    t.name_id = name != threadNames_.end() ? name->second : r_.strings.intern("Thread " + std::to_string(tid));
    const auto index = static_cast<int32_t>(r_.threads.size());
    r_.threads.push_back(t);
    threads_.emplace(std::make_pair(pid, tid), index);
    return index;
}

int32_t Builder::gpu(int64_t device) {
    auto [it, inserted] = gpus_.try_emplace(device, static_cast<int32_t>(r_.gpus.size()));
    if (inserted) {
        Gpu g;
        g.device_id = device;
        auto name = gpuNames.find(device);
        g.name_id = name != gpuNames.end() ? name->second : r_.strings.intern("GPU " + std::to_string(device));
        r_.gpus.push_back(g);
    }
    return it->second;
}

void Builder::complete(const Event& e, Cat c, int64_t start, int64_t end) {
    const int64_t pid = idOf(e.pidText, e.pid), tid = idOf(e.tidText, e.tid);
    switch (c) {
        case Cat::CpuOp:
        case Cat::Annotation:
        case Cat::Python:
            interval({LaneKind::Nvtx, static_cast<uint8_t>(c), pid, tid}, start, end, r_.strings.intern(e.name),
                     nvtxRow(), EventKind::NvtxRange);
            break;
        case Cat::CudaApi:
            ++apiCallsOfPid_[pid];
            interval({LaneKind::CudaApi, 0, pid, tid}, start, end, r_.strings.intern(e.name),
                     static_cast<uint32_t>(e.correlation), EventKind::CudaApiCall);
            break;
        case Cat::Kernel: {
            KernelConfig k;
            for (int i = 0; i < 3; ++i) {
                k.grid[i] = e.grid[i];
                k.block[i] = static_cast<uint16_t>(std::min<uint32_t>(e.block[i], UINT16_MAX));
            }
            k.registers_per_thread = static_cast<uint16_t>(std::clamp<int64_t>(e.registers, 0, UINT16_MAX));
            // Kineto reports static + dynamic shared memory as one number.
            k.static_shared_bytes = static_cast<uint32_t>(std::clamp<int64_t>(e.shared, 0, UINT32_MAX));
            k.launch_type = 1;
            auto [it, inserted] = configs_.try_emplace(k, static_cast<uint32_t>(r_.kernel_configs.size()));
            if (inserted) r_.kernel_configs.push_back(k);
            const auto row = static_cast<uint32_t>(r_.kernels.size());
            r_.kernels.push_back({it->second, static_cast<uint32_t>(e.correlation)});
            Key key{LaneKind::GpuStream, 0, e.device >= 0 ? e.device : e.pid, e.stream >= 0 ? e.stream : e.tid};
            lane(key).context = e.context;
            interval(key, start, end, r_.strings.intern(e.name), row, EventKind::Kernel);
            break;
        }
        case Cat::Memcpy: {
            MemcpyInfo m;
            m.bytes = static_cast<uint64_t>(std::max<int64_t>(e.bytes, 0));
            m.correlation_id = static_cast<uint32_t>(e.correlation);
            parseMemcpyName(e.name, m);
            const auto row = static_cast<uint32_t>(r_.memcpys.size());
            r_.memcpys.push_back(m);
            Key key{LaneKind::GpuStream, 0, e.device >= 0 ? e.device : e.pid, e.stream >= 0 ? e.stream : e.tid};
            lane(key).context = e.context;
            interval(key, start, end,
                     r_.strings.intern(std::string("[CUDA memcpy ") + copyKindLabel(m.copy_kind) + "]"), row,
                     EventKind::Memcpy);
            break;
        }
        case Cat::Memset: {
            MemsetInfo m;
            m.bytes = static_cast<uint64_t>(std::max<int64_t>(e.bytes, 0));
            m.correlation_id = static_cast<uint32_t>(e.correlation);
            const size_t open = e.name.find('('), close = e.name.rfind(')');
            if (open != std::string_view::npos && close != std::string_view::npos && open < close)
                m.mem_kind = memKindOf(e.name.substr(open + 1, close - open - 1));
            const auto row = static_cast<uint32_t>(r_.memsets.size());
            r_.memsets.push_back(m);
            Key key{LaneKind::GpuStream, 0, e.device >= 0 ? e.device : e.pid, e.stream >= 0 ? e.stream : e.tid};
            lane(key).context = e.context;
            interval(key, start, end, r_.strings.intern("[CUDA memset]"), row, EventKind::Memset);
            break;
        }
        case Cat::GpuAnnotation:
            interval({LaneKind::NvtxStartEnd, 0, e.device >= 0 ? e.device : e.pid, -1}, start, end,
                     r_.strings.intern(e.name), startEndRow(), EventKind::NvtxRange);
            break;
        case Cat::Overhead:
            r_.profiler_overhead.push_back({start, end, -1, r_.strings.intern(e.name)});
            break;
        case Cat::Unknown:
            countDiagnostic(r_.diagnostics, Diag::JsonUnknownCategory, {e.cat});
            break;
    }
}

void Builder::add(Event& e) {
    ++events;
    switch (e.ph) {
        case 'X': {
            if (!e.hasTs) { countDiagnostic(r_.diagnostics, Diag::JsonEventWithoutTs); return; }
            int64_t dur = e.hasDur ? e.dur : 0;
            if (dur < 0) { countDiagnostic(r_.diagnostics, Diag::JsonNegativeDuration); dur = 0; }
            complete(e, categoryOf(e.cat, e.name), e.ts, e.ts + dur);
            return;
        }
        case 'B': {
            if (!e.hasTs) { countDiagnostic(r_.diagnostics, Diag::JsonEventWithoutTs); return; }
            const int64_t pid = idOf(e.pidText, e.pid), tid = idOf(e.tidText, e.tid);
            stacks_[{pid, tid}].push_back({e.ts, r_.strings.intern(e.name), categoryOf(e.cat, e.name), std::string(e.cat)});
            return;
        }
        case 'E': {
            const int64_t pid = idOf(e.pidText, e.pid), tid = idOf(e.tidText, e.tid);
            auto it = stacks_.find({pid, tid});
            if (it == stacks_.end() || it->second.empty() || !e.hasTs) {
                countDiagnostic(r_.diagnostics, Diag::JsonUnmatchedEnd);
                return;
            }
            Open open = std::move(it->second.back());
            it->second.pop_back();
            Event b = e;
            b.name = r_.str(open.name);
            b.cat = open.catText;
            if (e.ts < open.ts) { countDiagnostic(r_.diagnostics, Diag::JsonNegativeDuration); b.ts = open.ts; }
            complete(b, open.cat, open.ts, std::max(open.ts, e.ts));
            return;
        }
        case 'i':
        case 'I':
        case 'R': {
            if (!e.hasTs) { countDiagnostic(r_.diagnostics, Diag::JsonEventWithoutTs); return; }
            const int64_t pid = idOf(e.pidText, e.pid), tid = idOf(e.tidText, e.tid);
            Pending& p = lane({LaneKind::Nvtx, static_cast<uint8_t>(Cat::Annotation), pid, tid});
            p.instants.time_ns.push_back(e.ts);
            p.instants.name_id.push_back(r_.strings.intern(e.name));
            p.instants.payload.push_back(nvtxRow());
            return;
        }
        case 'C': {
            if (!e.hasTs) { countDiagnostic(r_.diagnostics, Diag::JsonEventWithoutTs); return; }
            const int64_t pid = idOf(e.pidText, e.pid);
            for (const auto& [series, value] : e.counterValues) {
                auto [it, inserted] = counters_.try_emplace({pid, std::string(e.name), std::string(series)}, r_.counters.size());
                if (inserted) {
                    Counter c;
                    c.name_id = r_.strings.intern(series == "value" || series == e.name
                                                      ? std::string(e.name)
                                                      : std::string(e.name) + " " + std::string(series));
                    counterPids_.push_back(pid);  // the process is made in finish, once named
                    r_.counters.push_back(std::move(c));
                }
                r_.counters[it->second].time_ns.push_back(e.ts);
                r_.counters[it->second].value.push_back(value);
            }
            return;
        }
        case 'M': {
            const int64_t pid = idOf(e.pidText, e.pid), tid = idOf(e.tidText, e.tid);
            if (e.name == "process_name" && !e.argName.empty()) processNames_[pid] = r_.strings.intern(e.argName);
            else if (e.name == "thread_name" && !e.argName.empty()) threadNames_[{pid, tid}] = r_.strings.intern(e.argName);
            return;
        }
        case 's':
        case 't':
        case 'f':
            if (e.cat == "fwdbwd") {
                if (e.ph == 's') countDiagnostic(r_.diagnostics, Diag::JsonFwdbwdFlowsNotShown);  // one per flow
            } else if (e.cat != "ac2g") countDiagnostic(r_.diagnostics, Diag::JsonFlowIgnored);  // ac2g: correlation is in args
            return;
        default:
            countDiagnostic(r_.diagnostics, Diag::JsonUnsupportedPhase, {std::string_view(&e.ph, e.ph ? 1 : 0)});
            return;
    }
}

void Builder::finish() {
    for (auto& [key, stack] : stacks_)
        if (!stack.empty()) countDiagnostic(r_.diagnostics, Diag::JsonUnmatchedBegin, stack.size());

    // Kineto puts GPU work under pid = device; the model files it under the process whose
    // CUDA calls launched it (correlation ids are per process): the process with most calls.
    int64_t mainPid = std::numeric_limits<int64_t>::min();
    uint64_t most = 0;
    for (const auto& [pid, calls] : apiCallsOfPid_)
        if (calls > most || (calls == most && pid < mainPid)) { most = calls; mainPid = pid; }

    // Time origin: the first time in the report.
    int64_t origin = std::numeric_limits<int64_t>::max();
    for (const auto& [key, p] : lanes_) {
        for (int64_t t : p.events.start_ns) origin = std::min(origin, t);
        for (int64_t t : p.instants.time_ns) origin = std::min(origin, t);
    }
    for (const Counter& c : r_.counters)
        for (int64_t t : c.time_ns) origin = std::min(origin, t);
    if (origin == std::numeric_limits<int64_t>::max()) origin = 0;
    if (r_.meta.start_utc_ns) r_.meta.start_utc_ns += origin;           // baseTimeNanoseconds + offset
    else if (origin > 946684800'000'000'000) r_.meta.start_utc_ns = origin;  // ts were since the epoch

    std::vector<Key> ncclKeys;
    for (auto& [key, p] : lanes_) {
        Lane l;
        l.kind = key.kind;
        if (key.kind == LaneKind::GpuStream || key.kind == LaneKind::NvtxStartEnd) {
            l.process = process(most ? mainPid : key.a);
            l.gpu = gpu(key.a);
            if (key.kind == LaneKind::GpuStream) {
                l.stream_id = key.b;
                l.context_id = p.context;
                l.name_id = r_.strings.intern("Stream " + std::to_string(key.b));
            } else {
                l.name_id = r_.strings.intern("GPU annotations");
            }
        } else {
            l.thread = thread(key.a, key.b);
            l.process = r_.threads[static_cast<size_t>(l.thread)].process;
            l.name_id = r_.strings.intern(key.kind == LaneKind::CudaApi ? "CUDA API" : cpuLaneName(static_cast<Cat>(key.sub)));
        }
        for (int64_t& t : p.events.start_ns) t -= origin;
        for (int64_t& t : p.events.end_ns) t -= origin;
        for (int64_t& t : p.instants.time_ns) t -= origin;
        l.events = std::move(p.events);
        l.instants = std::move(p.instants);
        r_.lanes.push_back(std::move(l));
    }
    lanes_.clear();
    for (size_t i = 0; i < r_.counters.size(); ++i) {
        r_.counters[i].process = process(counterPids_[i]);
        for (int64_t& t : r_.counters[i].time_ns) t -= origin;
    }
    for (OverheadRange& o : r_.profiler_overhead) {
        o.start_ns -= origin;
        o.end_ns -= origin;
    }
    std::sort(r_.profiler_overhead.begin(), r_.profiler_overhead.end(),
              [](const OverheadRange& a, const OverheadRange& b) { return a.start_ns < b.start_ns; });

    // NCCL lanes: copies of nccl* kernels, one lane per process and GPU (as nsys's importer).
    std::map<std::pair<int32_t, int32_t>, Lane> nccl;
    for (const Lane& l : r_.lanes) {
        if (l.kind != LaneKind::GpuStream) continue;
        for (size_t i = 0; i < l.events.size(); ++i) {
            if (l.events.kind[i] != EventKind::Kernel || !r_.str(l.events.name_id[i]).starts_with("nccl")) continue;
            Lane& n = nccl[{l.process, l.gpu}];
            n.events.start_ns.push_back(l.events.start_ns[i]);
            n.events.end_ns.push_back(l.events.end_ns[i]);
            n.events.name_id.push_back(l.events.name_id[i]);
            n.events.payload.push_back(l.events.payload[i]);
            n.events.kind.push_back(l.events.kind[i]);
        }
    }
    for (auto& [owner, n] : nccl) {
        n.kind = LaneKind::Nccl;
        n.process = owner.first;
        n.gpu = owner.second;
        n.name_id = r_.strings.intern(std::string(laneKindName(LaneKind::Nccl)));
        r_.lanes.push_back(std::move(n));
    }

    for (Lane& l : r_.lanes) freezeLane(l, r_.diagnostics);
    for (Counter& c : r_.counters) freezeCounter(c);

    setTimeSpan(r_);
}

int64_t toInt(od::value v) {
    switch (v.type()) {
        case od::json_type::number: {
            int64_t i = 0;
            if (v.get_int64().get(i) == simdjson::SUCCESS) return i;
            double d = 0;
            if (v.get_double().get(d) == simdjson::SUCCESS) return static_cast<int64_t>(d);
            return 0;
        }
        case od::json_type::string: {
            std::string_view s = v.get_string();
            int64_t i = 0;
            std::from_chars(s.data(), s.data() + s.size(), i);
            return i;
        }
        default: return 0;
    }
}

void readTriple(od::value v, uint32_t out[3]) {
    if (v.type() != od::json_type::array) return;
    int i = 0;
    for (auto element : v.get_array()) {
        const int64_t n = toInt(element.value());
        if (i < 3) out[i++] = static_cast<uint32_t>(std::clamp<int64_t>(n, 0, UINT32_MAX));
    }
}

// Reads the fields of one trace event in document order (on-demand parsing cannot go back).
void readEvent(od::object obj, Event& e) {
    for (auto field : obj) {
        const std::string_view key = field.unescaped_key();
        od::value v = field.value();
        if (key == "ph") {
            if (v.type() != od::json_type::string) continue;
            std::string_view ph = v.get_string();
            e.ph = ph.empty() ? 0 : ph[0];
        } else if (key == "cat") {
            if (v.type() == od::json_type::string) e.cat = v.get_string();
        } else if (key == "name") {
            if (v.type() == od::json_type::string) e.name = v.get_string();
        } else if (key == "pid" || key == "tid") {
            int64_t& n = key == "pid" ? e.pid : e.tid;
            std::string_view& text = key == "pid" ? e.pidText : e.tidText;
            if (v.type() == od::json_type::string) {
                std::string_view s = v.get_string();
                auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
                if (s.empty() || ec != std::errc() || p != s.data() + s.size()) text = s.empty() ? "\"\"" : s;
            } else {
                n = toInt(v);
            }
        } else if (key == "ts" || key == "dur") {
            int64_t ns = 0;
            if (v.type() == od::json_type::number && microsToNs(v.raw_json_token(), ns)) {
                if (key == "ts") e.ts = ns, e.hasTs = true;
                else e.dur = ns, e.hasDur = true;
            }
        } else if (key == "args") {
            if (v.type() != od::json_type::object) continue;
            for (auto arg : v.get_object()) {
                const std::string_view k = arg.unescaped_key();
                od::value a = arg.value();
                if (e.ph == 'C') {
                    if (a.type() == od::json_type::number) e.counterValues.emplace_back(k, double(a.get_double()));
                    continue;
                }
                if (k == "device") e.device = toInt(a);
                else if (k == "stream") e.stream = toInt(a);
                else if (k == "context") e.context = toInt(a);
                else if (k == "correlation") e.correlation = toInt(a);
                else if (k == "bytes") e.bytes = toInt(a);
                else if (k == "registers per thread") e.registers = toInt(a);
                else if (k == "shared memory") e.shared = toInt(a);
                else if (k == "grid") readTriple(a, e.grid);
                else if (k == "block") readTriple(a, e.block);
                else if (k == "name" && a.type() == od::json_type::string) e.argName = a.get_string();
            }
        }
    }
}

bool isSpace(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

// Reads the keys of the header (the document outside the events array, with "traceEvents": [])
// that the report keeps: schemaVersion, baseTimeNanoseconds, distributedInfo.rank and the GPU
// names of deviceProperties.
void readHeader(od::document& doc, Report& report, Builder& builder) {
    for (auto field : doc.get_object()) {
        const std::string_view key = field.unescaped_key();
        od::value v = field.value();
        if (key == "schemaVersion") {
            std::string_view raw = v.raw_json_token();
            while (!raw.empty() && isSpace(raw.back())) raw.remove_suffix(1);
            if (!raw.empty() && raw.front() == '"') raw = raw.substr(1, raw.size() >= 2 ? raw.size() - 2 : 0);
            report.meta.version = std::string(raw);
        } else if (key == "baseTimeNanoseconds") {
            report.meta.start_utc_ns = toInt(v);
        } else if (key == "distributedInfo" && v.type() == od::json_type::object) {
            for (auto f : v.get_object())
                if (f.unescaped_key().value() == "rank") report.meta.rank = static_cast<int>(toInt(f.value()));
        } else if (key == "deviceProperties" && v.type() == od::json_type::array) {
            for (auto d : v.get_array()) {
                od::value dv = d.value();
                if (dv.type() != od::json_type::object) continue;
                int64_t id = -1;
                std::string name;
                for (auto f : dv.get_object()) {
                    const std::string_view k = f.unescaped_key();
                    if (k == "id") id = toInt(f.value());
                    else if (k == "name" && f.value().type() == od::json_type::string)
                        name = std::string(std::string_view(f.value().get_string()));
                }
                if (id >= 0 && !name.empty()) builder.gpuNames[id] = report.strings.intern(name);
            }
        }
    }
}

// The one-line error of a stream that stopped before its end.
ImportError streamError(kineto::JsonEventStream::Status status, const std::filesystem::path& path,
                        const kineto::BlockReader& reader, const kineto::JsonEventStream& stream, uint64_t events,
                        const kineto::StreamSizes& sizes) {
    using Status = kineto::JsonEventStream::Status;
    const std::string json = reader.compressed() ? "inflated JSON" : "JSON";
    switch (status) {
        case Status::NotObject:
            return fail(ImportError::Kind::UnknownFormat, path, "not a Chrome/Kineto trace: the JSON is neither an object nor an array");
        case Status::NoEvents:  // either no such key or a document cut short before it
            return fail(ImportError::Kind::UnknownFormat, path, "not a Chrome/Kineto trace: no traceEvents array");
        case Status::Unterminated:
            return fail(ImportError::Kind::Corrupt, path,
                        json + " ends inside the traceEvents array: the file is cut short, or a quote or bracket in it "
                               "is damaged (" + std::to_string(stream.bytesRead()) + " bytes, " +
                            std::to_string(events) + " events read)");
        case Status::Unbalanced:
            return fail(ImportError::Kind::Corrupt, path,
                        json + " is invalid (a '}' closes the traceEvents array) after " + std::to_string(events) +
                            " events");
        case Status::TooLarge:
            return fail(ImportError::Kind::Corrupt, path,
                        json + " has over " + std::to_string(sizes.text_limit >> 20) +
                            " MiB outside the traceEvents array, or in one event");
        case Status::ReadError:
        default:
            return fail(reader.compressed() ? ImportError::Kind::Corrupt : ImportError::Kind::Unreadable, path,
                        reader.error());
    }
}

ImportError cancelled() { return {ImportError::Kind::Cancelled, "import cancelled"}; }

}  // namespace

bool KinetoImporter::canRead(std::string_view head, const std::filesystem::path&) const {
    if (kineto::isGzip(head)) return true;
    size_t i = 0;
    if (head.starts_with("\xEF\xBB\xBF")) i = 3;
    while (i < head.size() && (head[i] == ' ' || head[i] == '\n' || head[i] == '\r' || head[i] == '\t')) ++i;
    if (i >= head.size()) return false;
    if (head[i] == '[') {  // the JSON Array Format: an array of events, each with a phase
        ++i;
        while (i < head.size() && (head[i] == ' ' || head[i] == '\n' || head[i] == '\r' || head[i] == '\t')) ++i;
        return i < head.size() && head[i] == '{' && head.find("\"ph\"") != std::string_view::npos;
    }
    if (head[i] != '{') return false;
    return head.find("\"traceEvents\"") != std::string_view::npos ||
           head.find("\"schemaVersion\"") != std::string_view::npos ||
           head.find("\"displayTimeUnit\"") != std::string_view::npos;
}

ImportResult KinetoImporter::import(const std::filesystem::path& path, const ImportOptions&,
                                    ProgressSink& progress, std::stop_token stop) const {
    using Status = kineto::JsonEventStream::Status;
    progress.progress("reading", 0, 0);
    kineto::BlockReader reader;
    if (!reader.open(path)) return fail(ImportError::Kind::Unreadable, path, reader.error());

    auto report = std::make_unique<Report>();
    report->meta.format = std::string(formatName());
    report->meta.producer = "PyTorch Profiler (Kineto)";
    report->meta.source_path = path.string();
    Builder builder(*report);

    // The events come in pieces of whole events ("[...]" documents of about 8 MiB), so that
    // simdjson's index stays small and memory holds one piece; the header is parsed last.
    kineto::JsonEventStream stream(reader, sizes_, simdjson::SIMDJSON_PADDING);
    od::parser parser;
    try {
        while (true) {
            if (stop.stop_requested()) return cancelled();
            const Status status = stream.next();
            if (status == Status::End) break;
            if (status != Status::Piece) return streamError(status, path, reader, stream, builder.events, sizes_);
            const std::string_view piece = stream.piece();
            od::document doc = parser.iterate(piece.data(), piece.size(), piece.size() + simdjson::SIMDJSON_PADDING);
            for (auto element : doc.get_array()) {
                od::value ev = element.value();
                if (ev.type() != od::json_type::object) {
                    countDiagnostic(report->diagnostics, Diag::JsonEventNotAnObject);
                    continue;
                }
                Event e;
                readEvent(ev.get_object(), e);
                builder.add(e);
                if ((builder.events & 0xFFFF) == 0 && stop.stop_requested()) return cancelled();
            }
            progress.progress("events", reader.fileBytesRead(), reader.fileSize());
        }
        simdjson::padded_string header(stream.header());
        od::document doc = parser.iterate(header);
        readHeader(doc, *report, builder);
    } catch (const simdjson::simdjson_error& e) {
        return fail(ImportError::Kind::Corrupt, path,
                    std::string(reader.compressed() ? "inflated " : "") + "JSON is invalid (" +
                        simdjson::error_message(e.error()) + ") after " + std::to_string(builder.events) + " events");
    } catch (const std::bad_alloc&) {
        return fail(ImportError::Kind::Unreadable, path, "not enough memory to read the file");
    }

    if (stop.stop_requested()) return cancelled();
    progress.progress("building lanes", 0, 0);
    builder.finish();
    return ImportResult(std::move(report));
}

}  // namespace lanescope
