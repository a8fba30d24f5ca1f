#include <catch2/catch.hpp>

#include "timeline/NumberFormat.h"

using namespace lanescope;

TEST_CASE("counter values below 10,000 are printed as they are, to 4 digits") {
    CHECK(formatCounterValue(0) == "0");
    CHECK(formatCounterValue(100) == "100");
    CHECK(formatCounterValue(87.5) == "87.5");
    CHECK(formatCounterValue(9999) == "9999");
    CHECK(formatCounterValue(0.25) == "0.25");
    CHECK(formatCounterValue(-42) == "-42");
    CHECK(formatCounterValue(1e-5) == "1e-05");
}

TEST_CASE("larger counter values take an SI prefix") {
    CHECK(formatCounterValue(10000) == "10 k");
    CHECK(formatCounterValue(12345) == "12.35 k");
    CHECK(formatCounterValue(22370525) == "22.37 M");    // warps in flight, train_metrics
    CHECK(formatCounterValue(1995323750) == "1.995 G");  // a GPC clock recorded in Hz
    CHECK(formatCounterValue(-3.5e12) == "-3.5 T");
    CHECK(formatCounterValue(999960) == "1 M");     // not "1000 k"
    CHECK(formatCounterValue(2.5e18) == "2500 P");  // no prefix beyond P
}

TEST_CASE("sizes in bytes take a binary unit") {
    CHECK(formatBytes(0) == "0 B");
    CHECK(formatBytes(8) == "8 B");
    CHECK(formatBytes(1023) == "1023 B");
    CHECK(formatBytes(1024) == "1 KiB");
    CHECK(formatBytes(1536) == "1.5 KiB");
    CHECK(formatBytes(1048576) == "1 MiB");
    CHECK(formatBytes(4194304) == "4 MiB");      // the all-gather of tests/data/communication
    CHECK(formatBytes(4348968) == "4.147 MiB");  // a DDP bucket
    CHECK(formatBytes(1048575) == "1 MiB");      // not "1024 KiB"
    CHECK(formatBytes(int64_t(3) << 40) == "3 TiB");
    CHECK(formatBytes(int64_t(1) << 62) == "4096 PiB");  // no unit beyond PiB
}
