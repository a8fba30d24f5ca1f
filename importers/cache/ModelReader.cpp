// Reading a model file: map it, check the header, the checksum and the section table, copy
// each column out of its section with one memcpy, rebuild the string pool, then check the
// model's invariants. Any failure discards everything read so far.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

#include "importers/cache/FastHash.h"
#include "importers/cache/ModelFile.h"
#include "importers/cache/ModelFormat.h"
#include "importers/cache/ModelInvariants.h"

namespace lanescope::cache {
namespace {

constexpr uint64_t kTableEnd = sizeof(ModelFileHeader) + kSectionCount * sizeof(SectionEntry);

// Asks for pages of 2 MiB (transparent huge pages) in the part of a new column's memory that
// holds whole ones, before the copy touches it: filling it then faults once per 2 MiB instead of
// once per 4 KiB. On the 2-core virtual machine of docs/report-cache.md, where faults are
// costly, the load of 10 M events takes about 0.6 s instead of 1.0 s.
constexpr uintptr_t kHugePageBytes = uintptr_t{2} << 20;
void adviseHugePages(const void* data, size_t bytes) {
    const auto start = reinterpret_cast<uintptr_t>(data);
    const uintptr_t begin = (start + kHugePageBytes - 1) & ~(kHugePageBytes - 1);
    const uintptr_t end = (start + bytes) & ~(kHugePageBytes - 1);
    if (end > begin) ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
}

// A file mapped read-only and private for as long as this object lives.
class MappedFile {
public:
    MappedFile() = default;
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;
    ~MappedFile() {
        if (data_) ::munmap(const_cast<std::byte*>(data_), size_);
    }

    bool open(const std::filesystem::path& path, std::string& error) {
        const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd < 0) {
            error = std::string("cannot open: ") + std::strerror(errno);
            return false;
        }
        error = map(fd);
        ::close(fd);
        return error.empty();
    }
    const std::byte* data() const { return data_; }
    size_t size() const { return size_; }

private:
    // Maps the open file whole; the reason it cannot, or empty.
    std::string map(int fd) {
        struct stat st {};
        if (::fstat(fd, &st) != 0) return std::string("cannot read: ") + std::strerror(errno);
        const auto size = static_cast<size_t>(st.st_size);
        if (size < kTableEnd) return "too short for a model file (" + std::to_string(size) + " bytes)";
        void* data = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
        if (data == MAP_FAILED) return std::string("cannot map: ") + std::strerror(errno);
        data_ = static_cast<const std::byte*>(data);
        size_ = size;
        return {};
    }

    const std::byte* data_ = nullptr;
    size_t size_ = 0;
};

// The sections of a checked model file, each handing out its elements front to back.
class Sections {
public:
    Sections(const std::byte* file, const std::array<SectionEntry, kSectionCount>& table)
        : file_(file), table_(table) {}

