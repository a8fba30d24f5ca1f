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
//   to the lane's instants; a track of instants only is the kind of lane its first instant's
//   category names. Sibling tracks "<name> [row d]" (the Perfetto exporter's rows of a lane
//   whose events overlap without nesting) are one lane named <name>.
// - The CPU side, as the Perfetto exporter writes it: slices of category "thread_state" are a
//   LaneKind::ThreadState lane of the thread above them, their payload made from the
//   lanescope.thread_state and lanescope.cpu keys; a track of "core_run" slices is a
//   LaneKind::CpuCore lane whose Lane::cpu is the n of its name "CPU <n>", each slice's payload
//   the thread that lanescope.pid and lanescope.tid name (made when no thread track did);
//   instants of category "cpu_sample" are a LaneKind::CpuSamples lane, each one's
//   lanescope.stack (frames innermost first) interned into Report::stacks as its payload
//   (kNoStack without one).
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

#include "importers/ProtoVarint.h"
#include "importers/perfetto/PerfettoLaneBuilder.h"
#include "importers/perfetto/PerfettoPacketReader.h"
#include "model/DiagnosticKinds.h"

namespace lanescope {
namespace {

namespace pb = lanescope::perfetto_pb;

ImportError fail(ImportError::Kind kind, const std::filesystem::path& path, const std::string& why) {
    return ImportError{kind, path.string() + ": " + why};
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
    perfetto_import::TrackSet tracks;
    perfetto_import::PacketReader reader(*report, tracks);

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
            reader.packet(packet);
            ++packets;
        }
        offset = base + static_cast<uint64_t>(in.CurrentPosition());
        if (stop.stop_requested()) return ImportError{ImportError::Kind::Cancelled, "import cancelled"};
        progress.progress("reading Perfetto packets", offset, fileSize);
    }
    reader.finish();
    progress.progress("building lanes", 0, 0);
    perfetto_import::buildLanes(*report, tracks);
    return ImportResult(std::move(report));
}

}  // namespace lanescope
