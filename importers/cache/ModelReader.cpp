// Reading a model file: map it, check the header and the section table (its checksum, its
// bounds), then take each section front to back, hashing its bytes where they lie: the model's
// columns (Column<T>: the lanes' events and instants and the largest side tables, 25 of the 26
// bytes an event takes) become views of the mapping, the other tables copies. First what the report's rows need (handed
// to the caller as a skeleton when asked), then the columns and other tables, each section on one of several threads;
// rebuild the string pool, compare each section's hash with the table's, then check the model's invariants (on several
// threads too). Any failure discards everything read so far.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <string_view>
#include <vector>

#include "importers/WatchedMappings.h"
#include "importers/cache/FastHash.h"
#include "importers/cache/ModelFile.h"
#include "importers/cache/ModelFormat.h"
#include "importers/cache/ModelInvariants.h"
#include "importers/cache/OnThreads.h"
#include "model/Column.h"
#include "model/LaneFreezer.h"

namespace lanescope::cache {
namespace {

std::atomic<bool> modelCutShort{false};  // a mapped model was found cut short (WatchedMappings.h)

// Asks for pages of 2 MiB (transparent huge pages) in the part of a new column's memory that
// holds whole ones, before the first write touches it: filling it then faults once per 2 MiB
// instead of once per 4 KiB. On the 2-core virtual machine of docs/report-cache.md, where faults are
// costly, the load of 10 M events takes about 0.6 s instead of 1.0 s.
constexpr uintptr_t kHugePageBytes = uintptr_t{2} << 20;
void adviseHugePages(const void* data, size_t bytes) {
    const auto start = reinterpret_cast<uintptr_t>(data);
    const uintptr_t begin = (start + kHugePageBytes - 1) & ~(kHugePageBytes - 1);
    const uintptr_t end = (start + bytes) & ~(kHugePageBytes - 1);
    if (end > begin) ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
}

// A model file's bytes mapped into memory (private: a write to them, which nothing makes,
// would change this copy only, never the file). Unmapped when the last column viewing them
// goes, which may be long after the load.
class MappedBytes {
public:
    MappedBytes(void* data, size_t size) : data_(static_cast<std::byte*>(data)), size_(size) {
        watchMapping(data_, size_, modelCutShort);  // a file cut short underneath reads as zeros, not SIGBUS
    }
    MappedBytes(const MappedBytes&) = delete;
    MappedBytes& operator=(const MappedBytes&) = delete;
    ~MappedBytes() {
        unwatchMapping(data_);
        ::munmap(data_, size_);
    }
    const std::byte* begin() const { return data_; }
    const std::byte* end() const { return data_ + size_; }

private:
    std::byte* data_;
    size_t size_;
};

// A model file mapped whole. Reading copies from the mapping; the model's columns view it
// (SectionReader::take), sharing the mapping's ownership.
class ModelFile {
public:
    bool open(const std::filesystem::path& path, std::string& error) {
        const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd < 0) {
            error = std::string("cannot open: ") + std::strerror(errno);
            return false;
        }
        struct stat st {};
        if (::fstat(fd, &st) != 0) {
            error = std::string("cannot read: ") + std::strerror(errno);
            ::close(fd);
            return false;
        }
        size_ = static_cast<uint64_t>(st.st_size);
        if (size_ > 0) {
            void* data = ::mmap(nullptr, size_t(size_), PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
            if (data == MAP_FAILED) {
                error = std::string("cannot map: ") + std::strerror(errno);
                ::close(fd);
                return false;
            }
#ifdef MADV_POPULATE_READ
            // Its page tables filled at once, not by a fault per 4 KiB page as it is read
            // (a kernel before 5.14 refuses, and the reads fault).
            ::madvise(data, size_t(size_), MADV_POPULATE_READ);
#endif
            mapping_ = std::make_shared<const MappedBytes>(data, size_t(size_));
        }
        ::close(fd);  // the mapping stays
        return true;
    }
    // The size when opened.
    uint64_t size() const { return size_; }
    // The bytes at `offset` (< size()).
    const std::byte* at(uint64_t offset) const { return mapping_->begin() + offset; }
    const std::shared_ptr<const MappedBytes>& mapping() const { return mapping_; }
    // Copies bytes [offset, offset + bytes) into `out`: the reason it cannot (the file ends
    // first), or empty.
    std::string read(uint64_t offset, void* out, size_t bytes) const {
        if (offset > size_ || bytes > size_ - offset) return "ends at byte " + std::to_string(size_);
        if (bytes > 0) std::memcpy(out, at(offset), bytes);
        return {};
    }

private:
    uint64_t size_ = 0;
    std::shared_ptr<const MappedBytes> mapping_;
};

// The sections of a model file whose table is checked: how much of each has been read, the hash
// of those bytes, and the characters of those read whole. Each section is read front to back,
// by one SectionReader at a time, so that its one running hash sees its bytes in order;
// different sections may be read on different threads at once.
class Sections {
public:
    Sections(const ModelFile& file, const std::array<SectionEntry, kSectionCount>& table, std::stop_token stop)
        : file_(file), table_(table), stop_(std::move(stop)) {}

