#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "model/EventRows.h"
#include "model/Find.h"

namespace lanescope {

// The fields of an event that an events table shows, in its column order.
enum class EventField : uint8_t {
    Start,     // shared timeline, ns
    End,       // shared timeline, ns
    Duration,  // ns
    Name,
    Kind,  // eventKindLabel
    Row,   // the lane's name
    Depth,
    CorrelationId,  // CUDA API calls and the GPU work and syncs they launched
    Grid,           // kernels: x × y × z, sorted by the product
    Block,          // kernels: x × y × z, sorted by the product
    Registers,      // kernels: registers per thread
    SharedMemory,   // kernels: static + dynamic shared memory, bytes
    Occupancy,      // kernels: theoretical occupancy on their GPU, percent (model/Occupancy.h)
    Bytes,          // memcpy, memset
    Throughput,     // memcpy, memset: bytes per second
    CopyKind,       // memcpy: copyKindLabel
    Memory,         // memcpy: "source → destination" memory kinds; memset: its memory kind
    SyncType,       // sync: syncTypeLabel
    Domain,         // NVTX ranges: the domain name, "default" for none
    Color,          // NVTX ranges with a colour: 0xRRGGBB
};
inline constexpr size_t kEventFieldCount = 20;

// A view of an EventRows: row positions (indexes into the EventRows, which are in start order)
// in the order shown. uint32_t: up to 4 billion rows.
using EventRowOrder = std::vector<uint32_t>;

// The rows whose event name matches `query` (see FindQuery), ascending (so in start order).
// Decided once per distinct name and report. An empty query keeps every row; an invalid
// regular expression keeps none and says why in *error.
EventRowOrder filterEventRows(const EventRows& rows, const FindQuery& query, std::string* error = nullptr);

// `subset` (row positions; every row when null) ordered by `field`: numbers by value, text by
// byte order of its UTF-8; rows whose event has no such field last in either direction; ties
// in the order of `subset` (start order for every row or a filter's result). Keys are read on
// two threads for large inputs and sorted by a radix sort: O(n) per 11 bits of the keys' range.
EventRowOrder sortEventRows(const EventRows& rows, const EventRowOrder* subset, EventField field, bool descending);

}  // namespace lanescope
