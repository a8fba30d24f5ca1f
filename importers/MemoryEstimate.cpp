// Estimates of an import's peak memory from a quick look at the file, and the refusal of a
// file that would not fit. The bytes per event are measured peaks (docs/robustness.md, "Memory").
#include "importers/MemoryEstimate.h"

#include <zlib.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <system_error>
#include <vector>

#include "importers/SqliteDb.h"

namespace lanescope {
namespace {

// Peak bytes of the import per event, the model and the import's working columns together
// (measured: 48 B for 2.2 M NVTX ranges from SQLite, 51 B for a 2.3 M-event Kineto trace).
constexpr uint64_t kBytesPerEvent = 56;
// Buffers whatever the size: SQLite's page cache, the JSON reader's blocks, the string pool.
constexpr uint64_t kFixedBytes = 32ull << 20;
// A SQLite row takes at least this many bytes of the file, which caps a damaged max(rowid).
constexpr uint64_t kMinSqliteRowBytes = 8;
// The sample of a JSON or Perfetto file: its first bytes (inflated when gzip), in which
// events are counted.
constexpr size_t kSampleBytes = 4u << 20;

// The nsys tables the importer turns into events or counter points, one per row, and the
// strings.
constexpr std::array kNsysEventTables = {
    "NVTX_EVENTS", "CUPTI_ACTIVITY_KIND_RUNTIME", "CUPTI_ACTIVITY_KIND_DRIVER", "OSRT_API",
    "CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET",
    "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", "GPU_METRICS", "CUDA_GPU_MEMORY_USAGE_EVENTS",
    "PROFILER_OVERHEAD", "StringIds"};

// Rows of the event tables: max(rowid) is a lookup, not a scan, and equals the row count in
// an export (rows are never deleted). A table that cannot be read counts nothing: the import
// will say what is wrong with it.
uint64_t nsysEventRows(const std::filesystem::path& path, uint64_t fileBytes) {
    std::string error;
    auto db = SqliteDb::openReadOnly(path, error);
    if (!db) return 0;
    uint64_t rows = 0;
    for (const char* table : kNsysEventTables) {
        if (!db->hasTable(table)) continue;
        SqliteStmt stmt(*db, std::string("SELECT max(rowid) FROM ") + table);
        if (!stmt.prepared() || !stmt.step() || stmt.isNull(0) || stmt.i64(0) <= 0) continue;
        rows += std::min<uint64_t>(static_cast<uint64_t>(stmt.i64(0)), fileBytes / kMinSqliteRowBytes);
    }
    return rows;
}

// The first bytes of a JSON file as the importer will see them (inflated when gzip), and how
// many bytes of the file they came from.
struct JsonSample {
    std::string text;
    uint64_t file_bytes_used = 0;
    bool whole = false;  // the sample is the whole (inflated) file
};

std::optional<JsonSample> sampleJson(const std::filesystem::path& path, uint64_t fileBytes) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return std::nullopt;
    std::vector<char> raw(std::min<uint64_t>(fileBytes, kSampleBytes));
    in.read(raw.data(), static_cast<std::streamsize>(raw.size()));
    raw.resize(static_cast<size_t>(in.gcount()));
    JsonSample sample;
    const bool gzip = raw.size() >= 2 && static_cast<unsigned char>(raw[0]) == 0x1f &&
                      static_cast<unsigned char>(raw[1]) == 0x8b;
    if (!gzip) {
        sample.file_bytes_used = raw.size();
        sample.whole = raw.size() == fileBytes;
        sample.text.assign(raw.begin(), raw.end());
        return sample;
    }
    z_stream z{};
    if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) return std::nullopt;
    sample.text.resize(kSampleBytes);
    z.next_in = reinterpret_cast<Bytef*>(raw.data());
    z.avail_in = static_cast<uInt>(raw.size());
    z.next_out = reinterpret_cast<Bytef*>(sample.text.data());
    z.avail_out = static_cast<uInt>(sample.text.size());
    int rc = Z_OK;
    while (z.avail_out > 0 && z.avail_in > 0) {
        rc = inflate(&z, Z_NO_FLUSH);
        if (rc == Z_STREAM_END && z.avail_in > 0) rc = inflateReset(&z);  // another member
        if (rc != Z_OK && rc != Z_STREAM_END) break;
    }
    const uint64_t consumed = raw.size() - z.avail_in;
    sample.text.resize(sample.text.size() - z.avail_out);
    inflateEnd(&z);
    if ((rc != Z_OK && rc != Z_STREAM_END) || consumed == 0 || sample.text.empty()) return std::nullopt;
    sample.file_bytes_used = consumed;
    sample.whole = rc == Z_STREAM_END && consumed == fileBytes;
    return sample;
}

// Events of a Chrome-trace JSON: each event has one "ph" key, so the sample's count of them,
// scaled by the file's size over the bytes the sample came from.
uint64_t jsonEvents(const std::filesystem::path& path, uint64_t fileBytes) {
    const auto sample = sampleJson(path, fileBytes);
    if (!sample) return 0;
    uint64_t inSample = 0;
    for (size_t at = sample->text.find("\"ph\""); at != std::string::npos; at = sample->text.find("\"ph\"", at + 4))
        ++inSample;
    if (sample->whole) return inSample;
    const double scale = static_cast<double>(fileBytes) / static_cast<double>(sample->file_bytes_used);
    return static_cast<uint64_t>(std::ceil(static_cast<double>(std::max<uint64_t>(inSample, 1)) * scale));
}