    // Whether `section` has been read whole and its bytes hash to the table's hash.
    bool whole(Section section) const {
        const size_t s = size_t(section);
        return state_[s].taken == table_[s].bytes && state_[s].hash.digest() == table_[s].hash;
    }
    // The name of the first section with bytes nothing took; empty when there is none.
    std::string_view leftOver() const {
        for (size_t s = 0; s < kSectionCount; ++s)
            if (state_[s].taken != table_[s].bytes) return sectionName(Section(s));
        return {};
    }

private:
    friend class SectionReader;
    // One cache line or more each: threads reading different sections share no line.
    struct alignas(64) State {
        uint64_t taken = 0;  // bytes read from the start of the section
        FastHash hash;       // of those bytes
        std::string chars;   // a section of characters, read whole
    };

    const ModelFile& file_;
    std::array<SectionEntry, kSectionCount> table_;
    std::stop_token stop_;
    std::array<State, kSectionCount> state_;
};

// Takes sections into the columns and vectors that take them, hashing them on the way: one per
// thread.
class SectionReader {
public:
    explicit SectionReader(Sections& sections) : sections_(sections) {}

    // The next `count` elements of `section` into `out`, hashed: a model column (Column<T>) views
    // them where they lie in the mapped file; any other vector gets a copy. False when fewer
    // are left, a read fails or a stop is requested. A section is taken in whole elements, so
    // they come out as they went in, and a view is aligned (each section starts at a multiple
    // of 64).
    template <typename T, typename Allocator>
    bool take(Section section, uint64_t count, std::vector<T, Allocator>& out) {
        static_assert(std::is_trivially_copyable_v<T> && alignof(T) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__);
        if (!proceed() || count > left(section) / sizeof(T)) return false;
        if constexpr (std::is_same_v<Allocator, ColumnAllocator<T>>) {
            const uint64_t offset = sections_.table_[size_t(section)].offset + sections_.state_[size_t(section)].taken;
            if (offset % alignof(T) != 0) return false;
            const auto* elements = reinterpret_cast<const T*>(sections_.file_.at(offset));
            hashInPlace(size_t(section), count * sizeof(T));
            const auto& mapping = sections_.file_.mapping();
            out = viewColumn(std::shared_ptr<const void>(mapping), mapping->begin(), mapping->end(), elements,
                             size_t(count));
            return true;
        } else {
            return copy(section, count, out);
        }
    }
    // Every element of `section` left (a whole number of them).
    template <typename T, typename Allocator>
    bool takeAll(Section section, std::vector<T, Allocator>& out) {
        return left(section) % sizeof(T) == 0 && take(section, left(section) / sizeof(T), out);
    }
    // The strings of a list: lengths, and the characters of `chars`, read whole into memory of
    // the Sections; views into it, valid while they live.
    bool takeStrings(Section lengths, Section chars, std::vector<std::string_view>& out) {
        std::vector<uint32_t> sizes;
        if (!takeAll(lengths, sizes) || !proceed()) return false;
        std::string& text = sections_.state_[size_t(chars)].chars;
        text.resize(left(chars));
        if (!read(size_t(chars), text.data(), text.size())) return false;
        uint64_t at = 0;
        out.clear();
        out.reserve(sizes.size());
        for (const uint32_t size : sizes) {
            if (size > text.size() - at) return false;
            out.emplace_back(text.data() + at, size);
            at += size;
        }
        return at == text.size();
    }
    // Why this reader stopped before the bytes did: a failed read, "cancelled"; empty when neither.
    const std::string& error() const { return error_; }
    // Whether every section's bytes hash to the table's hash: the reason they do not, or empty.
    // Reads and hashes what no take read (after a failure), so that a damaged file is said to
    // be damaged, not reported by whichever check its changed bytes happened to break first.
    // Only while no other reader reads.
    std::string checkHashes() {
        for (size_t s = 0; s < kSectionCount; ++s) {
            hashInPlace(s, left(Section(s)));  // the table placed every section inside the file
            if (sections_.state_[s].hash.digest() != sections_.table_[s].hash)
                return "checksum mismatch in section " + std::string(sectionName(Section(s))) + ": the file is damaged";
        }
        return {};
    }

private:
    // Columns are read in chunks of this, which the L2 cache holds between the hash and the
    // copy into the column.
    static constexpr uint64_t kChunkBytes = uint64_t{256} << 10;

