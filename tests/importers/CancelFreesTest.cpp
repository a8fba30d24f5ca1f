// A cancelled import gives back the memory it took. A synthetic SQLite export big enough to
// take tens of MB is imported with a progress sink that requests a stop once the process has
// grown by kGrowth; after the import returns, the bytes held from malloc must be back where
// they were, and (malloc_trim handing freed pages back) the resident size near where it
// started. Under ASan and TSan the resident size says nothing (their allocators keep freed
// memory, and mallinfo sees none of it): there the test cancels the same way, and ASan's leak
// checker at exit (detect_leaks=1) is what would catch memory kept.
#include <malloc.h>
#include <unistd.h>

#include <atomic>
#include <fstream>
#include <stop_token>

#include "ImportHelpers.h"
#include "tests/support/SyntheticReport.h"

using namespace lanescope;
using namespace lanescope::test;

namespace {

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kSanitized = true;
constexpr uint64_t kEvents = 300'000;
#else
constexpr bool kSanitized = false;
constexpr uint64_t kEvents = 2'000'000;
#endif
constexpr uint64_t kGrowth = 40ull << 20;    // taken before the stop is requested
constexpr uint64_t kSlack = 8ull << 20;      // resident size that may stay: allocator bookkeeping
constexpr uint64_t kHeldSlack = 1ull << 20;  // malloc'd bytes that may stay: caches of libraries

uint64_t residentBytes() {
    std::ifstream statm("/proc/self/statm");
    uint64_t pages = 0, resident = 0;
    statm >> pages >> resident;
    return resident * static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));
}

uint64_t trimmedResidentBytes() {
    ::malloc_trim(0);
    return residentBytes();
}

// Bytes the program holds from malloc (in chunks and in mmapped blocks), all arenas.
uint64_t heldBytes() {
    const struct mallinfo2 m = ::mallinfo2();
    return m.uordblks + m.hblkhd;
}

// Requests a stop once the process has grown by kGrowth since `baseline` (under ASan: at the
// third table), at the latest when every table is read (a loaded machine may report its
// progress too seldom to see the growth), and remembers how big it was then.
class StopWhenGrown final : public ProgressSink {
public:
    StopWhenGrown(uint64_t baseline, std::stop_source& stop) : baseline_(baseline), stop_(stop) {}
    void progress(std::string_view stage, uint64_t, uint64_t) override {
        const uint64_t now = residentBytes();
        const bool grown =
            (kSanitized ? ++calls_ >= 3 : now >= baseline_ + kGrowth) || stage == "completing the report";
        if (grown && !stop_.stop_requested()) {
            atStop = now;
            stop_.request_stop();
        }
    }
    std::atomic<uint64_t> atStop{0};

private:
    const uint64_t baseline_;
    std::stop_source& stop_;
    std::atomic<int> calls_{0};
};

}  // namespace

TEST_CASE("a cancelled import frees what it took") {
    // glibc keeps the free top of a thread's arena below a trim threshold that rises with use
    // (up to 64 MiB an arena) for the next import to reuse; fixed low, what is freed goes back
    // to the system and the resident size can show it.
    ::mallopt(M_TRIM_THRESHOLD, 1 << 20);
    const auto dir = tempDir("cancelfrees");
    const auto report = dir / "synthetic.sqlite";
    bench::writeSyntheticReport(report, kEvents);
    importOk(dataFile("nsys-2025.3/train_1gpu.sqlite"));  // first-use costs (SQLite, thread stacks) paid

    const uint64_t baseline = trimmedResidentBytes(), held = heldBytes();
    std::stop_source stop;
    StopWhenGrown sink(baseline, stop);
    ImportResult result = importFile(report, {}, sink, stop.get_token());
    REQUIRE_FALSE(result.ok());
    CHECK(result.error().kind == ImportError::Kind::Cancelled);
    REQUIRE(sink.atStop > 0);
    const uint64_t after = trimmedResidentBytes();
    INFO("resident: " << baseline / 1e6 << " MB before, " << sink.atStop / 1e6 << " MB at the stop, " << after / 1e6
                      << " MB after; held from malloc: " << held / 1e6 << " MB before, " << heldBytes() / 1e6
                      << " MB after");
    if (!kSanitized) {
        CHECK(heldBytes() <= held + kHeldSlack);
        CHECK(after <= baseline + kSlack);
    }

    // The same file imported to the end takes what it needs and returns it when dropped.
    importOk(report);
    if (!kSanitized) {
        CHECK(heldBytes() <= held + kHeldSlack);
        CHECK(trimmedResidentBytes() <= baseline + kSlack);
    }
    std::filesystem::remove_all(dir);
}