    // The next `count` elements of `section` into `out` (empty) with one copy; false when fewer
    // are left. A section starts at a multiple of 64 bytes and is taken in whole elements, so
    // the elements are aligned as T needs.
    template <typename T>
    bool take(Section section, uint64_t count, std::vector<T>& out) {
        static_assert(std::is_trivially_copyable_v<T> && kSectionAlignment % alignof(T) == 0);
        const size_t s = size_t(section);
        if (count > (table_[s].bytes - taken_[s]) / sizeof(T)) return false;
        const auto* first = reinterpret_cast<const T*>(file_ + table_[s].offset + taken_[s]);
        if (count * sizeof(T) >= kHugePageBytes) {
            out.reserve(count);
            adviseHugePages(out.data(), count * sizeof(T));
        }
        out.assign(first, first + count);
        taken_[s] += count * sizeof(T);
        return true;
    }
    // Every element of `section` left (a whole number of them).
    template <typename T>
    bool takeAll(Section section, std::vector<T>& out) {
        const size_t s = size_t(section);
        return (table_[s].bytes - taken_[s]) % sizeof(T) == 0 &&
               take(section, (table_[s].bytes - taken_[s]) / sizeof(T), out);
    }
    // The strings of a list: lengths, and the characters of `chars`, as views into the file.
    bool takeStrings(Section lengths, Section chars, std::vector<std::string_view>& out) {
        std::vector<uint32_t> sizes;
        if (!takeAll(lengths, sizes)) return false;
        const SectionEntry& text = table_[size_t(chars)];
        uint64_t at = 0;
        out.clear();
        out.reserve(sizes.size());
        for (const uint32_t size : sizes) {
            if (size > text.bytes - at) return false;
            out.emplace_back(reinterpret_cast<const char*>(file_ + text.offset + at), size);
            at += size;
        }
        taken_[size_t(chars)] = at;
        return at == text.bytes;
    }
    // The name of the first section with bytes nothing took; empty when there is none.
    std::string_view leftOver() const {
        for (size_t s = 0; s < kSectionCount; ++s)
            if (taken_[s] != table_[s].bytes) return sectionName(Section(s));
        return {};
    }

private:
    const std::byte* file_;
    std::array<SectionEntry, kSectionCount> table_;
    std::array<uint64_t, kSectionCount> taken_{};  // bytes handed out from the start of each section
};

// Reads one mapped model file into a report.
class ModelReader {
public:
    ModelReader(const std::byte* file, size_t size) : file_(file), size_(size) {}
    std::unique_ptr<Report> read(std::string& error, std::stop_token stop);

private:
    bool fail(std::string reason) {
        error_ = std::move(reason);
        return false;
    }
    bool checkHeader();
    bool checkChecksum(std::stop_token stop);
    bool checkTable();
    bool readMeta(Sections& sections, Report& r);
    bool readStrings(Sections& sections, Report& r);
    bool readLanes(Sections& sections, Report& r);
    bool readCounters(Sections& sections, Report& r);
    bool readMessages(Sections& sections, Report& r);
    bool readDiagnostics(Sections& sections, Report& r);
    bool readReport(Report& r);
    bool checkInvariants(const Report& r) {
        std::string broken = brokenInvariant(r);
        return broken.empty() || fail(std::move(broken));
    }

    const std::byte* file_;
    size_t size_;
    ModelFileHeader header_;
    std::array<SectionEntry, kSectionCount> table_{};
    std::string error_;
};

bool ModelReader::checkHeader() {
    std::memcpy(&header_, file_, sizeof header_);
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

bool ModelReader::checkChecksum(std::stop_token stop) {
    constexpr size_t kStep = size_t{256} << 20;  // stop is asked between steps
    FastHash hash;
    for (size_t at = sizeof header_; at < size_; at += kStep) {
        if (stop.stop_requested()) return fail("cancelled");
        hash.update(file_ + at, std::min(kStep, size_ - at));
    }
    return hash.digest() == header_.checksum || fail("checksum mismatch: the file is damaged");
}

bool ModelReader::checkTable() {
    std::memcpy(table_.data(), file_ + sizeof header_, sizeof table_);
    uint64_t end = kTableEnd;  // of the section before
    for (size_t s = 0; s < kSectionCount; ++s) {
        const SectionEntry& e = table_[s];
        if (e.offset % kSectionAlignment != 0 || e.offset < end || e.offset > size_ || e.bytes > size_ - e.offset)
            return fail("section " + std::string(sectionName(Section(s))) + " lies outside the file");
        end = e.offset + e.bytes;
    }
    return true;
}

bool ModelReader::readMeta(Sections& sections, Report& r) {
    std::vector<MetaRecord> meta;
    std::vector<std::string_view> strings;
    if (!sections.takeAll(Section::Meta, meta) || meta.size() != 1) return fail("meta: not one record");
    const auto fields = metaStrings(r.meta);
    if (!sections.takeStrings(Section::MetaStringLengths, Section::MetaStringChars, strings) ||
        strings.size() != fields.size())
        return fail("meta: damaged strings");
    Metadata& m = r.meta;
    m.start_utc_ns = meta[0].start_utc_ns;
    m.begin_ns = meta[0].begin_ns;
    m.end_ns = meta[0].end_ns;
    m.rank = meta[0].rank;
    r.cpu_utilization_counter = meta[0].cpu_utilization_counter;
    for (size_t k = 0; k < fields.size(); ++k) fields[k]->assign(strings[k]);
    return true;
}

// Interning the strings in id order gives each its id again, unless one repeats.
bool ModelReader::readStrings(Sections& sections, Report& r) {
    std::vector<std::string_view> strings;
    if (!sections.takeStrings(Section::PoolLengths, Section::PoolChars, strings) || strings.empty())
        return fail("strings: damaged");
    for (uint32_t id = 0; id < strings.size(); ++id)
        if (r.strings.intern(strings[id]) != id) return fail("strings: string " + std::to_string(id) + " repeats");
    return true;
}

bool ModelReader::readLanes(Sections& sections, Report& r) {
    std::vector<LaneRecord> records;
    if (!sections.takeAll(Section::Lanes, records)) return fail("lanes: damaged records");
    r.lanes.resize(records.size());
    for (size_t i = 0; i < records.size(); ++i) {
        const LaneRecord& record = records[i];
        Lane& lane = r.lanes[i];
        lane.kind = static_cast<LaneKind>(record.kind);
        lane.name_id = record.name_id;
        lane.process = record.process;
        lane.thread = record.thread;
        lane.gpu = record.gpu;
        lane.stream_id = record.stream_id;
        lane.context_id = record.context_id;
        lane.cpu = record.cpu;
        lane.depth_count = record.depth_count;
        size_t k = 0;
        std::string_view missing;
        forEachLaneColumn(lane, [&](Section s, auto& column) {
            if (missing.empty() && !sections.take(s, record.column_sizes[k], column)) missing = sectionName(s);
            ++k;
        });
        if (!missing.empty()) return fail(std::string(missing) + ": shorter than lane " + std::to_string(i) + " needs");
    }
    return true;
}

bool ModelReader::readCounters(Sections& sections, Report& r) {
    std::vector<CounterRecord> records;
    if (!sections.takeAll(Section::Counters, records)) return fail("counters: damaged records");
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
            if (missing.empty() && !sections.take(s, record.column_sizes[k], column)) missing = sectionName(s);
            ++k;
        });
        if (!missing.empty())
            return fail(std::string(missing) + ": shorter than counter " + std::to_string(i) + " needs");
    }
    return true;
}

