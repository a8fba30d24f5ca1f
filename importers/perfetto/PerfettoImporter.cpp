// Perfetto trace -> Report.
//
// Mapping:
// - TrackDescriptor with `process` -> Process (by pid); with `thread` -> Thread (by pid, tid;
//   a pid without a process track gets a "Process <pid>" process).
// - Every track holding slices or instants -> one lane, owned by the nearest thread/process
//   track up its parent chain. A slice whose lanescope.kind annotation or else category names
//   an event kind (as Lanescope's exports write them: formats/perfetto/PerfettoConventions.h)
//   is an event of that kind, its side-table row and correlation id rebuilt from its machine
//   annotations (PerfettoSliceDetails.h; values of the wrong type or range are counted as
//   `perfetto_annotation_invalid`), and the track's first slice gives
//   the lane's kind (a slice of a kind that lane cannot hold becomes a plain range, counted as
//   `perfetto_kind_mixed_on_track`). Other slices are EventKind::NvtxRange events of a
//   LaneKind::Nvtx lane whose payload is one shared Report::nvtx row (has_color = false), and
//   their debug annotations are counted as `perfetto_debug_annotations_ignored`. Instants go
//   to the lane's instants. Sibling tracks "<name> [row d]" (the Perfetto exporter's rows of a lane
//   whose events overlap without nesting) are one lane named <name>.
// - A parentless named track "GPU <n>: <name>" (as the Perfetto exporter writes GPUs) becomes a Gpu
//   and owns the lanes and counters below it; below it, a track "<process> [<pid>], context
//   <n>" gives its lanes their process and CUDA context, a track named "... Stream <n>" its
//   stream id, and a track named "NCCL" becomes a LaneKind::Nccl lane (derived copies, as in
//   nsys reports).
// - Counter tracks (or tracks receiving counter values) -> Report::counters.
// - Begin/end pair per track with a stack (as Perfetto does). Ends without a begin are
//   counted as `perfetto_unmatched_end`, begins never ended as `perfetto_unterminated_slice`
//   (and dropped).
// - Times are TracePacket.timestamp in ns, kept as they are (no rebasing), so an export of a
//   report reimports with identical times; a time of 2^62 ns or more is skipped and counted as
//   `timestamp_out_of_range`.
// - A file cut short keeps the packets before the cut and counts
//   `perfetto_truncated_packet`; anything else that does not parse is a Corrupt error.
#include "importers/perfetto/PerfettoImporter.h"

#include <fcntl.h>
#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cctype>
#include <climits>
#include <limits>
#include <map>
#include <numeric>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "importers/ProtoVarint.h"
#include "importers/perfetto/PerfettoSliceDetails.h"
#include "model/DiagnosticKinds.h"
#include "perfetto/perfetto_subset.pb.h"  // generated, in the build tree