    // take() into memory of the vector's own, written once: chunk by chunk, each hashed where
    // it lies in the mapping, then appended while the L2 cache holds it.
    template <typename T, typename Allocator>
    bool copy(Section section, uint64_t count, std::vector<T, Allocator>& out) {
        out.clear();
        out.reserve(count);
        if (count * sizeof(T) >= kHugePageBytes) adviseHugePages(out.data(), count * sizeof(T));
        const uint64_t perChunk = std::max<uint64_t>(1, kChunkBytes / sizeof(T));
        const size_t s = size_t(section);
        for (uint64_t done = 0; done < count;) {
            const uint64_t n = std::min(perChunk, count - done);
            const auto* first =
                reinterpret_cast<const T*>(sections_.file_.at(sections_.table_[s].offset + sections_.state_[s].taken));
            hashInPlace(s, n * sizeof(T));
            out.insert(out.end(), first, first + n);
            done += n;
        }
        return true;
    }
    // Hashes the next `bytes` of section `s` where they lie (within the section: checked by
    // the caller).
    void hashInPlace(size_t s, uint64_t bytes) {
        Sections::State& state = sections_.state_[s];
        state.hash.update(sections_.file_.at(sections_.table_[s].offset + state.taken), size_t(bytes));
        state.taken += bytes;
    }

    uint64_t left(Section section) const {
        const size_t s = size_t(section);
        return sections_.table_[s].bytes - sections_.state_[s].taken;
    }
    bool proceed() {
        if (error_.empty() && sections_.stop_.stop_requested()) error_ = "cancelled";
        return error_.empty();
    }
    // The next `bytes` of section `s` into `out`, hashed.
    bool read(size_t s, void* out, uint64_t bytes) {
        Sections::State& state = sections_.state_[s];
        auto* to = static_cast<std::byte*>(out);
        for (uint64_t done = 0; done < bytes;) {
            const size_t n = size_t(std::min(kChunkBytes, bytes - done));
            error_ = sections_.file_.read(sections_.table_[s].offset + state.taken, to + done, n);
            if (!error_.empty()) return false;
            state.hash.update(to + done, n);
            state.taken += n;
            done += n;
        }
        return true;
    }

