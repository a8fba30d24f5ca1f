#pragma once
// The processes, threads and GPUs of a report being built, shared by every importer's builder:
// each is found by the ids its format uses and created on first use, in the order first
// used, with the name the format recorded for it, else a default ("Process 1365",
// "Thread 1372", "GPU 0"). Lanes are found by each builder with its format's own key (nsys:
// kind, thread or stream and context; Kineto: category; Perfetto: track) and take their
// default names from here.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>

#include "model/Report.h"

namespace lanescope {

class EntityRegistry {
public:
    explicit EntityRegistry(Report& report) : r_(report) {}

    // A process by its key (the format's process id: nsys globalPid, Kineto or Perfetto pid)
    // with the pid shown; a thread by its process's key and tid; a GPU by device id.
    int32_t process(int64_t key, int64_t pid);
    int32_t process(int64_t pid) { return process(pid, pid); }
    int32_t thread(int64_t processKey, int64_t pid, int64_t tid);
    int32_t thread(int64_t pid, int64_t tid) { return thread(pid, pid, tid); }
    int32_t gpu(int64_t device);

    // Names recorded by the format (report string ids), of a process or thread by its keys and
    // the pid shown, as for process() and thread(). Given before the entity is created, it is
    // created with it; given after, it replaces a default name, never a recorded one.
    void nameProcess(int64_t key, int64_t pid, uint32_t nameId);
    void nameProcess(int64_t pid, uint32_t nameId) { nameProcess(pid, pid, nameId); }
    void nameThread(int64_t processKey, int64_t pid, int64_t tid, uint32_t nameId);
    void nameThread(int64_t pid, int64_t tid, uint32_t nameId) { nameThread(pid, pid, tid, nameId); }
    void nameGpu(int64_t device, uint32_t nameId);
    // A thread's recorded scheduling priority (Thread::priority), before or after it is created.
    void setThreadPriority(int64_t processKey, int64_t tid, int32_t priority);

    // The name of a lane no format names otherwise: "Stream 7", "Sync, stream 7", "Sync,
    // context" (context-wide synchronization: stream -1 or 2^32-1), else its kind's name.
    static std::string defaultLaneName(LaneKind kind, int64_t stream);

    // Lookups that make nothing (for a preview of the report being built): the index of an
    // entity made so far, and the name recorded for one, made or not.
    std::optional<int32_t> findProcess(int64_t key) const;
    std::optional<int32_t> findThread(int64_t processKey, int64_t tid) const;
    std::optional<int32_t> findGpu(int64_t device) const;
    std::optional<uint32_t> recordedProcessName(int64_t key) const;
    std::optional<uint32_t> recordedThreadName(int64_t processKey, int64_t tid) const;
    std::optional<uint32_t> recordedGpuName(int64_t device) const;

    // Orders Report::gpus by device id and renumbers the GPU of every lane and counter.
    void sortGpusByDevice();
    // Sets Report::recorded_names to every process and thread name recorded so far, made or
    // not (each thread's with its recorded priority): the processes', then the threads', each in
    // the order they were first recorded.
    void keepRecordedNames();

private:
    // A recorded name; `named` once it is set (a default name is not). order: when it was first
    // recorded, counting process and thread names together from 0.
    struct Name {
        uint32_t id = 0;
        bool recorded = false;
        uint32_t order = 0;
    };

    Report& r_;
    uint32_t namesRecorded_ = 0;                                       // the next Name::order
    std::unordered_map<int64_t, Name> processNames_;                   // process key -> name
    std::map<std::pair<int64_t, int64_t>, Name> threadNames_;          // (process key, tid) -> name
    std::map<std::pair<int64_t, int64_t>, int32_t> threadPriorities_;  // (process key, tid) -> priority
    std::unordered_map<int64_t, Name> gpuNames_;                       // device id -> name
    std::unordered_map<int64_t, int64_t> pidsOfNamed_;                 // process key -> pid, of those named
    std::unordered_map<int64_t, int32_t> processes_;                   // process key -> Report::processes[]
    std::map<std::pair<int64_t, int64_t>, int32_t> threads_;           // (process key, tid) -> Report::threads[]
    std::unordered_map<int64_t, int32_t> gpus_;                        // device id -> Report::gpus[]
};

}  // namespace lanescope
