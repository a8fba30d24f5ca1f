#include "importers/perfetto/PerfettoPacketReader.h"

#include <google/protobuf/io/coded_stream.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "importers/Inflater.h"
#include "model/DiagnosticKinds.h"

namespace lanescope::perfetto_import {
namespace {

namespace pb = lanescope::perfetto_pb;

using perfetto_format::FrameField;

// The event's first category (inline or interned), if any; a view into `e` or `seq`.
std::optional<std::string_view> categoryOf(const pb::TrackEvent& e, const Sequence& seq) {
    if (e.categories_size() > 0) return e.categories(0);
    if (e.category_iids_size() == 0) return std::nullopt;
    auto it = seq.categories.find(e.category_iids(0));
    return it == seq.categories.end() ? std::nullopt : std::optional<std::string_view>(it->second);
}

// The kind of lane an instant goes to: that of its event kind (from its lanescope.kind or its
// category), else the one its category names (CPU samples), if any.
std::optional<LaneKind> instantLaneOf(std::optional<EventKind> kind, std::optional<std::string_view> category) {
    if (kind) return perfetto_format::laneKindOf(*kind, false);
    return category ? perfetto_format::laneKindOfInstantCategory(*category) : std::nullopt;
}

// The annotation's string value, inline or interned; null without one.
const std::string* stringValue(const pb::DebugAnnotation& a, const Sequence& seq) {
    if (a.has_string_value()) return &a.string_value();
    if (!a.has_string_value_iid()) return nullptr;
    auto it = seq.annotationStrings.find(a.string_value_iid());
    return it == seq.annotationStrings.end() ? nullptr : &it->second;
}

// The field of a frame that a dictionary entry names (inline or interned), if any.
std::optional<FrameField> frameFieldOf(const pb::DebugAnnotation& entry, const Sequence& seq) {
    if (entry.has_name()) return perfetto_format::frameFieldOfName(entry.name());
    auto it = seq.frameFields.find(entry.name_iid());
    return it == seq.frameFields.end() ? std::nullopt : std::optional<FrameField>(it->second);
}

// The frames of a Frames value, innermost first; nullopt unless it is a non-empty array of
// dictionaries that each name a function (a module left out is "").
std::optional<std::vector<FrameText>> framesOf(const pb::DebugAnnotation& a, const Sequence& seq) {
    if (a.array_values_size() == 0) return std::nullopt;
    std::vector<FrameText> frames(static_cast<size_t>(a.array_values_size()));
    for (int i = 0; i < a.array_values_size(); ++i) {
        bool hasFunction = false;
        for (const pb::DebugAnnotation& entry : a.array_values(i).dict_entries()) {
            const std::optional<FrameField> field = frameFieldOf(entry, seq);
            const std::string* text = stringValue(entry, seq);
            if (!field || !text) continue;
            FrameText& frame = frames[static_cast<size_t>(i)];
            (*field == FrameField::Function ? frame.function : frame.module) = *text;
            hasFunction = hasFunction || *field == FrameField::Function;
        }
        if (!hasFunction) return std::nullopt;
    }
    return frames;
}

// Reads the value of machine key `key` from `a` into `out`, if it is of the type the key
// declares (a non-negative int_value counts as a uint, a uint_value up to INT64_MAX as an
// int); else counts it as of the wrong type.
void readValue(perfetto_format::Key key, const pb::DebugAnnotation& a, const Sequence& seq, SliceFields& out) {
    switch (perfetto_format::spec(key).type) {
        case perfetto_format::ValueType::Uint:
            if (a.has_uint_value()) return out.setUint(key, a.uint_value());
            if (a.has_int_value() && a.int_value() >= 0) return out.setUint(key, static_cast<uint64_t>(a.int_value()));
            break;
        case perfetto_format::ValueType::Int:
            if (a.has_int_value()) return out.setInt(key, a.int_value());
            if (a.has_uint_value() && a.uint_value() <= uint64_t{INT64_MAX})
                return out.setInt(key, static_cast<int64_t>(a.uint_value()));
            break;
        case perfetto_format::ValueType::String:
            if (const std::string* text = stringValue(a, seq)) return out.setString(key, *text);
            break;
        case perfetto_format::ValueType::Bool:
            if (a.has_bool_value()) return out.setBool(key, a.bool_value());
            break;
        case perfetto_format::ValueType::Frames:
            if (std::optional<std::vector<FrameText>> frames = framesOf(a, seq))
                return out.setFrames(key, std::move(*frames));
            break;
    }
    out.wrongType();
}

// The event's debug annotations that are Lanescope machine keys, with the value of the type
// the key declares. Display labels and unknown or unnamed annotations are skipped: nothing is
// ever parsed from display text.
SliceFields machineFields(const pb::TrackEvent& e, const Sequence& seq) {
    SliceFields out;
    if (e.debug_annotations_size() == 0) return out;
    for (const pb::DebugAnnotation& a : e.debug_annotations()) {
        std::optional<perfetto_format::Key> key;
        if (a.has_name()) {
            key = perfetto_format::keyOfName(a.name());
        } else if (auto it = seq.annotationKeys.find(a.name_iid()); it != seq.annotationKeys.end()) {
            key = it->second;
        }
        if (key) readValue(*key, a, seq, out);
    }
    return out;
}

}  // namespace

void PacketReader::packet(const pb::TracePacket& p) {
    if (p.has_compressed_packets()) {
        if (p.compressed_packets().size() < (size_t{1} << 30))
            compressed(p.compressed_packets());
        else
            countDiagnostic(r_.diagnostics, Diag::PerfettoCompressedPacketsDamaged);
    }
    if (p.has_zstd_compressed_packets()) countDiagnostic(r_.diagnostics, Diag::PerfettoZstdPacketsUnsupported);
    Sequence& seq = sequences_[p.trusted_packet_sequence_id()];
    if (p.previous_packet_dropped() && seenSequence(p.trusted_packet_sequence_id())) {
        countDiagnostic(r_.diagnostics, Diag::PerfettoPacketsDropped);
        seq.valid = false;
    }
    if ((p.sequence_flags() & pb::TracePacket::SEQ_INCREMENTAL_STATE_CLEARED) || p.incremental_state_cleared()) {
        seq.clear();
        seq.valid = true;
    }
    if ((p.sequence_flags() & pb::TracePacket::SEQ_NEEDS_INCREMENTAL_STATE) && !seq.valid) {
        countDiagnostic(r_.diagnostics, Diag::PerfettoPacketWithoutIncrementalState);
        return;
    }
    if (p.has_trace_packet_defaults() && p.trace_packet_defaults().has_track_event_defaults()) {
        const auto& d = p.trace_packet_defaults().track_event_defaults();
        seq.hasDefaultTrack = d.has_track_uuid();
        seq.defaultTrack = d.track_uuid();
        seq.extraCounterTracks.assign(d.extra_counter_track_uuids().begin(), d.extra_counter_track_uuids().end());
        seq.extraDoubleCounterTracks.assign(d.extra_double_counter_track_uuids().begin(),
                                            d.extra_double_counter_track_uuids().end());
    }
    if (p.has_interned_data()) internedData(p.interned_data(), seq);
    if (p.has_track_descriptor()) descriptor(p.track_descriptor());
    if (p.has_track_event()) event(p, seq);
}

void PacketReader::internedData(const pb::InternedData& d, Sequence& seq) {
    for (const pb::EventName& n : d.event_names()) seq.names[n.iid()] = r_.strings.intern(n.name());
    for (const pb::DebugAnnotationName& n : d.debug_annotation_names()) {
        if (const auto key = perfetto_format::keyOfName(n.name()))
            seq.annotationKeys[n.iid()] = *key;
        else
            seq.annotationKeys.erase(n.iid());
        if (const auto field = perfetto_format::frameFieldOfName(n.name()))
            seq.frameFields[n.iid()] = *field;
        else
            seq.frameFields.erase(n.iid());
    }
    for (const pb::InternedString& v : d.debug_annotation_string_values()) seq.annotationStrings[v.iid()] = v.str();
    for (const pb::EventCategory& c : d.event_categories()) seq.categories[c.iid()] = c.name();
}

void PacketReader::compressed(const std::string& deflated) {
    std::string inflated;
    if (!inflateAll(deflated, inflated, size_t{1} << 30)) {
        countDiagnostic(r_.diagnostics, Diag::PerfettoCompressedPacketsDamaged);
        return;
    }
    google::protobuf::io::CodedInputStream in(reinterpret_cast<const uint8_t*>(inflated.data()),
                                              static_cast<int>(inflated.size()));
    pb::TracePacket inner;
    std::string bytes;
    while (!in.ExpectAtEnd()) {
        uint32_t length = 0;
        if (in.ReadTag() != 0x0A || !in.ReadVarint32(&length) || !in.ReadString(&bytes, static_cast<int>(length)) ||
            !inner.ParseFromString(bytes)) {
            countDiagnostic(r_.diagnostics, Diag::PerfettoCompressedPacketsDamaged);
            return;
        }
        packet(inner);
    }
}

void PacketReader::descriptor(const pb::TrackDescriptor& d) {
    Track& t = tracks_.get(d.uuid());
    t.described = true;
    if (d.has_parent_uuid()) t.parent = d.parent_uuid();
    if (d.has_name()) t.name = d.name();
    if (d.has_process()) {
        t.isProcess = true;
        t.pid = d.process().pid();
        if (d.process().has_process_name())
            t.processName = d.process().process_name();
        else if (d.process().cmdline_size() > 0)
            t.processName = d.process().cmdline(0);
    }
    if (d.has_thread()) {
        t.isThread = true;
        t.pid = d.thread().pid();
        t.tid = d.thread().tid();
        if (d.thread().has_thread_name()) t.threadName = d.thread().thread_name();
    }
    if (d.has_counter()) {
        t.isCounter = true;
        const auto& c = d.counter();
        if (c.has_unit_name())
            t.unit = c.unit_name();
        else if (c.unit() == pb::CounterDescriptor::UNIT_TIME_NS)
            t.unit = "ns";
        else if (c.unit() == pb::CounterDescriptor::UNIT_SIZE_BYTES)
            t.unit = "bytes";
        t.multiplier = c.has_unit_multiplier() && c.unit_multiplier() != 0 ? c.unit_multiplier() : 1;
        t.incremental = c.is_incremental();
    }
}

void PacketReader::sample(uint64_t uuid, int64_t ts, double value) {
    Track& t = tracks_.get(uuid);
    value *= static_cast<double>(t.multiplier);
    if (t.incremental) value = (t.incrementalValue += value);
    t.counterTime.push_back(ts);
    t.counterValue.push_back(value);
}

void PacketReader::event(const pb::TracePacket& p, Sequence& seq) {
    const pb::TrackEvent& e = p.track_event();
    const uint64_t uuid = e.has_track_uuid() ? e.track_uuid() : (seq.hasDefaultTrack ? seq.defaultTrack : 0);
    // As in the nsys importer: a time 2^62 ns (146 years) or more from zero is skipped, so
    // that the difference of any two times kept fits in int64.
    if (p.timestamp() >= (uint64_t{1} << 62)) {
        countDiagnostic(r_.diagnostics, Diag::TimestampOutOfRange);
        return;
    }
    const auto ts = static_cast<int64_t>(p.timestamp());
    // From the lanescope.kind annotation or else the category, if either names one.
    const SliceFields fields = machineFields(e, seq);
    const std::optional<std::string_view> category = categoryOf(e, seq);
    const std::optional<EventKind> kind =
        SliceDetailsReader::kindOf(fields, category ? perfetto_format::eventKindOfCategory(*category) : std::nullopt);
    const bool instant = e.type() == pb::TrackEvent::TYPE_INSTANT;
    const std::optional<LaneKind> instantLane = instant ? instantLaneOf(kind, category) : std::nullopt;
    auto name = [&]() -> uint32_t {
        if (e.has_name()) return r_.strings.intern(e.name());
        if (e.has_name_iid()) {
            auto it = seq.names.find(e.name_iid());
            if (it != seq.names.end()) return it->second;
            countDiagnostic(r_.diagnostics, Diag::PerfettoInternedNameMissing);
        }
        return 0;
    };
    switch (e.type()) {
        case pb::TrackEvent::TYPE_SLICE_BEGIN: {
            const uint32_t sliceName = name();
            const uint32_t payload = kind ? details_.payload(*kind, fields) : kNoPayload;
            tracks_.get(uuid).stack.push_back({ts, sliceName, kind.value_or(EventKind::NvtxRange), payload});
            break;
        }
        case pb::TrackEvent::TYPE_SLICE_END: {
            Track& t = tracks_.get(uuid);
            if (t.stack.empty()) {
                countDiagnostic(r_.diagnostics, Diag::PerfettoUnmatchedEnd);
                break;
            }
            const OpenSlice open = t.stack.back();
            t.stack.pop_back();
            if (ts < open.start) countDiagnostic(r_.diagnostics, Diag::PerfettoNegativeDuration);
            t.events.append(open.start, std::max(ts, open.start), open.name, open.payload, open.kind);
            break;
        }
        case pb::TrackEvent::TYPE_INSTANT: {
            // A CPU sample's payload is its stack; the others' is set when the lane is made.
            const uint32_t payload = instantLane == LaneKind::CpuSamples ? details_.stack(fields) : kNoPayload;
            const uint32_t instantName = name();
            Track& t = tracks_.get(uuid);
            if (t.instants.size() == 0) t.instantLane = instantLane;
            t.instants.time_ns.push_back(ts);
            t.instants.name_id.push_back(instantName);
            t.instants.payload.push_back(payload);
            break;
        }
        case pb::TrackEvent::TYPE_COUNTER:
            sample(uuid, ts,
                   e.has_double_counter_value() ? e.double_counter_value() : static_cast<double>(e.counter_value()));
            break;
        default:
            countDiagnostic(r_.diagnostics, Diag::PerfettoUntypedEventIgnored);
            break;
    }
    const bool annotationsRead =
        (e.type() == pb::TrackEvent::TYPE_SLICE_BEGIN && kind) || instantLane == LaneKind::CpuSamples;
    if (e.debug_annotations_size() > 0 && !annotationsRead)
        countDiagnostic(r_.diagnostics, Diag::PerfettoDebugAnnotationsIgnored,
                        static_cast<uint64_t>(e.debug_annotations_size()));
    const auto& extra =
        e.extra_counter_track_uuids_size() > 0
            ? std::vector<uint64_t>(e.extra_counter_track_uuids().begin(), e.extra_counter_track_uuids().end())
            : seq.extraCounterTracks;
    for (int i = 0; i < e.extra_counter_values_size(); ++i) {
        if (static_cast<size_t>(i) < extra.size())
            sample(extra[i], ts, static_cast<double>(e.extra_counter_values(i)));
        else
            countDiagnostic(r_.diagnostics, Diag::PerfettoExtraCounterWithoutTrack);
    }
    const auto& extraD = e.extra_double_counter_track_uuids_size() > 0
                             ? std::vector<uint64_t>(e.extra_double_counter_track_uuids().begin(),
                                                     e.extra_double_counter_track_uuids().end())
                             : seq.extraDoubleCounterTracks;
    for (int i = 0; i < e.extra_double_counter_values_size(); ++i) {
        if (static_cast<size_t>(i) < extraD.size())
            sample(extraD[i], ts, e.extra_double_counter_values(i));
        else
            countDiagnostic(r_.diagnostics, Diag::PerfettoExtraCounterWithoutTrack);
    }
}

}  // namespace lanescope::perfetto_import
