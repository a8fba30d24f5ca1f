// Writing a model file: the plan of every section (FilePlan), then the sections, each hashed on
// its way out (HashingWriter), then the section table with those hashes, then the header with
// the checksum of the table.
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <string_view>
#include <vector>

#include "importers/cache/FastHash.h"
#include "importers/cache/ModelFile.h"
#include "importers/cache/ModelFormat.h"
#include "importers/cache/RawLayout.h"

namespace lanescope::cache {
namespace {

uint64_t alignUp(uint64_t n) { return (n + kSectionAlignment - 1) / kSectionAlignment * kSectionAlignment; }

// Strings as a model file keeps them: their lengths, and their characters end to end.
struct StringList {
    std::vector<uint32_t> lengths;
    std::string chars;
    bool tooLong = false;  // a string of 4 GiB or more, which a length cannot hold

    void add(std::string_view s) {
        tooLong = tooLong || s.size() > UINT32_MAX;
        lengths.push_back(static_cast<uint32_t>(s.size()));
        chars.append(s);
    }
};

// A run of a section's bytes: elements of one vector of the report or of the plan, `element`
// bytes each. Elements whose type has padding are copied out by `copy`, which zeroes it; the
// others (copy null) are written as they are.
struct Piece {
    const std::byte* data = nullptr;
    size_t bytes = 0;
    size_t element = 1;
    void (*copy)(const std::byte* in, size_t bytes, std::byte* out) = nullptr;
};

template <typename T>
void copyElements(const std::byte* in, size_t bytes, std::byte* out) {
    copyZeroingPadding(reinterpret_cast<const T*>(in), bytes / sizeof(T), out);
}

// Writes a file front to back from a given offset through a buffer, hashing the bytes written
// since the last startSection (all of them when there was none) but the zeros of zerosTo.
class HashingWriter {
public:
    HashingWriter(int fd, uint64_t offset) : fd_(fd), offset_(offset), buffer_(kBufferBytes) {}

    void write(const Piece& piece) {
        if (!piece.copy) return write(piece.data, piece.bytes);
        const size_t chunk = kBufferBytes / piece.element * piece.element;
        for (size_t done = 0; done < piece.bytes; done += chunk) {
            const size_t n = std::min(chunk, piece.bytes - done);
            if (used_ + n > kBufferBytes) flush();
            piece.copy(piece.data + done, n, buffer_.data() + used_);
            hash_.update(buffer_.data() + used_, n);
            used_ += n;
        }
    }
    void write(const void* data, size_t bytes) {
        hash_.update(data, bytes);
        if (used_ + bytes > kBufferBytes) flush();
        if (bytes >= kBufferBytes) return writeOut(static_cast<const std::byte*>(data), bytes);
        std::memcpy(buffer_.data() + used_, data, bytes);
        used_ += bytes;
    }
    // Zeros, not hashed, up to file offset `end`.
    void zerosTo(uint64_t end) {
        static constexpr std::byte kZeros[kSectionAlignment] = {};
        while (offset_ + used_ < end) {
            const size_t n = std::min<uint64_t>(sizeof kZeros, end - offset_ - used_);
            if (used_ + n > kBufferBytes) flush();
            std::memcpy(buffer_.data() + used_, kZeros, n);
            used_ += n;
        }
    }
    // Zeros up to file offset `start`, where a section starts; the hash starts again after them.
    void startSection(uint64_t start) {
        zerosTo(start);
        hash_ = FastHash();
    }
    // Writes what is buffered; false with the reason when any write failed.
    bool finish(std::string& error) {
        flush();
        if (errno_) error = std::string("cannot write the model file: ") + std::strerror(errno_);
        return errno_ == 0;
    }
    // The hash of the bytes written since the last startSection.
    uint64_t digest() const { return hash_.digest(); }

private:
    static constexpr size_t kBufferBytes = size_t{1} << 20;

    void flush() {
        writeOut(buffer_.data(), used_);
        used_ = 0;
    }
    void writeOut(const std::byte* data, size_t bytes) {
        while (bytes > 0 && errno_ == 0) {
            const ssize_t n = ::pwrite(fd_, data, bytes, static_cast<off_t>(offset_));
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) {
                errno_ = n < 0 ? errno : ENOSPC;
                return;
            }
            data += n, bytes -= size_t(n), offset_ += uint64_t(n);
        }
    }

    int fd_;
    uint64_t offset_;  // of the buffer's first byte in the file
    std::vector<std::byte> buffer_;
    size_t used_ = 0;
    FastHash hash_;
    int errno_ = 0;  // of the first failed write
};

}  // namespace