    Sections& sections_;
    std::string error_;
};

// Where a check of the reading failed, to tell the first one when several threads failed: the
// section whose reading found it, then the lane and column (lane columns) or 0.
struct Failure {
    Section section = Section::Count;
    uint64_t place = 0;
    std::string reason;
    bool before(const Failure& other) const {
        return section != other.section ? section < other.section : place < other.place;
    }
};

// The section of each lane column, in forEachLaneColumn's order.
std::array<Section, kLaneColumns> laneColumnSections() {
    std::array<Section, kLaneColumns> sections{};
    Lane lane;
    size_t k = 0;
    forEachLaneColumn(lane, [&](Section s, auto&) { sections[k++] = s; });
    return sections;
}

// Reads one model file into a report: first what its rows need (the metadata, strings, lane
// records, processes, threads, GPUs) on this thread, then the columns and the other tables on
// several, each section on one.
class ModelReader {
public:
    ModelReader(const ModelFile& file, unsigned threads)
        : file_(file), size_(file.size()), threads_(loadThreads(threads)) {}
    std::unique_ptr<Report> read(std::string& error, std::stop_token stop, const SkeletonCallback& onSkeleton);

private:
    bool fail(std::string reason) {
        error_ = std::move(reason);
        return false;
    }
    bool readHeader();
    bool readTable();
    bool readMeta(SectionReader& in, Report& r);
    bool readPool(SectionReader& in);
    bool readLaneRecords(SectionReader& in, Report& r);
    bool readRowTables(SectionReader& in, Report& r);
    bool giveSkeleton(const Sections& sections, const Report& r, const SkeletonCallback& give);
    bool readRest(std::vector<SectionReader>& readers, Report& r);
    bool internStrings(Report& r, Failure& failure);
    bool readLaneColumn(SectionReader& in, size_t k, Report& r, Failure& failure);
    bool readCounters(SectionReader& in, Report& r, Failure& failure);
    bool readMessages(SectionReader& in, Report& r, Failure& failure);
    bool readDiagnostics(SectionReader& in, Report& r, Failure& failure);
    bool readReport(Report& r, std::stop_token stop, const SkeletonCallback& onSkeleton);
    bool checkInvariants(const Report& r) {
        std::string broken = brokenInvariant(r, threads_);
        return broken.empty() || fail(std::move(broken));
    }
    bool tooShort() { return fail("too short for a model file (" + std::to_string(size_) + " bytes)"); }

