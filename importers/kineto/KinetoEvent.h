#pragma once
#include <simdjson.h>

#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

namespace lanescope::kineto {

// One parsed trace event; views point into the parser's buffers, valid while the document lives.
struct Event {
    char ph = 0;
    std::string_view cat, name, pidText, tidText;
    int64_t pid = 0, tid = 0, ts = 0, dur = 0;
    bool hasTs = false, hasDur = false;
    // args
    int64_t device = -1, stream = -1, context = -1, correlation = 0, bytes = 0, registers = 0, shared = 0,
            sortIndex = 0, rank = -1;
    uint32_t grid[3] = {0, 0, 0}, block[3] = {0, 0, 0};
    // A cuda_sync "Stream Wait Event": the record waited for (its stream, its cudaEventRecord's
    // correlation id, CUPTI's event id); -1 when absent.
    int64_t waitOnStream = -1, waitOnRecordCorrelation = -1, waitOnEventId = -1;
    // Kernel occupancy estimates ("blocks per SM", "warps per SM", "est. achieved occupancy %");
    // negative when absent.
    float blocksPerSm = -1, warpsPerSm = -1, occupancyPct = -1;
    // A "[memory]" event's args ("Bytes" negative for a free; "Device Type" 0 CPU, 1 CUDA);
    // hasMemory once "Bytes" is read.
    struct Memory {
        int64_t bytes = 0, address = 0, totalAllocated = 0, totalReserved = 0, deviceId = -1, deviceType = 0;
        bool hasMemory = false;
    } memory;
    // A collective's args (an NCCL kernel's or record_param_comms's, PyTorch 2.1+); hasComms once
    // "Collective name" is read; the counts -1 when absent.
    struct Comms {
        std::string_view name, dtype, groupName, groupRanks;
        int64_t inNelems = -1, outNelems = -1, groupSize = -1;
        bool hasComms = false;
    } comms;
    std::string_view argName;
    // A cpu_op's "Input Dims" (record_shapes=True) as its JSON text, whitespace as in the file;
    // empty when absent or not an array. canonicalJson gives the text the model keeps.
    std::string_view inputDims;
    std::vector<std::pair<std::string_view, double>> counterValues;
};

// Microseconds as JSON number text ("4459284064454.059", "-3", "1.5e3") -> nanoseconds,
// exact for plain decimals (digits past the third fraction digit are rounded half up).
bool microsToNs(std::string_view text, int64_t& ns);

// An integer from a JSON number (truncated) or a string of digits; 0 otherwise.
int64_t toInt(simdjson::ondemand::value v);

// `json` (the text of one JSON value) without whitespace outside strings except one space
// after each comma: "[[64, 3], [], [32]]". Returns `json` itself when it is already so written
// (as PyTorch writes it), else the text built in `scratch`.
std::string_view canonicalJson(std::string_view json, std::string& scratch);

// Reads the fields of one trace event in document order (on-demand parsing cannot go back).
void readEvent(simdjson::ondemand::object obj, Event& e);

}  // namespace lanescope::kineto