// Reads a protobuf varint at p[pos] (pos advanced); false when it runs past `end`.
bool varint(const std::string& p, size_t& pos, size_t end, uint64_t& value) {
    value = 0;
    for (int shift = 0; shift < 64 && pos < end; shift += 7) {
        const auto byte = static_cast<unsigned char>(p[pos++]);
        value |= uint64_t{byte & 0x7Fu} << shift;
        if (!(byte & 0x80)) return true;
    }
    return false;
}

// Events of a Perfetto trace: the packets of its first bytes that hold a TrackEvent (field
// 11; a slice is two, its begin and its end), scaled by the file's size over the bytes of the
// whole packets sampled.
uint64_t perfettoEvents(const std::filesystem::path& path, uint64_t fileBytes) {
    std::ifstream in(path, std::ios::binary);
    std::string sample(std::min<uint64_t>(fileBytes, kSampleBytes), ' ');
    in.read(sample.data(), static_cast<std::streamsize>(sample.size()));
    sample.resize(static_cast<size_t>(in.gcount()));
    uint64_t trackEvents = 0;
    size_t pos = 0;
    while (pos < sample.size() && sample[pos] == 0x0A) {  // Trace.packet, length-delimited
        size_t at = pos + 1;
        uint64_t length = 0;
        if (!varint(sample, at, sample.size(), length) || length > sample.size() - at) break;
        const size_t end = at + static_cast<size_t>(length);
        for (uint64_t tag = 0, value = 0; at < end && varint(sample, at, end, tag);) {
            const uint64_t wire = tag & 7;
            if (wire == 2) {
                if (!varint(sample, at, end, value) || value > end - at) break;
                at += static_cast<size_t>(value);
                trackEvents += (tag >> 3) == 11;
            } else if (wire == 0) {
                if (!varint(sample, at, end, value)) break;
            } else if (wire == 1 || wire == 5) {
                at += wire == 1 ? 8 : 4;
            } else {
                break;
            }
        }
        pos = end;
    }
    if (pos == 0) return 0;
    const uint64_t events = std::max<uint64_t>(trackEvents / 2, 1);
    if (pos == fileBytes) return events;
    return static_cast<uint64_t>(
        std::ceil(static_cast<double>(events) * static_cast<double>(fileBytes) / static_cast<double>(pos)));
}

}  // namespace

MemoryEstimate estimateImportMemory(const std::filesystem::path& path, std::string_view format) {
    MemoryEstimate estimate;
    std::error_code ec;
    estimate.file_bytes = std::filesystem::file_size(path, ec);
    if (ec || estimate.file_bytes == 0) return {};
    if (format == "nsys-sqlite") estimate.events = nsysEventRows(path, estimate.file_bytes);
    else if (format == "kineto-json") estimate.events = jsonEvents(path, estimate.file_bytes);
    else if (format == "perfetto") estimate.events = perfettoEvents(path, estimate.file_bytes);
    else return estimate;
    estimate.needed_bytes = kFixedBytes + estimate.events * kBytesPerEvent;
    return estimate;
}

std::string humanBytes(uint64_t bytes) {
    constexpr std::array units = {"bytes", "KB", "MB", "GB", "TB", "PB", "EB"};
    double value = static_cast<double>(bytes);
    size_t unit = 0;
    while (value >= 1000 && unit + 1 < units.size()) {
        value /= 1000;
        ++unit;
    }
    char text[32];
    if (unit == 0) std::snprintf(text, sizeof text, "%llu bytes", static_cast<unsigned long long>(bytes));
    else std::snprintf(text, sizeof text, value < 10 ? "%.1f %s" : "%.0f %s", value, units[unit]);
    return text;
}

namespace {

// "about 52.3 million events", "about 4120 events".
std::string aboutEvents(uint64_t events) {
    char text[48];
    if (events >= 1000000) std::snprintf(text, sizeof text, "about %.1f million events", static_cast<double>(events) / 1e6);
    else std::snprintf(text, sizeof text, "about %llu events", static_cast<unsigned long long>(events));
    return text;
}

}  // namespace

std::optional<ImportError> refuseIfTooBig(const std::filesystem::path& path, std::string_view format,
                                          const ImportOptions& options, const std::filesystem::path& shown) {
    const uint64_t available = availableMemory(options);
    if (available == 0) return std::nullopt;
    const MemoryEstimate estimate = estimateImportMemory(path, format);
    // Alone: compared with what is available. Opened with others: with what their estimates
    // left, taking this one's share at once so that two imports never count the same bytes.
    uint64_t promised = options.memory_promised ? options.memory_promised->load() : 0;
    for (;;) {
        const uint64_t left = available > promised ? available - promised : 0;
        if (estimate.needed_bytes > left) {
            const std::string others =
                promised ? " (of " + humanBytes(available) + ", the other reports being opened take about " +
                               humanBytes(promised) + ")"
                         : "";
            return ImportError{ImportError::Kind::TooBig,
                               shown.string() + ": needs about " + humanBytes(estimate.needed_bytes) +
                                   " of memory to open (" + humanBytes(estimate.file_bytes) + " file, " +
                                   aboutEvents(estimate.events) + "), " + humanBytes(left) + " is available" +
                                   others + "; close other programs or open it on a machine with more memory"};
        }
        if (!options.memory_promised ||
            options.memory_promised->compare_exchange_weak(promised, promised + estimate.needed_bytes))
            return std::nullopt;
    }
}

}  // namespace lanescope