    const ModelFile& file_;
    uint64_t size_;
    unsigned threads_;
    ModelFileHeader header_;
    std::array<SectionEntry, kSectionCount> table_{};
    std::vector<std::string_view> pool_;  // the strings in id order, into the Sections' memory
    uint32_t stringTableSize_ = 0;        // MetaRecord::string_table_size
    std::vector<LaneRecord> laneRecords_;
    std::string error_;
};

bool ModelReader::readHeader() {
    if (size_ < sizeof header_) return tooShort();
    if (std::string reason = file_.read(0, &header_, sizeof header_); !reason.empty()) return fail(std::move(reason));
    char version[sizeof header_.app_version] = {};
    std::memcpy(version, LANESCOPE_VERSION, sizeof(LANESCOPE_VERSION));
    if (std::memcmp(header_.magic, kModelMagic, sizeof header_.magic) != 0) return fail("not a Lanescope model file");
    if (header_.byte_order != kByteOrderMark) return fail("written on a machine of another byte order");
    if (header_.format_version != kModelFormatVersion)
        return fail("model format " + std::to_string(header_.format_version) + ", this build reads " +
                    std::to_string(kModelFormatVersion));
    if (std::memcmp(header_.app_version, version, sizeof version) != 0)
        return fail("written by Lanescope " +
                    std::string(header_.app_version, strnlen(header_.app_version, sizeof header_.app_version)) +
                    ", this is " + LANESCOPE_VERSION);
    if (header_.layout_fingerprint != layoutFingerprint()) return fail("written by a build with another model layout");
    if (header_.file_bytes != size_)
        return fail("truncated or extended: " + std::to_string(size_) + " bytes, the header says " +
                    std::to_string(header_.file_bytes));
    if (header_.section_count != kSectionCount)
        return fail(std::to_string(header_.section_count) + " sections, expected " + std::to_string(kSectionCount));
    return true;
}

// The table, its checksum, and every section inside the file, at a multiple of 64, after the
// one before, its reserved bytes zero.
bool ModelReader::readTable() {
    if (size_ < kModelTableEnd) return tooShort();
    if (std::string reason = file_.read(sizeof header_, table_.data(), sizeof table_); !reason.empty())
        return fail(std::move(reason));
    if (fastHash(table_.data(), sizeof table_) != header_.checksum)
        return fail("checksum mismatch in the section table: the file is damaged");
    uint64_t end = kModelTableEnd;  // of the section before
    for (size_t s = 0; s < kSectionCount; ++s) {
        const SectionEntry& e = table_[s];
        if (e.offset % kSectionAlignment != 0 || e.offset < end || e.offset > size_ || e.bytes > size_ - e.offset)
            return fail("section " + std::string(sectionName(Section(s))) + " lies outside the file");
        if (e.reserved != 0) return fail("section " + std::string(sectionName(Section(s))) + ": reserved bytes set");
        end = e.offset + e.bytes;
    }
    return true;
}

bool ModelReader::readMeta(SectionReader& in, Report& r) {
    std::vector<MetaRecord> meta;
    std::vector<std::string_view> strings;
    if (!in.takeAll(Section::Meta, meta) || meta.size() != 1) return fail("meta: not one record");
    const auto fields = metaStrings(r.meta);
    if (!in.takeStrings(Section::MetaStringLengths, Section::MetaStringChars, strings) ||
        strings.size() != fields.size())
        return fail("meta: damaged strings");
    Metadata& m = r.meta;
    m.start_utc_ns = meta[0].start_utc_ns;
    m.utc_minus_local_ns = meta[0].utc_minus_local_ns;
    m.session_clock_start_ns = meta[0].session_clock_start_ns;
    m.session_clock_stop_ns = meta[0].session_clock_stop_ns;
    m.begin_ns = meta[0].begin_ns;
    m.end_ns = meta[0].end_ns;
    m.rank = meta[0].rank;
    r.cpu_utilization_counter = meta[0].cpu_utilization_counter;
    stringTableSize_ = meta[0].string_table_size;
    for (size_t k = 0; k < fields.size(); ++k) fields[k]->assign(strings[k]);
    return true;
}

// The strings as views, interned into the report later (internStrings).
bool ModelReader::readPool(SectionReader& in) {
    if (!in.takeStrings(Section::PoolLengths, Section::PoolChars, pool_) || pool_.empty())
        return fail("strings: damaged");
    return true;
}

// The lanes with their fields; their columns come later (readLaneColumn).
bool ModelReader::readLaneRecords(SectionReader& in, Report& r) {
    if (!in.takeAll(Section::Lanes, laneRecords_)) return fail("lanes: damaged records");
    r.lanes.resize(laneRecords_.size());
    for (size_t i = 0; i < laneRecords_.size(); ++i) {
        const LaneRecord& record = laneRecords_[i];
        Lane& lane = r.lanes[i];
        lane.kind = static_cast<LaneKind>(record.kind);
        lane.name_id = record.name_id;
        lane.process = record.process;
        lane.thread = record.thread;
        lane.gpu = record.gpu;
        lane.stream_id = record.stream_id;
        lane.context_id = record.context_id;
        lane.cpu = record.cpu;
        lane.recorded_gpu = record.recorded_gpu;
        lane.depth_count = record.depth_count;
    }
    return true;
}

// The tables the lanes name: processes, threads, GPUs.
bool ModelReader::readRowTables(SectionReader& in, Report& r) {
    if (!in.takeAll(Section::Processes, r.processes)) return fail("processes: damaged");
    if (!in.takeAll(Section::Threads, r.threads)) return fail("threads: damaged");
    if (!in.takeAll(Section::Gpus, r.gpus)) return fail("gpus: damaged");
    return true;
}

// The rows, once what they are made of is known whole and sound: each section read so far
// hashing to its table entry, every index the rows hold in range.
bool ModelReader::giveSkeleton(const Sections& sections, const Report& r, const SkeletonCallback& give) {
    for (const Section s : {Section::Meta, Section::MetaStringLengths, Section::MetaStringChars, Section::PoolLengths,
                            Section::PoolChars, Section::Lanes, Section::Processes, Section::Threads, Section::Gpus})
        if (!sections.whole(s))
            return fail("checksum mismatch in section " + std::string(sectionName(s)) + ": the file is damaged");
    if (std::string broken = brokenRowInvariant(r, pool_.size()); !broken.empty()) return fail(std::move(broken));
    auto skeleton = std::make_shared<Report>();
    Report& s = *skeleton;
    s.meta = r.meta;
    const auto copied = [&](uint32_t id) { return s.strings.intern(pool_[id]); };
    s.processes = r.processes;
    for (Process& p : s.processes) p.name_id = copied(p.name_id);
    s.threads = r.threads;
    for (Thread& t : s.threads) t.name_id = copied(t.name_id);
    s.gpus = r.gpus;
    for (Gpu& g : s.gpus) g.name_id = copied(g.name_id);
    s.lanes.reserve(r.lanes.size());
    for (const Lane& lane : r.lanes) {
        Lane& l = s.lanes.emplace_back(lane.rowOnly());
        l.name_id = copied(lane.name_id);
        freezeLane(l, s.diagnostics);
    }
    give(std::move(skeleton));
    return true;
}

// Interning the strings in id order gives each its id again, unless one repeats.
bool ModelReader::internStrings(Report& r, Failure& failure) {
    // The file's own string table first, as the importer adopted it (model/StringPool.h): ids
    // 1..n-1, then its string 0 at id n.
    uint32_t first = 0;
    if (stringTableSize_ != 0) {
        if (stringTableSize_ >= pool_.size()) {
            failure = {Section::PoolLengths, 0, "strings: fewer than the string table's"};
            return false;
        }
        std::vector<std::string_view> table(pool_.begin(), pool_.begin() + stringTableSize_);
        table[0] = pool_[stringTableSize_];
        r.strings.adoptTable(table);
        first = static_cast<uint32_t>(r.strings.size());
    }
    for (uint32_t id = first; id < pool_.size(); ++id)
        if (r.strings.intern(pool_[id]) != id) {
            failure = {Section::PoolLengths, 0, "strings: string " + std::to_string(id) + " repeats"};
            return false;
        }
    return true;
}

// Column k of every lane, in lane order: its section front to back.
bool ModelReader::readLaneColumn(SectionReader& in, size_t k, Report& r, Failure& failure) {
    static const std::array<Section, kLaneColumns> kSections = laneColumnSections();
    const Section section = kSections[k];
    for (size_t i = 0; i < r.lanes.size(); ++i) {
        bool taken = true;
        forEachLaneColumn(r.lanes[i], [&](Section s, auto& column) {
            if (s == section) taken = in.take(s, laneRecords_[i].column_sizes[k], column);
        });
        if (!taken) {
            failure = {Section::Lanes, i * kLaneColumns + k,
                       std::string(sectionName(section)) + ": shorter than lane " + std::to_string(i) + " needs"};
            return false;
        }
    }
    return true;
}

bool ModelReader::readCounters(SectionReader& in, Report& r, Failure& failure) {
    std::vector<CounterRecord> records;
    if (!in.takeAll(Section::Counters, records)) {
        failure = {Section::Counters, 0, "counters: damaged records"};
        return false;
    }
    r.counters.resize(records.size());
    for (size_t i = 0; i < records.size(); ++i) {
        const CounterRecord& record = records[i];
        Counter& counter = r.counters[i];
        counter.name_id = record.name_id;
        counter.unit_id = record.unit_id;
        counter.gpu = record.gpu;
        counter.process = record.process;
        counter.derived = record.derived != 0;
        size_t k = 0;
        std::string_view missing;
        forEachCounterColumn(counter, [&](Section s, auto& column) {
            if (missing.empty() && !in.take(s, record.column_sizes[k], column)) missing = sectionName(s);
            ++k;
        });
        if (!missing.empty()) {
            failure = {Section::Counters, i + 1,
                       std::string(missing) + ": shorter than counter " + std::to_string(i) + " needs"};
            return false;
        }
    }
    return true;
}

bool ModelReader::readMessages(SectionReader& in, Report& r, Failure& failure) {
    std::vector<MessageRecord> records;
    std::vector<std::string_view> texts;
    if (!in.takeAll(Section::Messages, records) ||
        !in.takeStrings(Section::MessageTextLengths, Section::MessageTextChars, texts) ||
        texts.size() != records.size()) {
        failure = {Section::Messages, 0, "nsys_messages: damaged"};
        return false;
    }
    r.nsys_messages.resize(records.size());
    for (size_t i = 0; i < records.size(); ++i) {
        NsysMessage& m = r.nsys_messages[i];
        m.time_ns = records[i].time_ns;
        m.time_source = records[i].time_source;
        m.source = records[i].source;
        m.severity = records[i].severity;
        m.process = records[i].process;
        m.global_pid = records[i].global_pid;
        m.text.assign(texts[i]);
    }
    return true;
}

bool ModelReader::readDiagnostics(SectionReader& in, Report& r, Failure& failure) {
    std::vector<std::string_view> names;
    std::vector<uint64_t> counts;
    if (!in.takeStrings(Section::DiagnosticNameLengths, Section::DiagnosticNameChars, names) ||
        !in.takeAll(Section::DiagnosticCounts, counts) || counts.size() != names.size()) {
        failure = {Section::DiagnosticNameLengths, 0, "diagnostics: damaged"};
        return false;
    }
    // The diagnostics the import raised (each declared in model/DiagnosticKinds), as it counted them.
    Diagnostics counted;
    for (size_t i = 0; i < names.size(); ++i)
        if (!counted.emplace(names[i], counts[i]).second) {
            failure = {Section::DiagnosticNameLengths, 0, "diagnostics: a name repeats"};
            return false;
        }
    r.diagnostics = std::move(counted);
    return true;
}

// Everything after the rows, as items on the threads, the largest first: the string pool
// interned, each lane column (every lane's run of it, in lane order), the counters, messages
// and diagnostics, each other table. Each section is read by one item, front to back; an item
// that fails stops, the others go on, and the first failure in reading order is the reason.
bool ModelReader::readRest(std::vector<SectionReader>& readers, Report& r) {
    struct Item {
        uint64_t weight;  // about the bytes it reads
        std::function<bool(SectionReader&, Failure&)> run;
    };
    std::vector<Item> items;
    const auto bytes = [&](std::initializer_list<Section> sections) {
        uint64_t total = 0;
        for (const Section s : sections) total += table_[size_t(s)].bytes;
        return total;
    };
    // Interning costs about as much as copying 200 bytes a string.
    items.push_back({bytes({Section::PoolChars}) + 200 * pool_.size(),
                     [&](SectionReader&, Failure& f) { return internStrings(r, f); }});
    for (size_t k = 0; k < kLaneColumns; ++k)
        items.push_back({bytes({laneColumnSections()[k]}),
                         [&, k](SectionReader& in, Failure& f) { return readLaneColumn(in, k, r, f); }});
    items.push_back({bytes({Section::Counters, Section::CounterTime, Section::CounterValue}),
                     [&](SectionReader& in, Failure& f) { return readCounters(in, r, f); }});
    items.push_back({bytes({Section::Messages, Section::MessageTextLengths, Section::MessageTextChars}),
                     [&](SectionReader& in, Failure& f) { return readMessages(in, r, f); }});
    items.push_back({bytes({Section::DiagnosticNameLengths, Section::DiagnosticNameChars, Section::DiagnosticCounts}),
                     [&](SectionReader& in, Failure& f) { return readDiagnostics(in, r, f); }});
    forEachTable(r, [&](Section s, auto& table) {
        if (s == Section::Processes || s == Section::Threads || s == Section::Gpus) return;  // readRowTables
        items.push_back({bytes({s}), [s, &table](SectionReader& in, Failure& f) {
                             if (in.takeAll(s, table)) return true;
                             f = {s, 0, std::string(sectionName(s)) + ": damaged"};
                             return false;
                         }});
    });
    std::stable_sort(items.begin(), items.end(), [](const Item& a, const Item& b) { return a.weight > b.weight; });
    std::vector<Failure> failures(items.size());
    std::vector<char> failed(items.size(), 0);
    onThreads(threads_, items.size(),
              [&](size_t worker, size_t i) { failed[i] = !items[i].run(readers[worker], failures[i]); });
    const Failure* first = nullptr;
    for (size_t i = 0; i < items.size(); ++i)
        if (failed[i] && (!first || failures[i].before(*first))) first = &failures[i];
    return !first || fail(first->reason);
}

bool ModelReader::readReport(Report& r, std::stop_token stop, const SkeletonCallback& onSkeleton) {
    Sections sections(file_, table_, std::move(stop));
    std::vector<SectionReader> readers;
    readers.reserve(threads_);
    for (unsigned t = 0; t < threads_; ++t) readers.emplace_back(sections);
    SectionReader& in = readers.front();
    bool ok = readMeta(in, r) && readPool(in) && readLaneRecords(in, r) && readRowTables(in, r);
    if (ok && onSkeleton) ok = giveSkeleton(sections, r, onSkeleton);
    if (ok) ok = readRest(readers, r);
    if (ok && !sections.leftOver().empty()) ok = fail(std::string(sections.leftOver()) + ": bytes left over");
    pool_.clear();  // its views go with the sections
    // A failed read or a stop first; then damage, which may be what broke a check above.
    for (const SectionReader& reader : readers)
        if (!reader.error().empty()) return fail(reader.error());
    if (std::string damaged = in.checkHashes(); !damaged.empty()) return fail(std::move(damaged));
    return ok;
}

std::unique_ptr<Report> ModelReader::read(std::string& error, std::stop_token stop,
                                          const SkeletonCallback& onSkeleton) {
    auto report = std::make_unique<Report>();
    const bool ok = readHeader() && readTable() && readReport(*report, stop, onSkeleton) &&
                    (!stop.stop_requested() || fail("cancelled")) && checkInvariants(*report);
    if (ok) return report;
    error = error_;
    return nullptr;
}

}  // namespace

bool aMappedModelWasCutShort() { return modelCutShort.load(std::memory_order_relaxed); }

std::unique_ptr<Report> readModelFile(const std::filesystem::path& path, std::string& error, std::stop_token stop,
                                      unsigned threads, const SkeletonCallback& onSkeleton) {
    ModelFile file;
    if (!file.open(path, error)) return nullptr;
    return ModelReader(file, threads).read(error, stop, onSkeleton);
}

}  // namespace lanescope::cache
