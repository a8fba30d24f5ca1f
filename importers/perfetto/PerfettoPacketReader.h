#pragma once
// Reads Perfetto trace packets into tracks (PerfettoTracks.h): descriptors, slice begin/end
// pairs matched on a stack per track, instants, counter samples, interned names and
// categories per packet sequence, and the compressed packets inside a packet. Names go into
// the report's strings, side-table rows of Lanescope's own exports into its side tables
// (PerfettoSliceDetails.h), and what is odd into its diagnostics; lanes are built afterwards
// (PerfettoLaneBuilder.h).
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "importers/perfetto/PerfettoSliceDetails.h"
#include "importers/perfetto/PerfettoTracks.h"
#include "perfetto/perfetto_subset.pb.h"  // generated, in the build tree

namespace lanescope::perfetto_import {

// Interning state of one packet sequence, valid from an incremental-state clear on.
struct Sequence {
    bool valid = false;  // incremental state seen since the last clear
    std::unordered_map<uint64_t, uint32_t> names;
    std::unordered_map<uint64_t, std::string> categories;
    // Interned debug annotation names that are Lanescope machine keys, and those that name a
    // frame's entries in a stack; other names (display labels, other producers' arguments)
    // are never read, so they are not kept.
    std::unordered_map<uint64_t, perfetto_format::Key> annotationKeys;
    std::unordered_map<uint64_t, perfetto_format::FrameField> frameFields;
    std::unordered_map<uint64_t, std::string> annotationStrings;  // interned string values, by iid
    bool hasDefaultTrack = false;
    uint64_t defaultTrack = 0;
    std::vector<uint64_t> extraCounterTracks, extraDoubleCounterTracks;
    void clear() { *this = Sequence{}; }
};

class PacketReader {
public:
    PacketReader(Report& report, TrackSet& tracks) : r_(report), tracks_(tracks), details_(report, tracks.runThreads) {}

    void packet(const perfetto_pb::TracePacket& p);
    // After the last packet: the CPU samples' stacks into the report.
    void finish() { r_.stacks = details_.releaseStacks(); }

private:
    // compressed_packets: a deflated Trace; its packets are read as if they stood here.
    void compressed(const std::string& deflated);
    void descriptor(const perfetto_pb::TrackDescriptor& d);
    void sample(uint64_t uuid, int64_t ts, double value);
    void event(const perfetto_pb::TracePacket& p, Sequence& seq);
    void internedData(const perfetto_pb::InternedData& d, Sequence& seq);
    bool seenSequence(uint32_t id) { return !seenSequences_.insert(id).second; }

    Report& r_;
    TrackSet& tracks_;
    SliceDetailsReader details_;
    std::unordered_map<uint32_t, Sequence> sequences_;
    std::unordered_set<uint32_t> seenSequences_;
};

}  // namespace lanescope::perfetto_import
