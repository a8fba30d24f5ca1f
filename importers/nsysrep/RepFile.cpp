#include "importers/nsysrep/RepFile.h"

#include <fcntl.h>
#include <lz4.h>
#include <unistd.h>

#include <algorithm>

#include "importers/nsysrep/ProtoReader.h"

namespace lanescope::nsysrep {
namespace {

constexpr std::string_view kMagic = "NVIDIA Tegra Profiler Report ";
constexpr std::string_view kEnd = "U3w[END]";
constexpr std::string_view kRawMagic = "QDTEXT00";
// No block seen inflates beyond a few hundred KB; a size field claiming more than this is
// damage, refused before anything is allocated.
constexpr uint64_t kMaxBlockBytes = 64u << 20;
// Plain messages (summary, index, thread names, system info) are small; the same guard.
constexpr uint64_t kMaxMessageBytes = 256u << 20;

[[noreturn]] void bad(const std::string& what) { throw BadReport(what); }

struct Section {
    uint64_t offset = 0, length = 0;
};

// A cursor over a region of the file, reading the framing varints of Raw Sampling Data.
class Cursor {
public:
    Cursor(int fd, uint64_t pos, uint64_t end) : fd_(fd), pos_(pos), end_(end) {}
    uint64_t pos() const { return pos_; }
    uint64_t left() const { return end_ - pos_; }
    uint64_t varint(const char* what) {
        const std::string bytes = readAt(fd_, pos_, std::min<uint64_t>(10, left()));
        size_t used = 0;
        uint64_t value = 0;
        if (!readVarint(bytes, used, value))
            bad(std::string("the ") + what + " at byte " + std::to_string(pos_) + " does not end");
        pos_ += used;
        return value;
    }
    std::string message(const char* what) {
        const uint64_t at = pos_;
        const uint64_t length = varint(what);
        if (length > left() || length > kMaxMessageBytes)
            bad(std::string("the ") + what + " at byte " + std::to_string(at) + " claims " + std::to_string(length) +
                " bytes, more than the section holds");
        std::string bytes = readAt(fd_, pos_, length);
        pos_ += length;
        return bytes;
    }
    BlockRef block(const char* what) {
        const uint64_t at = pos_;
        const uint64_t compressed = varint(what);
        const uint64_t raw = varint(what);
        if (compressed > left() || compressed == 0)
            bad(std::string("the ") + what + " at byte " + std::to_string(at) + " claims " +
                std::to_string(compressed) + " compressed bytes, more than the section holds");
        if (raw > kMaxBlockBytes || raw > compressed * 255 + 64)
            bad(std::string("the ") + what + " at byte " + std::to_string(at) + " claims to inflate to " +
                std::to_string(raw) + " bytes, more than its " + std::to_string(compressed) + " bytes can hold");
        BlockRef b{pos_, static_cast<uint32_t>(compressed), static_cast<uint32_t>(raw)};
        pos_ += compressed;
        return b;
    }

private:
    int fd_;
    uint64_t pos_, end_;
};

struct Fd {
    int fd = -1;
    ~Fd() {
        if (fd >= 0) ::close(fd);
    }
};

std::map<std::string, Section> readToc(int fd, uint64_t fileSize) {
    if (fileSize < kMagic.size() + 16)
        bad("too short for an Nsight Systems report (" + std::to_string(fileSize) + " bytes)");
    const std::string tail = readAt(fd, fileSize - 16, 16);
    if (tail.substr(8) != kEnd) bad("no table of contents: the end marker is missing (the file is cut short?)");
    uint64_t tocOffset = 0;
    std::copy_n(tail.data(), 8, reinterpret_cast<char*>(&tocOffset));
    if (tocOffset >= fileSize - 16)
        bad("the table of contents offset " + std::to_string(tocOffset) + " lies beyond the file");
    const uint64_t tocSize = fileSize - 16 - tocOffset;
    if (tocSize > kMaxMessageBytes) bad("the table of contents is implausibly large");
    const std::string toc = readAt(fd, tocOffset, tocSize);
    std::map<std::string, Section> sections;
    ProtoReader entries(toc, tocOffset);
    for (ProtoField entry; entries.next(entry);) {
        if (entry.number != 1 || entry.wire != 2) continue;
        ProtoReader fields(entry.bytes, entries.offsetOf(entry.bytes));
        std::string name;
        Section s;
        for (ProtoField f; fields.next(f);) {
            if (f.number == 1 && f.wire == 2)
                name = std::string(f.bytes);
            else if (f.number == 2 && f.wire == 0)
                s.offset = f.value;
            else if (f.number == 3 && f.wire == 0)
                s.length = f.value;
        }
        if (s.offset > fileSize || s.length > fileSize - s.offset)
            bad("the table of contents places section '" + name + "' beyond the file (" + std::to_string(s.offset) +
                " + " + std::to_string(s.length) + " of " + std::to_string(fileSize) + " bytes)");
        sections[name] = s;
    }
    return sections;
}

// UI Data field 6: the Nsight Systems version that wrote the report, e.g. "2025.3.1.0".
std::string readNsysVersion(int fd, const std::map<std::string, Section>& sections) {
    auto it = sections.find("UI Data");
    if (it == sections.end() || it->second.length > kMaxMessageBytes) return {};
    const std::string ui = readAt(fd, it->second.offset, it->second.length);
    try {
        ProtoReader reader(ui, it->second.offset);
        for (ProtoField f; reader.next(f);)
            if (f.number == 6 && f.wire == 2) return std::string(f.bytes);
    } catch (const MalformedProto&) {
        // The version is a nicety: a damaged UI Data section leaves it unknown.
    }
    return {};
}

// A kept file of a string block: { 1 globalPid, 2 filename string id, 3 content string id }.
KeptFile readKeptFile(std::string_view message, uint64_t base) {
    KeptFile file;
    ProtoReader reader(message, base);
    for (ProtoField f; reader.next(f);) {
        if (f.wire != 0) continue;
        if (f.number == 1) file.global_pid = f.i64();
        if (f.number == 2) file.filename = f.value;
        if (f.number == 3) file.content = f.value;
    }
    return file;
}

// The NVTX payload schemas: one LZ4 block, framed as an event block, at `at` (relative to Raw
// Sampling Data + 8). What the events are does not depend on it: a damaged one is noted, not fatal.
void readPayloadSchemaBlock(int fd, const Section& rsd, uint64_t at, RepLayout& layout) {
    try {
        if (at > rsd.length - 8) bad("the NVTX payload schemas lie outside 'Raw Sampling Data'");
        Cursor cursor(fd, rsd.offset + 8 + at, rsd.offset + rsd.length);
        const BlockRef b = cursor.block("NVTX payload schema block");
        std::string scratch;
        const std::string text = inflateBlock(fd, b, scratch);
        size_t pos = 0;
        uint64_t length = 0;
        if (!readVarint(text, pos, length) || length > text.size() - pos) bad("damaged NVTX payload schema block");
        layout.nvtx_payload_schemas = text.substr(pos, length);
    } catch (const BadReport&) {
        layout.nvtx_payload_schemas_damaged = true;
    }
}

}  // namespace

std::string readAt(int fd, uint64_t offset, uint64_t size) {
    std::string out(size, '\0');
    uint64_t done = 0;
    while (done < size) {
        const ssize_t got = ::pread(fd, out.data() + done, size - done, static_cast<off_t>(offset + done));
        if (got < 0) bad("read error at byte " + std::to_string(offset + done));
        if (got == 0)
            bad("the file ends at byte " + std::to_string(offset + done) + ", inside a part it says is longer");
        done += static_cast<uint64_t>(got);
    }
    return out;
}

void inflateBlockInto(int fd, const BlockRef& block, std::string& compressed, std::string& raw) {
    compressed.resize(block.compressed);
    uint64_t done = 0;
    while (done < block.compressed) {
        const ssize_t got =
            ::pread(fd, compressed.data() + done, block.compressed - done, static_cast<off_t>(block.offset + done));
        if (got <= 0) bad("read error in the block at byte " + std::to_string(block.offset));
        done += static_cast<uint64_t>(got);
    }
    raw.resize(block.raw);
    const int n = LZ4_decompress_safe(compressed.data(), raw.data(), static_cast<int>(block.compressed),
                                      static_cast<int>(block.raw));
    if (n < 0 || static_cast<uint32_t>(n) != block.raw)
        bad("the LZ4 block at byte " + std::to_string(block.offset) + " does not decode to its stated " +
            std::to_string(block.raw) + " bytes");
}

std::string inflateBlock(int fd, const BlockRef& block, std::string& compressedScratch) {
    std::string raw;
    inflateBlockInto(fd, block, compressedScratch, raw);
    return raw;
}

RepLayout readLayout(const std::filesystem::path& path) {
    Fd file;
    file.fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (file.fd < 0) bad("cannot be read");
    RepLayout layout;
    std::error_code ec;
    layout.file_size = std::filesystem::file_size(path, ec);
    if (ec) bad("cannot be read");
    const std::string head = readAt(file.fd, 0, std::min<uint64_t>(layout.file_size, 96));
    if (!head.starts_with(kMagic)) bad("not an Nsight Systems report (no 'NVIDIA Tegra Profiler Report' header)");
    const size_t dot = head.find('.', kMagic.size());
    layout.header_version = head.substr(kMagic.size(), dot == std::string::npos ? 0 : dot - kMagic.size());

    const auto sections = readToc(file.fd, layout.file_size);
    layout.nsys_version = readNsysVersion(file.fd, sections);
    if (auto options = sections.find("Analysis Options Data");
        options != sections.end() && options->second.length <= kMaxMessageBytes) {
        layout.analysis_options = readAt(file.fd, options->second.offset, options->second.length);
        layout.analysis_options_offset = options->second.offset;
    }
    auto raw = sections.find("Raw Sampling Data");
    if (raw == sections.end()) bad("the table of contents has no 'Raw Sampling Data' section");
    auto offsets = sections.find("Sampling Data Offsets");
    if (offsets == sections.end()) bad("the table of contents has no 'Sampling Data Offsets' section");

    // Where the string blocks and the NVTX payload schemas start, relative to Raw Sampling Data + 8.
    uint64_t stringsAt = 0, payloadSchemasAt = 0;
    {
        const std::string o = readAt(file.fd, offsets->second.offset, std::min<uint64_t>(offsets->second.length, 4096));
        ProtoReader reader(o, offsets->second.offset);
        for (ProtoField f; reader.next(f);) {
            if (f.number == 1 && f.wire == 2 && f.bytes != "lz4")
                bad("the events are compressed with '" + std::string(f.bytes) + "', not LZ4");
            if (f.number == 2 && f.wire == 0) stringsAt = f.value;
            if (f.number == 3 && f.wire == 0) payloadSchemasAt = f.value;
        }
    }
    const Section rsd = raw->second;
    if (rsd.length < kRawMagic.size() || readAt(file.fd, rsd.offset, kRawMagic.size()) != kRawMagic)
        bad("the 'Raw Sampling Data' section at byte " + std::to_string(rsd.offset) + " does not start with QDTEXT00");
    if (stringsAt == 0 || stringsAt > rsd.length - 8)
        bad("the string blocks offset " + std::to_string(stringsAt) + " lies outside 'Raw Sampling Data'");
    const uint64_t stringsBegin = rsd.offset + 8 + stringsAt;
    const uint64_t end = rsd.offset + rsd.length;

    Cursor events(file.fd, rsd.offset + kRawMagic.size(), stringsBegin);
    layout.summary = events.message("summary message");
    layout.index = events.message("index message");
    while (events.left() > 0) layout.event_blocks.push_back(events.block("event block"));

    // String blocks until the index's count of strings is reached (one block in every file
    // seen), then the thread names and the system information.
    uint64_t totalStrings = 0;
    ProtoReader index(layout.index, rsd.offset);
    for (ProtoField f; index.next(f);)
        if (f.number == 3 && f.wire == 0) totalStrings = f.value;
    Cursor rest(file.fd, stringsBegin, end);
    std::string scratch;
    for (bool first = true; layout.strings.size() < totalStrings || first; first = false) {
        const BlockRef b = rest.block("string block");
        const std::string text = inflateBlock(file.fd, b, scratch);
        size_t pos = 0;
        uint64_t length = 0;
        if (!readVarint(text, pos, length) || length > text.size() - pos)
            bad("the string block at byte " + std::to_string(b.offset) + " is damaged");
        ProtoReader reader(std::string_view(text).substr(pos, length), b.offset);
        const size_t before = layout.strings.size();
        for (ProtoField f; reader.next(f);) {
            if (f.number == 1 && f.wire == 2) layout.strings.emplace_back(f.bytes);
            if (f.number == 2 && f.wire == 2) layout.kept_files.push_back(readKeptFile(f.bytes, b.offset));
        }
        if (layout.strings.size() == before) break;  // an empty block: stop rather than loop
    }
    layout.thread_names = rest.message("thread names message");
    if (rest.left() > 0) layout.system_info = rest.message("system information message");
    if (payloadSchemasAt != 0) readPayloadSchemaBlock(file.fd, rsd, payloadSchemasAt, layout);
    return layout;
}

}  // namespace lanescope::nsysrep
