// findEvents on real reports of the corpus, checked against SQL on the same files.
#include <algorithm>

#include "model/Find.h"
#include "support/ReportSql.h"

using namespace lanescope;
using namespace lanescope::test;

namespace {

int64_t startOf(const Report& r, EventRef e) { return r.lanes[e.lane].events.start_ns[e.index]; }
std::string_view nameOf(const Report& r, EventRef e) { return r.str(r.lanes[e.lane].events.name_id[e.index]); }

void checkSorted(const Report& r, const std::vector<EventRef>& hits) {
    for (size_t i = 1; i < hits.size(); ++i) {
        const auto a = std::tuple(startOf(r, hits[i - 1]), hits[i - 1].lane, hits[i - 1].index);
        const auto b = std::tuple(startOf(r, hits[i]), hits[i].lane, hits[i].index);
        REQUIRE(a < b);  // strictly: sorted and no repeats
    }
}

}  // namespace

TEST_CASE("find \"conv\" in train_1gpu: the 15 NVTX conv ranges, as SQL counts them") {
    const auto path = dataFile("nsys-2025.3/train_1gpu.sqlite");
    const auto report = importOk(path);
    const int64_t expected = sqlNameLikeCount(path, "%conv%");
    CHECK(expected == 15);  // no kernel, API or OS runtime name contains "conv" in this file
    CHECK(sqliteInt(path, "SELECT count(*) FROM NVTX_EVENTS WHERE text = 'conv'") == 15);

    const FindResult r = findEvents(*report, {"conv", false, false});
    CHECK(r.error.empty());
    CHECK(static_cast<int64_t>(r.hits.size()) == expected);
    checkSorted(*report, r.hits);
    for (EventRef e : r.hits) {
        CHECK(report->lanes[e.lane].events.kind[e.index] == EventKind::NvtxRange);
        CHECK(nameOf(*report, e) == "conv");
    }
    CHECK(findEvents(*report, {"CoNv", false, false}).hits == r.hits);
    CHECK(findEvents(*report, {"CONV", false, true}).hits.empty());
}

TEST_CASE("find matches across kinds with the counts SQL gives, NCCL copies once") {
    struct Case {
        const char* file;
        const char* text;
    };
    // "kernel": launch APIs and kernel names; "memcpy": cudaMemcpyAsync calls and the memcpys
    // themselves; "nccl": NCCL kernels and NVTX ranges that the NCCL lanes copy; "sync":
    // synchronization APIs and sync events.
    for (const Case c :
         {Case{"nsys-2025.3/train_1gpu.sqlite", "kernel"}, Case{"nsys-2025.3/train_1gpu.sqlite", "memcpy"},
          Case{"nsys-2025.3/train_1gpu.sqlite", "sync"}, Case{"nsys-2025.3/ddp_rank0.sqlite", "nccl"},
          Case{"nsys-2025.3/ddp_rank0.sqlite", "kernel"}}) {
        INFO(c.file << " / " << c.text);
        const auto path = dataFile(c.file);
        const auto report = importOk(path);
        const int64_t expected = sqlNameLikeCount(path, std::string("%") + c.text + "%");
        CHECK(expected > 0);
        const FindResult r = findEvents(*report, {c.text, false, false});
        CHECK(static_cast<int64_t>(r.hits.size()) == expected);
        checkSorted(*report, r.hits);
        for (EventRef e : r.hits) CHECK(report->lanes[e.lane].kind != LaneKind::Nccl);
    }
}

TEST_CASE("find regex ^step [0-9]+$ gives the 15 steps of train_1gpu in time order") {
    const auto path = dataFile("nsys-2025.3/train_1gpu.sqlite");
    const auto report = importOk(path);
    const FindResult r = findEvents(*report, {"^step [0-9]+$", true, false});
    CHECK(r.error.empty());
    REQUIRE(r.hits.size() == 15);
    checkSorted(*report, r.hits);
    const auto sqlStarts = sqliteRows(path,
                                      "SELECT start, text FROM NVTX_EVENTS WHERE eventType = 59 "
                                      "AND text LIKE 'step %' ORDER BY start");
    REQUIRE(sqlStarts.size() == 15);
    for (size_t i = 0; i < 15; ++i) {
        CHECK(std::to_string(startOf(*report, r.hits[i])) == sqlStarts[i][0]);
        CHECK(nameOf(*report, r.hits[i]) == sqlStarts[i][1]);
        CHECK(nameOf(*report, r.hits[i]) == "step " + std::to_string(i));
    }
    // Unanchored, "step 1" is also inside "step 10" .. "step 14".
    CHECK(findEvents(*report, {"step 1", true, false}).hits.size() == 6);
    CHECK(findEvents(*report, {"^STEP 1$", true, false}).hits.size() == 1);
    CHECK(findEvents(*report, {"^STEP 1$", true, true}).hits.empty());
}

TEST_CASE("find with an invalid regex reports the error and no hits") {
    const auto report = importOk(dataFile("nsys-2025.3/train_1gpu.sqlite"));
    const FindResult r = findEvents(*report, {"([", true, false});
    CHECK_FALSE(r.error.empty());
    CHECK(r.hits.empty());
}

TEST_CASE("nextHit walks the conv ranges of train_1gpu") {
    const auto report = importOk(dataFile("nsys-2025.3/train_1gpu.sqlite"));
    const auto hits = findEvents(*report, {"conv", false, false}).hits;
    REQUIRE(hits.size() == 15);
    CHECK(nextHit(*report, hits, INT64_MIN) == 0);
    CHECK(nextHit(*report, hits, report->meta.begin_ns) == 0);
    CHECK(nextHit(*report, hits, INT64_MAX) == hits.size());
    CHECK(nextHit(*report, hits, startOf(*report, hits.back()) + 1) == hits.size());
    for (size_t i = 0; i < hits.size(); ++i) {
        const int64_t t = startOf(*report, hits[i]);
        CHECK(nextHit(*report, hits, t) == i);          // at a hit's start: that hit
        CHECK(nextHit(*report, hits, t + 1) == i + 1);  // just after it: the next one
        if (i > 0) {                                    // halfway from the previous hit: previous = result - 1
            const int64_t mid = (startOf(*report, hits[i - 1]) + t) / 2 + 1;
            CHECK(nextHit(*report, hits, mid) == i);
        }
    }
}