namespace lanescope {
namespace {

namespace pb = lanescope::perfetto_pb;

ImportError fail(ImportError::Kind kind, const std::filesystem::path& path, const std::string& why) {
    return ImportError{kind, path.string() + ": " + why};
}

// A slice begun and not yet ended on its track.
struct OpenSlice {
    int64_t start;
    uint32_t name;
    EventKind kind;
    uint32_t payload;  // kNoPayload on a plain range: the shared row is set when the lane is made
};

struct Track {
    uint64_t uuid = 0;
    uint64_t parent = 0;
    bool described = false;
    std::string name;
    bool isProcess = false, isThread = false, isCounter = false;
    int64_t pid = 0, tid = 0;
    std::string processName, threadName;
    std::string unit;
    int64_t multiplier = 1;
    bool incremental = false;
    double incrementalValue = 0;
    IntervalColumns events;
    InstantColumns instants;
    std::vector<int64_t> counterTime;
    std::vector<double> counterValue;
    std::vector<OpenSlice> stack;
    std::optional<EventKind> instantKind;  // the category of its first instant, if it names a kind
};

struct Sequence {
    bool valid = false;  // incremental state seen since the last clear
    std::unordered_map<uint64_t, uint32_t> names;
    std::unordered_map<uint64_t, std::string> categories;
    // Interned debug annotation names that are Lanescope machine keys; other names (display
    // labels, other producers' arguments) are never read, so they are not kept.
    std::unordered_map<uint64_t, perfetto_format::Key> annotationKeys;
    bool hasDefaultTrack = false;
    uint64_t defaultTrack = 0;
    std::vector<uint64_t> extraCounterTracks, extraDoubleCounterTracks;
    void clear() { *this = Sequence{}; }
};

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

template <typename T>
void appendColumn(std::vector<T>& to, std::vector<T>& from) {
    to.insert(to.end(), from.begin(), from.end());
    std::vector<T>().swap(from);
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

bool inflateAll(const std::string& in, std::string& out);

class Builder {
public:
    explicit Builder(Report& report) : r_(report), details_(report) {}

    Track& track(uint64_t uuid) {
        auto [it, inserted] = index_.try_emplace(uuid, tracks_.size());
        if (inserted) {
            tracks_.emplace_back();
            tracks_.back().uuid = uuid;
        }
        return tracks_[it->second];
    }

    void packet(const pb::TracePacket& p) {
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
        if (p.has_interned_data()) {
            const pb::InternedData& d = p.interned_data();
            for (const pb::EventName& n : d.event_names()) seq.names[n.iid()] = r_.strings.intern(n.name());
            for (const pb::DebugAnnotationName& n : d.debug_annotation_names()) {
                if (const auto key = perfetto_format::keyOfName(n.name()))
                    seq.annotationKeys[n.iid()] = *key;
                else
                    seq.annotationKeys.erase(n.iid());
            }
            for (const pb::EventCategory& c : d.event_categories()) seq.categories[c.iid()] = c.name();
        }
        if (p.has_track_descriptor()) descriptor(p.track_descriptor());
        if (p.has_track_event()) event(p, seq);
    }

    // compressed_packets: a deflated Trace; its packets are read as if they stood here.
    void compressed(const std::string& deflated) {
        std::string inflated;
        if (!inflateAll(deflated, inflated)) {
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

    void finish();

private:
    bool isStartEnd(EventKind kind, uint32_t payload) const;
    // The kind of lane a track's events go to: that of its first slice, or of its first
    // instant's category when it has no slice (Nvtx when neither names one).
    LaneKind laneKind(const Track& t) const;
    // The stream id in a track name such as "Stream 7" or "Sync, stream 7"; -1 without one.
    static int64_t streamOf(const std::string& trackName);
    bool seenSequence(uint32_t id) { return !seenSequences_.insert(id).second; }

    void descriptor(const pb::TrackDescriptor& d) {
        Track& t = track(d.uuid());
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

    void sample(uint64_t uuid, int64_t ts, double value) {
        Track& t = track(uuid);
        value *= static_cast<double>(t.multiplier);
        if (t.incremental) value = (t.incrementalValue += value);
        t.counterTime.push_back(ts);
        t.counterValue.push_back(value);
    }

    void event(const pb::TracePacket& p, Sequence& seq) {
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
        const std::optional<EventKind> kind = SliceDetailsReader::kindOf(fields, kindOf(e, seq));
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
                track(uuid).stack.push_back({ts, sliceName, kind.value_or(EventKind::NvtxRange), payload});
                break;
            }
            case pb::TrackEvent::TYPE_SLICE_END: {
                Track& t = track(uuid);
                if (t.stack.empty()) {
                    countDiagnostic(r_.diagnostics, Diag::PerfettoUnmatchedEnd);
                    break;
                }
                const OpenSlice open = t.stack.back();
                t.stack.pop_back();
                if (ts < open.start) countDiagnostic(r_.diagnostics, Diag::PerfettoNegativeDuration);
                t.events.start_ns.push_back(open.start);
                t.events.end_ns.push_back(std::max(ts, open.start));
                t.events.name_id.push_back(open.name);
                t.events.payload.push_back(open.payload);
                t.events.kind.push_back(open.kind);
                break;
            }
            case pb::TrackEvent::TYPE_INSTANT: {
                Track& t = track(uuid);
                if (t.instants.size() == 0) t.instantKind = kind;
                t.instants.time_ns.push_back(ts);
                t.instants.name_id.push_back(name());
                t.instants.payload.push_back(0);
                break;
            }
            case pb::TrackEvent::TYPE_COUNTER:
                sample(
                    uuid, ts,
                    e.has_double_counter_value() ? e.double_counter_value() : static_cast<double>(e.counter_value()));
                break;
            default:
                countDiagnostic(r_.diagnostics, Diag::PerfettoUntypedEventIgnored);
                break;
        }
        if (e.debug_annotations_size() > 0 && !(e.type() == pb::TrackEvent::TYPE_SLICE_BEGIN && kind))
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

    // The event kind the event's first category names (interned or inline), if any.
    static std::optional<EventKind> kindOf(const pb::TrackEvent& e, const Sequence& seq) {
        if (e.categories_size() > 0) return perfetto_format::eventKindOfCategory(e.categories(0));
        if (e.category_iids_size() == 0) return std::nullopt;
        auto it = seq.categories.find(e.category_iids(0));
        return it == seq.categories.end() ? std::nullopt : perfetto_format::eventKindOfCategory(it->second);
    }

    // The event's debug annotations that are Lanescope machine keys, with the value of the type
    // the key declares (a non-negative int_value counts as a uint). Display labels and unknown
    // or unnamed annotations are skipped: nothing is ever parsed from display text.
    static SliceFields machineFields(const pb::TrackEvent& e, const Sequence& seq) {
        SliceFields out;
        if (e.debug_annotations_size() == 0) return out;
        for (const pb::DebugAnnotation& a : e.debug_annotations()) {
            std::optional<perfetto_format::Key> key;
            if (a.has_name()) {
                key = perfetto_format::keyOfName(a.name());
            } else if (auto it = seq.annotationKeys.find(a.name_iid()); it != seq.annotationKeys.end()) {
                key = it->second;
            }
            if (!key) continue;
            switch (perfetto_format::spec(*key).type) {
                case perfetto_format::ValueType::Uint:
                    if (a.has_uint_value())
                        out.setUint(*key, a.uint_value());
                    else if (a.has_int_value() && a.int_value() >= 0)
                        out.setUint(*key, static_cast<uint64_t>(a.int_value()));
                    else
                        out.wrongType();
                    break;
                case perfetto_format::ValueType::String:
                    if (a.has_string_value())
                        out.setString(*key, a.string_value());
                    else
                        out.wrongType();
                    break;
                case perfetto_format::ValueType::Bool:
                    if (a.has_bool_value())
                        out.setBool(*key, a.bool_value());
                    else
                        out.wrongType();
                    break;
            }
        }
        return out;
    }

    int32_t processOfPid(int64_t pid, const std::string& name) {
        auto [it, inserted] = processes_.try_emplace(pid, static_cast<int32_t>(r_.processes.size()));
        if (inserted) {
            r_.processes.push_back({pid, r_.strings.intern(name.empty() ? "Process " + std::to_string(pid) : name)});
        } else if (!name.empty() && r_.str(r_.processes[it->second].name_id).starts_with("Process ")) {
            r_.processes[it->second].name_id = r_.strings.intern(name);
        }
        return it->second;
    }

    Report& r_;
    SliceDetailsReader details_;
    std::vector<Track> tracks_;
    std::unordered_map<uint64_t, size_t> index_;
    std::unordered_map<uint32_t, Sequence> sequences_;
    std::unordered_set<uint32_t> seenSequences_;
    std::unordered_map<int64_t, int32_t> processes_;  // pid -> index
};

bool Builder::isStartEnd(EventKind kind, uint32_t payload) const {
    return kind == EventKind::NvtxRange && payload < r_.nvtx.size() && r_.nvtx[payload].start_end;
}

LaneKind Builder::laneKind(const Track& t) const {
    if (t.events.size() == 0)
        return t.instantKind ? perfetto_format::laneKindOf(*t.instantKind, false) : LaneKind::Nvtx;
    return perfetto_format::laneKindOf(t.events.kind[0], isStartEnd(t.events.kind[0], t.events.payload[0]));
}

int64_t Builder::streamOf(const std::string& trackName) {
    const size_t at = trackName.rfind("tream ");
    if (at == std::string::npos) return -1;
    size_t i = at + 6;
    int64_t id = 0;
    return readNumber(trackName, i, id) ? id : -1;
}

void Builder::finish() {
    // Processes and threads, in the order their tracks were first met.
    for (const Track& t : tracks_)
        if (t.isProcess) processOfPid(t.pid, t.processName.empty() ? t.name : t.processName);
    std::map<std::pair<int64_t, int64_t>, int32_t> threads;
    std::vector<int32_t> threadOf(tracks_.size(), -1), processOf(tracks_.size(), -1), gpuOf(tracks_.size(), -1);
    std::unordered_map<int64_t, int32_t> gpus;  // device id -> index
    for (size_t i = 0; i < tracks_.size(); ++i) {
        const Track& t = tracks_[i];
        if (t.isThread) {
            const int32_t process = processOfPid(t.pid, "");
            auto [it, inserted] = threads.try_emplace({t.pid, t.tid}, static_cast<int32_t>(r_.threads.size()));
            if (inserted)
                r_.threads.push_back({t.tid, process,
                                      r_.strings.intern(!t.threadName.empty() ? t.threadName
                                                        : !t.name.empty()     ? t.name
                                                                              : "Thread " + std::to_string(t.tid))});
            threadOf[i] = it->second;
            processOf[i] = process;
        } else if (t.isProcess) {
            processOf[i] = processes_.at(t.pid);
        } else if (t.described && t.parent == 0 && !t.isCounter) {
            int64_t device = 0;
            std::string gpuName;
            if (parseGpuTrackName(t.name, device, gpuName)) {
                auto [it, inserted] = gpus.try_emplace(device, static_cast<int32_t>(r_.gpus.size()));
                if (inserted) r_.gpus.push_back({device, r_.strings.intern(gpuName)});
                gpuOf[i] = it->second;
            }
        }
    }
    // The rows of one lane, split into "<name> [row d]" tracks, are one lane again: the events
    // of the later rows move to the first row's track, which takes the lane's name.
    std::map<std::pair<uint64_t, std::string>, size_t> firstRow;  // (parent, name) -> track
    for (size_t i = 0; i < tracks_.size(); ++i) {
        Track& t = tracks_[i];
        std::string base = rowTrackBaseName(t.name);
        if (base.empty()) continue;
        auto [it, first] = firstRow.try_emplace({t.parent, base}, i);
        t.name = std::move(base);
        if (first) continue;
        Track& into = tracks_[it->second];
        appendColumn(into.events.start_ns, t.events.start_ns);
        appendColumn(into.events.end_ns, t.events.end_ns);
        appendColumn(into.events.name_id, t.events.name_id);
        appendColumn(into.events.payload, t.events.payload);
        appendColumn(into.events.kind, t.events.kind);
        appendColumn(into.instants.time_ns, t.instants.time_ns);
        appendColumn(into.instants.name_id, t.instants.name_id);
        appendColumn(into.instants.payload, t.instants.payload);
    }
    // Under a GPU, a track named for a process and context owns that process's lanes there.
    std::vector<int64_t> contextOf(tracks_.size(), -1);
    for (size_t i = 0; i < tracks_.size(); ++i) {
        const Track& t = tracks_[i];
        const auto parent = index_.find(t.parent);
        if (t.parent == 0 || t.isCounter || parent == index_.end() || gpuOf[parent->second] < 0) continue;
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
            const uint64_t parent = tracks_[cur].parent;
            if (parent == 0) break;
            auto it = index_.find(parent);
            if (it == index_.end()) break;
            if (cur == i) parentIndex = it->second;
            cur = it->second;
        }
    };

    const uint32_t nvtxRow = static_cast<uint32_t>(r_.nvtx.size());
    bool usedNvtx = false;
    for (size_t i = 0; i < tracks_.size(); ++i) {
        Track& t = tracks_[i];
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
            std::string name = t.name;
            if (name.empty() && thread >= 0) name = std::string(r_.str(r_.threads[thread].name_id));
            if (name.empty() && process >= 0) name = std::string(r_.str(r_.processes[process].name_id));
            if (name.empty()) name = t.uuid == 0 ? "Global" : "Track " + std::to_string(t.uuid);
            lane.name_id = r_.strings.intern(name);
            lane.thread = thread;
            lane.process = process >= 0 ? process : (thread >= 0 ? r_.threads[thread].process : -1);
            lane.gpu = gpu;
            // Plain ranges and instants share one NVTX row without attributes.
            for (size_t e = 0; e < t.events.size(); ++e) {
                if (t.events.kind[e] != EventKind::NvtxRange || t.events.payload[e] != kNoPayload) continue;
                t.events.payload[e] = nvtxRow;
                usedNvtx = true;
            }
            for (auto& p : t.instants.payload) p = nvtxRow;
            usedNvtx = usedNvtx || t.instants.size() > 0;
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

bool inflateAll(const std::string& in, std::string& out) {
    z_stream z{};
    if (inflateInit2(&z, 15 + 32) != Z_OK) return false;  // zlib or gzip header
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
    z.avail_in = static_cast<uInt>(in.size());
    char buffer[1 << 16];
    int rc = Z_OK;
    while (rc == Z_OK) {
        z.next_out = reinterpret_cast<Bytef*>(buffer);
        z.avail_out = sizeof buffer;
        rc = ::inflate(&z, Z_NO_FLUSH);
        out.append(buffer, sizeof buffer - z.avail_out);
        if (out.size() > (size_t{1} << 30)) rc = Z_MEM_ERROR;
    }
    inflateEnd(&z);
    return rc == Z_STREAM_END;
}

}  // namespace

bool PerfettoImporter::canRead(std::string_view head, const std::filesystem::path& path) const {
    const auto ext = path.extension();
    if (ext == ".pftrace" || ext == ".perfetto-trace") return true;
    // Trace.packet (field 1, length-delimited), a sane length, and a packet that parses (or,
    // when it does not fit in the head, starts with a valid tag).
    if (head.size() < 3 || static_cast<uint8_t>(head[0]) != 0x0A) return false;
    size_t pos = 1;
    uint64_t length = 0;
    if (!readVarint(head, pos, length) || length == 0 || length > (uint64_t{64} << 20)) return false;
    // importFile passes the first 4096 bytes: a shorter head is the whole file.
    if (pos + length > head.size() && head.size() < 4096) return false;
    if (pos + length <= head.size()) {
        pb::TracePacket packet;
        return packet.ParseFromArray(head.data() + pos, static_cast<int>(length));
    }
    uint64_t tag = 0;
    if (!readVarint(head, pos, tag)) return false;
    const uint64_t wire = tag & 7, field = tag >> 3;
    return field > 0 && field < 100000 && (wire == 0 || wire == 1 || wire == 2 || wire == 5);
}

ImportResult PerfettoImporter::import(const std::filesystem::path& path, const ImportOptions&, ProgressSink& progress,
                                      std::stop_token stop) const {
    std::error_code ec;
    const uint64_t fileSize = std::filesystem::file_size(path, ec);
    if (ec) return fail(ImportError::Kind::Unreadable, path, "cannot be read: " + ec.message());
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return fail(ImportError::Kind::Unreadable, path, "cannot be read (permission denied?)");
    struct Closer {
        int fd;
        ~Closer() { ::close(fd); }
    } closer{fd};

    auto report = std::make_unique<Report>();
    report->meta.format = "perfetto";
    report->meta.producer = "Perfetto";
    report->meta.source_path = path.string();
    Builder builder(*report);

    google::protobuf::io::FileInputStream file(fd, 1 << 20);
    pb::TracePacket packet;
    std::string bytes;
    uint64_t offset = 0, packets = 0;
    bool done = false;
    progress.progress("reading Perfetto packets", 0, fileSize);
    while (!done) {
        // A fresh CodedInputStream every batch keeps its 2 GiB byte limit out of reach.
        google::protobuf::io::CodedInputStream in(&file);
        const uint64_t base = offset;
        for (int n = 0; n < 16384; ++n) {
            offset = base + static_cast<uint64_t>(in.CurrentPosition());
            if (offset >= fileSize) {
                done = true;
                break;
            }
            const uint32_t tag = in.ReadTag();
            if (tag != 0x0A) {
                if (packets == 0)
                    return fail(ImportError::Kind::Corrupt, path, "not a Perfetto trace: no trace packet at byte 0");
                return fail(ImportError::Kind::Corrupt, path,
                            "damaged Perfetto trace: unexpected field " + std::to_string(tag >> 3) + " at byte " +
                                std::to_string(offset));
            }
            uint32_t length = 0;
            const bool lengthRead = in.ReadVarint32(&length);
            const uint64_t dataAt = base + static_cast<uint64_t>(in.CurrentPosition());
            if (!lengthRead || dataAt + length > fileSize) {
                if (packets == 0)
                    return fail(ImportError::Kind::Corrupt, path,
                                "not a Perfetto trace: first packet runs past the end of the file");
                countDiagnostic(report->diagnostics, Diag::PerfettoTruncatedPacket);
                done = true;
                break;
            }
            if (!in.ReadString(&bytes, static_cast<int>(length)) || !packet.ParseFromString(bytes)) {
                return fail(ImportError::Kind::Corrupt, path,
                            packets == 0 ? std::string("not a Perfetto trace: first packet does not parse")
                                         : "damaged Perfetto trace: packet at byte " + std::to_string(offset) +
                                               " does not parse");
            }
            builder.packet(packet);
            ++packets;
        }
        offset = base + static_cast<uint64_t>(in.CurrentPosition());
        if (stop.stop_requested()) return ImportError{ImportError::Kind::Cancelled, "import cancelled"};
        progress.progress("reading Perfetto packets", offset, fileSize);
    }
    progress.progress("building lanes", 0, 0);
    builder.finish();
    return ImportResult(std::move(report));
}

}  // namespace lanescope