// Everything a model file holds, before a byte is written: the records and strings made from
// the report, and per section the runs of bytes it is made of, pointing into the report and
// into those records, which are complete before the first run is taken and never change after.
class FilePlan {
public:
    FilePlan(const Report& report, const LaneReplacements& replaced);
    FilePlan(const FilePlan&) = delete;
    FilePlan& operator=(const FilePlan&) = delete;

    uint64_t fileBytes() const { return fileBytes_; }
    bool write(int fd, std::string& error) const;

private:
    template <typename T, typename Allocator>
    void add(Section section, const std::vector<T, Allocator>& column);
    void add(Section lengths, Section chars, const StringList& list);
    void place();

    std::vector<MetaRecord> meta_;
    StringList metaStrings_, pool_, messageTexts_, diagnosticNames_;
    std::vector<LaneRecord> lanes_;
    std::vector<CounterRecord> counters_;
    std::vector<MessageRecord> messages_;
    std::vector<uint64_t> diagnosticCounts_;
    std::array<std::vector<Piece>, kSectionCount> pieces_;
    std::array<SectionEntry, kSectionCount> table_{};
    uint64_t fileBytes_ = 0;
};

FilePlan::FilePlan(const Report& r, const LaneReplacements& replaced) {
    // Every member of the report: the tables go through forEachTable, the derived cache is
    // left out (it is rebuilt on use).
    const auto& [meta, strings, processes, threads, gpus, machine_gpus, system_properties, cuda_devices, cuda_contexts,
                 cuda_streams, recorded_names, lanes, counters, kernels, kernel_configs, memcpys, memsets, syncs, nvtx,
                 graph_executions, cuda_events, gpu_page_faults, cpu_page_faults, migrations, peer_copies,
                 kernel_graph_nodes, collective_args, graph_api_events, process_streams, capture_options,
                 generic_event_sources, generic_event_types, generic_event_fields, nsys_messages, pytorch_memory,
                 cuda_memory_events, cpu_utilization_counter, cuda_api_results, unusual_samples, nvtx_other_starts_ns,
                 nvtx_domains, nvtx_namings, nvtx_ties, nvtx_payloads, profiler_overhead, stacks, backtraces,
                 backtrace_frame_details, sample_frame_details, file_order, diagnostics, derived] = r;
    const auto& [format, producer, version, start_utc_ns, utc_minus_local_ns, session_clock_start_ns,
                 session_clock_stop_ns, begin_ns, end_ns, rank, reader, nsys_version, source_path] = meta;
    meta_.push_back({start_utc_ns, utc_minus_local_ns, session_clock_start_ns, session_clock_stop_ns, begin_ns, end_ns,
                     rank, cpu_utilization_counter, strings.tableSize()});
    for (const std::string* s : metaStrings(meta)) metaStrings_.add(*s);
    for (uint32_t id = 0; id < strings.size(); ++id) pool_.add(strings.str(id));
    // The lanes written: the report's own, or their replacements.
    std::vector<const Lane*> written;
    written.reserve(lanes.size());
    for (size_t i = 0; i < lanes.size(); ++i) {
        const Lane* replacement = replaced ? replaced(i) : nullptr;
        written.push_back(replacement ? replacement : &lanes[i]);
    }
    for (const Lane* each : written) {
        const Lane& lane = *each;
        const auto& [kind, name_id, process, thread, gpu, stream_id, context_id, cpu, recorded_gpu, depth_count, events,
                     depth_order, depth_begin, instants] = lane;
        LaneRecord& record = lanes_.emplace_back();
        size_t k = 0;
        forEachLaneColumn(lane, [&](Section, const auto& column) { record.column_sizes[k++] = column.size(); });
        record.stream_id = stream_id;
        record.context_id = context_id;
        record.name_id = name_id;
        record.process = process;
        record.thread = thread;
        record.gpu = gpu;
        record.cpu = cpu;
        record.recorded_gpu = recorded_gpu;
        record.kind = static_cast<uint8_t>(kind);
        record.depth_count = depth_count;
    }
    for (const Counter& counter : counters) {
        const auto& [name_id, unit_id, gpu, process, is_derived, time_ns, value] = counter;
        CounterRecord& record = counters_.emplace_back();
        size_t k = 0;
        forEachCounterColumn(counter, [&](Section, const auto& column) { record.column_sizes[k++] = column.size(); });
        record.name_id = name_id;
        record.unit_id = unit_id;
        record.gpu = gpu;
        record.process = process;
        record.derived = is_derived;
    }
    for (const NsysMessage& message : nsys_messages) {
        const auto& [time_ns, time_source, source, severity, process, text, global_pid] = message;
        messages_.push_back({time_ns, process, time_source, source, severity, 0, global_pid});
        messageTexts_.add(text);
    }
    for (const auto& [name, count] : diagnostics) {
        diagnosticNames_.add(name);
        diagnosticCounts_.push_back(count);
    }

    // The runs of each section, once every record above is complete.
    add(Section::Meta, meta_);
    add(Section::MetaStringLengths, Section::MetaStringChars, metaStrings_);
    add(Section::PoolLengths, Section::PoolChars, pool_);
    add(Section::Lanes, lanes_);
    for (const Lane* lane : written) forEachLaneColumn(*lane, [&](Section s, const auto& column) { add(s, column); });
    add(Section::Counters, counters_);
    for (const Counter& counter : counters)
        forEachCounterColumn(counter, [&](Section s, const auto& column) { add(s, column); });
    add(Section::Messages, messages_);
    add(Section::MessageTextLengths, Section::MessageTextChars, messageTexts_);
    add(Section::DiagnosticNameLengths, Section::DiagnosticNameChars, diagnosticNames_);
    add(Section::DiagnosticCounts, diagnosticCounts_);
    forEachTable(r, [&](Section s, const auto& table) { add(s, table); });
    place();
}