bool ModelReader::readMessages(Sections& sections, Report& r) {
    std::vector<MessageRecord> records;
    std::vector<std::string_view> texts;
    if (!sections.takeAll(Section::Messages, records) ||
        !sections.takeStrings(Section::MessageTextLengths, Section::MessageTextChars, texts) ||
        texts.size() != records.size())
        return fail("nsys_messages: damaged");
    r.nsys_messages.resize(records.size());
    for (size_t i = 0; i < records.size(); ++i) {
        NsysMessage& m = r.nsys_messages[i];
        m.time_ns = records[i].time_ns;
        m.time_source = records[i].time_source;
        m.source = records[i].source;
        m.severity = records[i].severity;
        m.process = records[i].process;
        m.text.assign(texts[i]);
    }
    return true;
}

bool ModelReader::readDiagnostics(Sections& sections, Report& r) {
    std::vector<std::string_view> names;
    std::vector<uint64_t> counts;
    if (!sections.takeStrings(Section::DiagnosticNameLengths, Section::DiagnosticNameChars, names) ||
        !sections.takeAll(Section::DiagnosticCounts, counts) || counts.size() != names.size())
        return fail("diagnostics: damaged");
    // The diagnostics the import raised (each declared in model/DiagnosticKinds), as it counted them.
    Diagnostics counted;
    for (size_t i = 0; i < names.size(); ++i)
        if (!counted.emplace(names[i], counts[i]).second) return fail("diagnostics: a name repeats");
    r.diagnostics = std::move(counted);
    return true;
}

bool ModelReader::readReport(Report& r) {
    Sections sections(file_, table_);
    if (!readMeta(sections, r) || !readStrings(sections, r) || !readLanes(sections, r) || !readCounters(sections, r) ||
        !readMessages(sections, r) || !readDiagnostics(sections, r))
        return false;
    bool ok = true;
    forEachTable(r, [&](Section s, auto& table) {
        if (ok && !sections.takeAll(s, table)) ok = fail(std::string(sectionName(s)) + ": damaged");
    });
    if (ok && !sections.leftOver().empty()) return fail(std::string(sections.leftOver()) + ": bytes left over");
    return ok;
}

std::unique_ptr<Report> ModelReader::read(std::string& error, std::stop_token stop) {
    auto report = std::make_unique<Report>();
    const bool ok = checkHeader() && checkChecksum(stop) && checkTable() && readReport(*report) &&
                    (!stop.stop_requested() || fail("cancelled")) && checkInvariants(*report);
    if (ok) return report;
    error = error_;
    return nullptr;
}

}  // namespace

std::unique_ptr<Report> readModelFile(const std::filesystem::path& path, std::string& error, std::stop_token stop) {
    MappedFile file;
    if (!file.open(path, error)) return nullptr;
    return ModelReader(file.data(), file.size()).read(error, stop);
}

}  // namespace lanescope::cache
