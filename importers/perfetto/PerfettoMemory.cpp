// The memory estimate of a Perfetto trace: track-event packets counted in its first bytes.
#include <algorithm>
#include <cmath>
#include <fstream>
#include <string>

#include "importers/MemoryEstimate.h"
#include "importers/ProtoVarint.h"
#include "importers/perfetto/PerfettoImporter.h"

namespace lanescope {
namespace {

constexpr size_t kSampleBytes = 4u << 20;  // the first bytes of the file, in which packets are counted

// Packets of `sample` (whole ones only) holding a TrackEvent (TracePacket field 11); `end`
// receives the bytes they span.
uint64_t trackEventPackets(std::string_view sample, size_t& end) {
    uint64_t trackEvents = 0;
    size_t pos = 0;
    while (pos < sample.size() && sample[pos] == 0x0A) {  // Trace.packet, length-delimited
        size_t at = pos + 1;
        uint64_t length = 0;
        if (!readVarint(sample, at, length) || length > sample.size() - at) break;
        const std::string_view packet = sample.substr(at, static_cast<size_t>(length));
        size_t in = 0;
        for (uint64_t tag = 0, value = 0; in < packet.size() && readVarint(packet, in, tag);) {
            const uint64_t wire = tag & 7;
            if (wire == 2) {
                if (!readVarint(packet, in, value) || value > packet.size() - in) break;
                in += static_cast<size_t>(value);
                trackEvents += (tag >> 3) == 11;
            } else if (wire == 0) {
                if (!readVarint(packet, in, value)) break;
            } else if (wire == 1 || wire == 5) {
                in += wire == 1 ? 8 : 4;
            } else {
                break;
            }
        }
        pos = at + static_cast<size_t>(length);
    }
    end = pos;
    return trackEvents;
}

}  // namespace

// A slice is two track events (its begin and its end): half the packets with one, scaled by
// the file's size over the bytes of the whole packets sampled.
MemoryEstimate PerfettoImporter::estimateMemory(const std::filesystem::path& path) const {
    std::error_code ec;
    const uint64_t fileBytes = std::filesystem::file_size(path, ec);
    if (ec) return {};
    std::ifstream in(path, std::ios::binary);
    std::string sample(std::min<uint64_t>(fileBytes, kSampleBytes), '\0');
    in.read(sample.data(), static_cast<std::streamsize>(sample.size()));
    sample.resize(static_cast<size_t>(in.gcount()));
    size_t sampled = 0;
    const uint64_t trackEvents = trackEventPackets(sample, sampled);
    if (sampled == 0) return estimateFromEvents(path, 0);
    const uint64_t events = std::max<uint64_t>(trackEvents / 2, 1);
    if (sampled == fileBytes) return estimateFromEvents(path, events);
    return estimateFromEvents(
        path, static_cast<uint64_t>(std::ceil(static_cast<double>(events) * static_cast<double>(fileBytes) /
                                              static_cast<double>(sampled))));
}

}  // namespace lanescope