template <typename T, typename Allocator>
void FilePlan::add(Section section, const std::vector<T, Allocator>& column) {
    static_assert(kStoredRaw<T> || std::is_same_v<T, MetaRecord> || std::is_same_v<T, LaneRecord> ||
                  std::is_same_v<T, CounterRecord> || std::is_same_v<T, MessageRecord>);
    if (column.empty()) return;
    Piece piece{reinterpret_cast<const std::byte*>(column.data()), column.size() * sizeof(T), sizeof(T)};
    if constexpr (kHasPadding<T>) piece.copy = &copyElements<T>;
    pieces_[size_t(section)].push_back(piece);
}

void FilePlan::add(Section lengths, Section chars, const StringList& list) {
    add(lengths, list.lengths);
    if (!list.chars.empty())
        pieces_[size_t(chars)].push_back({reinterpret_cast<const std::byte*>(list.chars.data()), list.chars.size()});
}

// Each section at the next multiple of kSectionAlignment after the one before.
void FilePlan::place() {
    static_assert(sizeof(ModelFileHeader) + sizeof table_ == kModelTableEnd);
    uint64_t offset = kModelTableEnd;
    for (size_t s = 0; s < kSectionCount; ++s) {
        uint64_t bytes = 0;
        for (const Piece& piece : pieces_[s]) bytes += piece.bytes;
        offset = alignUp(offset);
        table_[s] = {offset, bytes};
        offset += bytes;
    }
    fileBytes_ = offset;
}

bool FilePlan::write(int fd, std::string& error) const {
    for (const StringList* list : {&metaStrings_, &pool_, &messageTexts_, &diagnosticNames_}) {
        if (!list->tooLong) continue;
        error = "cannot write the model file: a string of the report is 4 GiB or longer";
        return false;
    }
    // The sections, each hashed on its own, then the table with their hashes.
    std::array<SectionEntry, kSectionCount> table = table_;
    HashingWriter out(fd, kModelTableEnd);
    for (size_t s = 0; s < kSectionCount; ++s) {
        out.startSection(table[s].offset);
        for (const Piece& piece : pieces_[s]) out.write(piece);
        table[s].hash = out.digest();
    }
    if (!out.finish(error)) return false;
    HashingWriter tableOut(fd, sizeof(ModelFileHeader));
    tableOut.write(table.data(), sizeof table);
    if (!tableOut.finish(error)) return false;

    ModelFileHeader header;
    std::memcpy(header.magic, kModelMagic, sizeof header.magic);
    header.format_version = kModelFormatVersion;
    header.byte_order = kByteOrderMark;
    static_assert(sizeof(LANESCOPE_VERSION) <= sizeof header.app_version);
    std::memcpy(header.app_version, LANESCOPE_VERSION, sizeof(LANESCOPE_VERSION));
    header.layout_fingerprint = layoutFingerprint();
    header.file_bytes = fileBytes_;
    header.checksum = tableOut.digest();
    header.section_count = kSectionCount;
    HashingWriter headerOut(fd, 0);
    headerOut.write(&header, sizeof header);
    return headerOut.finish(error);
}

ModelFileWriter::ModelFileWriter(const Report& report, const LaneReplacements& replaced)
    : plan_(std::make_unique<FilePlan>(report, replaced)) {}
ModelFileWriter::~ModelFileWriter() = default;
uint64_t ModelFileWriter::fileBytes() const { return plan_->fileBytes(); }
bool ModelFileWriter::write(int fd, std::string& error) const { return plan_->write(fd, error); }

}  // namespace lanescope::cache
