#include "importers/EntityRegistry.h"

#include <algorithm>
#include <numeric>
#include <tuple>
#include <vector>

namespace lanescope {

int32_t EntityRegistry::process(int64_t key, int64_t pid) {
    auto [it, inserted] = processes_.try_emplace(key, static_cast<int32_t>(r_.processes.size()));
    if (inserted) {
        Name& name = processNames_[key];
        if (!name.recorded) name.id = r_.strings.intern("Process " + std::to_string(pid));
        r_.processes.push_back({pid, name.id});
    }
    return it->second;
}

int32_t EntityRegistry::thread(int64_t processKey, int64_t pid, int64_t tid) {
    const auto key = std::make_pair(processKey, tid);
    if (auto it = threads_.find(key); it != threads_.end()) return it->second;
    const int32_t owner = process(processKey, pid);
    Name& name = threadNames_[key];
    if (!name.recorded) name.id = r_.strings.intern("Thread " + std::to_string(tid));
    const auto index = static_cast<int32_t>(r_.threads.size());
    const auto priority = threadPriorities_.find(key);
    r_.threads.push_back({tid, owner, name.id, priority != threadPriorities_.end() ? priority->second : kNoPriority});
    threads_.emplace(key, index);
    return index;
}

int32_t EntityRegistry::gpu(int64_t device) {
    auto [it, inserted] = gpus_.try_emplace(device, static_cast<int32_t>(r_.gpus.size()));
    if (inserted) {
        Name& name = gpuNames_[device];
        if (!name.recorded) name.id = r_.strings.intern("GPU " + std::to_string(device));
        Gpu g;
        g.device_id = device;
        g.name_id = name.id;
        r_.gpus.push_back(g);
    }
    return it->second;
}

void EntityRegistry::nameProcess(int64_t key, int64_t pid, uint32_t nameId) {
    pidsOfNamed_[key] = pid;
    Name& name = processNames_[key];
    if (name.recorded && processes_.count(key)) return;
    name = {nameId, true, name.recorded ? name.order : namesRecorded_++};
    if (auto it = processes_.find(key); it != processes_.end()) r_.processes[it->second].name_id = nameId;
}

void EntityRegistry::nameThread(int64_t processKey, int64_t pid, int64_t tid, uint32_t nameId) {
    pidsOfNamed_[processKey] = pid;
    const auto key = std::make_pair(processKey, tid);
    Name& name = threadNames_[key];
    if (name.recorded && threads_.count(key)) return;
    name = {nameId, true, name.recorded ? name.order : namesRecorded_++};
    if (auto it = threads_.find(key); it != threads_.end()) r_.threads[it->second].name_id = nameId;
}

void EntityRegistry::setThreadPriority(int64_t processKey, int64_t tid, int32_t priority) {
    const auto key = std::make_pair(processKey, tid);
    threadPriorities_[key] = priority;
    if (auto it = threads_.find(key); it != threads_.end()) r_.threads[it->second].priority = priority;
}

void EntityRegistry::nameGpu(int64_t device, uint32_t nameId) {
    Name& name = gpuNames_[device];
    if (name.recorded && gpus_.count(device)) return;
    name = {nameId, true};
    if (auto it = gpus_.find(device); it != gpus_.end()) r_.gpus[it->second].name_id = nameId;
}

namespace {

template <typename Map, typename Key>
auto found(const Map& map, const Key& key) -> std::optional<typename Map::mapped_type> {
    const auto it = map.find(key);
    if (it == map.end()) return std::nullopt;
    return it->second;
}

template <typename Map, typename Key>
std::optional<uint32_t> recorded(const Map& names, const Key& key) {
    const auto it = names.find(key);
    if (it == names.end() || !it->second.recorded) return std::nullopt;
    return it->second.id;
}

}  // namespace

std::optional<int32_t> EntityRegistry::findProcess(int64_t key) const { return found(processes_, key); }
std::optional<int32_t> EntityRegistry::findThread(int64_t processKey, int64_t tid) const {
    return found(threads_, std::make_pair(processKey, tid));
}
std::optional<int32_t> EntityRegistry::findGpu(int64_t device) const { return found(gpus_, device); }
std::optional<uint32_t> EntityRegistry::recordedProcessName(int64_t key) const { return recorded(processNames_, key); }
std::optional<uint32_t> EntityRegistry::recordedThreadName(int64_t processKey, int64_t tid) const {
    return recorded(threadNames_, std::make_pair(processKey, tid));
}
std::optional<uint32_t> EntityRegistry::recordedGpuName(int64_t device) const { return recorded(gpuNames_, device); }

std::string EntityRegistry::defaultLaneName(LaneKind kind, int64_t stream) {
    switch (kind) {
        case LaneKind::GpuStream:
            return "Stream " + std::to_string(stream);
        case LaneKind::CudaSync:
            return stream < 0 || stream == UINT32_MAX ? "Sync, context" : "Sync, stream " + std::to_string(stream);
        default:
            return std::string(laneKindName(kind));
    }
}

void EntityRegistry::sortGpusByDevice() {
    std::vector<int32_t> order(r_.gpus.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(),
              [&](int32_t a, int32_t b) { return r_.gpus[a].device_id < r_.gpus[b].device_id; });
    std::vector<int32_t> newIndex(order.size());
    std::vector<Gpu> sorted;
    sorted.reserve(order.size());
    for (size_t i = 0; i < order.size(); ++i) {
        newIndex[order[i]] = static_cast<int32_t>(i);
        sorted.push_back(r_.gpus[order[i]]);
    }
    r_.gpus = std::move(sorted);
    for (Lane& l : r_.lanes)
        if (l.gpu >= 0) l.gpu = newIndex[l.gpu];
    for (Counter& c : r_.counters)
        if (c.gpu >= 0) c.gpu = newIndex[c.gpu];
    for (auto& [device, index] : gpus_) index = newIndex[index];
}

void EntityRegistry::keepRecordedNames() {
    std::vector<std::pair<uint32_t, RecordedName>> ordered;  // (Name::order, name)
    for (const auto& [key, name] : processNames_)
        if (name.recorded)
            ordered.push_back({name.order, {pidsOfNamed_.at(key), kProcessOwnName, name.id, kNoPriority}});
    for (const auto& [key, name] : threadNames_) {
        if (!name.recorded) continue;
        const auto priority = threadPriorities_.find(key);
        ordered.push_back({name.order,
                           {pidsOfNamed_.at(key.first), key.second, name.id,
                            priority != threadPriorities_.end() ? priority->second : kNoPriority}});
    }
    // Processes first, then threads, each in the order recorded.
    std::sort(ordered.begin(), ordered.end(), [](const auto& a, const auto& b) {
        return std::pair(a.second.tid != kProcessOwnName, a.first) <
               std::pair(b.second.tid != kProcessOwnName, b.first);
    });
    std::vector<RecordedName> names;
    names.reserve(ordered.size());
    for (const auto& [order, name] : ordered) names.push_back(name);
    r_.recorded_names = std::move(names);
}

}  // namespace lanescope
