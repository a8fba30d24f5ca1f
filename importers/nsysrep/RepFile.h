#pragma once
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace lanescope::nsysrep {

// A file that cannot be read as an Nsight Systems report: what is wrong and where, one line.
struct BadReport : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// One LZ4 block of Raw Sampling Data: where its compressed bytes are in the file and the size
// its framing says it inflates to (checked against the output, never trusted for allocation
// beyond a cap).
struct BlockRef {
    uint64_t offset = 0;  // file offset of the compressed bytes
    uint32_t compressed = 0;
    uint32_t raw = 0;
};

// The parts of an .nsys-rep/.qdrep that the importer reads (docs/nsys-rep-format.md): found
// through the table of contents at the file's end, every offset and size checked against the
// file before use. Event blocks are listed, not read: they are read and inflated by the
// decoding workers, one at a time, so memory holds the model and not the file.
// A file Nsight Systems kept with the report, as the string block lists it (field 2): a
// process's standard output or error, a configuration file. Ids are string-table positions.
struct KeptFile {
    int64_t global_pid = 0;
    uint64_t filename = 0;
    uint64_t content = 0;
};

struct RepLayout {
    uint64_t file_size = 0;
    std::string header_version;          // the header's version text ("1", "36398880", ...)
    std::string nsys_version;            // "2025.3.1.0" from the UI Data section; empty if absent
    std::string summary;                 // the first message of Raw Sampling Data
    std::string index;                   // the second: totals
    std::vector<BlockRef> event_blocks;  // in file order
    std::vector<std::string> strings;    // the string table: position = the ids events use
    std::vector<KeptFile> kept_files;    // in the string blocks' order (nsys's ProcessStreams)
    std::string thread_names;            // message { repeated 1 { 1 tid, 2 name id, 3 prio, 4 globalTid } }
    std::string system_info;             // message with the GPUs and CUDA devices
    // The NVTX extended-payload schemas (2023.4+, where the report has any): the inflated message
    // of the block that `Sampling Data Offsets` field 3 points at; empty when absent or damaged.
    std::string nvtx_payload_schemas;
    bool nvtx_payload_schemas_damaged = false;  // the block is there but does not read
    // The capture settings: the `Analysis Options Data` section and its file offset; empty when
    // the report has none (importers/nsysrep/CaptureSettings.h reads it).
    std::string analysis_options;
    uint64_t analysis_options_offset = 0;
};

// Reads the layout of `path`; throws BadReport naming what is wrong and where.
RepLayout readLayout(const std::filesystem::path& path);

// Reads `size` bytes at `offset` of an open file descriptor; throws BadReport when it cannot.
std::string readAt(int fd, uint64_t offset, uint64_t size);

// Inflates one block (LZ4 block format, no frame) into `raw`, whose memory is reused from block
// to block (a new string's pages cost a fault each); throws BadReport when it does not decode
// to exactly its stated size.
void inflateBlockInto(int fd, const BlockRef& block, std::string& compressedScratch, std::string& raw);
// The same into a string of its own.
std::string inflateBlock(int fd, const BlockRef& block, std::string& compressedScratch);

}  // namespace lanescope::nsysrep
