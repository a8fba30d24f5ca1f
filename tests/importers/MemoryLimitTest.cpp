// A file that would not fit in memory is refused before the import starts, with a message that
// says how much it needs and how much there is; the estimate behind it is checked against
// real imports of each format.
#include <cstdlib>

#include "ImportHelpers.h"
#include "importers/ImportFiles.h"
#include "importers/MemoryEstimate.h"

using namespace lanescope;
using namespace lanescope::test;

namespace {

// Events of an imported report as the estimate counts them: every slice, instant and
// counter point.
uint64_t importedEvents(const std::filesystem::path& path) {
    const EventCounts c = importOk(path)->counts();
    return c.slices + c.instants + c.counter_samples;
}

// One real report of each format the estimate knows.
struct Sample {
    const char* file;
    const char* format;
};
constexpr Sample kSamples[] = {{"nsys-2025.3/train_1gpu.sqlite", "nsys-sqlite"},
                               {"nsys-2022.4/cpu_nvtx_threads.sqlite", "nsys-sqlite"},
                               {"kineto/train_1gpu_rank0.pt.trace.json", "kineto-json"},
                               {"kineto/ddp_rank0.pt.trace.json.gz", "kineto-json"},
                               {"fuzz/small.pftrace", "perfetto"}};

}  // namespace

TEST_CASE("the memory estimate follows the events each format really holds") {
    for (const Sample& s : kSamples) {
        const auto path = dataFile(s.file);
        const MemoryEstimate e = estimateImportMemory(path, s.format);
        const uint64_t real = importedEvents(path);
        INFO(s.file << ": estimated " << e.events << " events, imported " << real);
        CHECK(e.file_bytes == std::filesystem::file_size(path));
        CHECK(e.needed_bytes > e.events * 26);  // the model alone takes 26 bytes an event or more
        if (std::string_view(s.format) == "nsys-sqlite") {
            // Rows of the event tables (and the strings): never fewer than the events imported.
            CHECK(e.events >= real);
            CHECK(e.events <= 3 * real);
        } else {
            // Extrapolated from the first MiB (of inflated JSON for the gzip file): JSON events
            // with a "ph" (flows and metadata too, though they become no slice), Perfetto
            // packets with a track event (a slice's begin and end count as one).
            CHECK(e.events >= real * 7 / 10);
            CHECK(e.events <= real * 3 / 2);
        }
    }
    CHECK(estimateImportMemory(dataFile("nsys-2025.3/train_1gpu.sqlite"), "nsys-rep").needed_bytes == 0);
}

TEST_CASE("a report needing more memory than is available is refused with both sizes") {
    for (const Sample& s : kSamples) {
        const auto path = dataFile(s.file);
        const MemoryEstimate e = estimateImportMemory(path, s.format);
        REQUIRE(e.needed_bytes > 0);
        ImportOptions options;
        options.memory_limit_bytes = e.needed_bytes - 1;
        const ImportError error = importError(path, options);
        INFO(error.message);
        CHECK(error.kind == ImportError::Kind::TooBig);
        CHECK(errorKindName(error.kind) == "too_big");
        CHECK(error.message.starts_with(path.string() + ": needs about " + humanBytes(e.needed_bytes) +
                                        " of memory to open (" + humanBytes(e.file_bytes) + " file, about "));
        CHECK(error.message.find(", " + humanBytes(e.needed_bytes - 1) + " is available") != std::string::npos);

        options.memory_limit_bytes = e.needed_bytes;  // just enough
        importOk(path, options);
    }
}

TEST_CASE("reports opened together share the memory: the one that does not fit beside the others is refused") {
    const auto path = dataFile("nsys-2025.3/train_1gpu.sqlite");
    const MemoryEstimate e = estimateImportMemory(path, "nsys-sqlite");
    REQUIRE(e.needed_bytes > 0);
    NullProgress progress;
    ImportOptions options;
    options.memory_limit_bytes = e.needed_bytes * 3 / 2;  // room for one, not for two
    const std::vector<ImportResult> oneFits = importFiles({path, path}, options, progress);
    REQUIRE(oneFits.size() == 2);
    CHECK(oneFits[0].ok() != oneFits[1].ok());  // either may start first
    for (const ImportResult& r : oneFits) {
        if (r.ok()) continue;
        INFO(r.error().message);
        CHECK(r.error().kind == ImportError::Kind::TooBig);
        CHECK(r.error().message.find(", " + humanBytes(options.memory_limit_bytes - e.needed_bytes) +
                                     " is available (of " + humanBytes(options.memory_limit_bytes) +
                                     ", the other reports being opened take about " + humanBytes(e.needed_bytes) +
                                     ")") != std::string::npos);
    }

    options.memory_limit_bytes = e.needed_bytes * 2;  // room for both
    for (const ImportResult& r : importFiles({path, path}, options, progress)) CHECK(r.ok());
    // Alone, each is measured against the whole limit again (nothing stays promised).
    options.memory_limit_bytes = e.needed_bytes;
    importOk(path, options);
}

TEST_CASE("the memory available: the option, else LANESCOPE_MEMORY_LIMIT_MB, else the machine's") {
    ::unsetenv("LANESCOPE_MEMORY_LIMIT_MB");
    const uint64_t machine = availableMemory({});
    CHECK(machine > (64ull << 20));
    ::setenv("LANESCOPE_MEMORY_LIMIT_MB", "5", 1);
    CHECK(availableMemory({}) == 5ull << 20);
    ImportOptions options;
    options.memory_limit_bytes = 12345;
    CHECK(availableMemory(options) == 12345);
    const ImportError error = importError(dataFile("nsys-2025.3/train_1gpu.sqlite"));
    CHECK(error.kind == ImportError::Kind::TooBig);
    CHECK(error.message.find("5.2 MB is available") != std::string::npos);
    ::setenv("LANESCOPE_MEMORY_LIMIT_MB", "lots", 1);  // not a number: ignored
    CHECK(availableMemory({}) > (64ull << 20));
    ::unsetenv("LANESCOPE_MEMORY_LIMIT_MB");
}

TEST_CASE("sizes are written in decimal units") {
    CHECK(humanBytes(0) == "0 bytes");
    CHECK(humanBytes(999) == "999 bytes");
    CHECK(humanBytes(1500) == "1.5 KB");
    CHECK(humanBytes(3'100'000'000ull) == "3.1 GB");
    CHECK(humanBytes(820'000'000ull) == "820 MB");
}
