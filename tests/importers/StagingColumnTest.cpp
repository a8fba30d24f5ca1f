// The importers' staging columns (importers/StagingColumn.h): values kept through growth, through
// joining two columns (append) and through handing the memory to a model column (intoColumn),
// for columns in malloc'd memory and in pages of their own, at every offset a page can end at.
// And a lane of them (importers/StagingLane.h) handed to the model.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "importers/StagingColumn.h"
#include "importers/StagingLane.h"

using namespace lanescope;

namespace {

// The value at index i of a column numbered from `first`: distinct per column and index, cut to T.
template <typename T>
T valueAt(uint64_t first, size_t i) {
    return static_cast<T>((first + i) * 0x9E3779B97F4A7C15ull >> 17);
}

template <typename T>
StagingColumn<T> filled(uint64_t first, size_t count) {
    StagingColumn<T> column;
    for (size_t i = 0; i < count; ++i) column.push_back(valueAt<T>(first, i));
    return column;
}

// Whether `values` holds `head` values numbered from 1, then `tail` numbered from 2^40.
template <typename Values>
bool holdsJoined(const Values& values, size_t head, size_t tail) {
    using T = std::decay_t<decltype(values[0])>;
    if (values.size() != head + tail) return false;
    for (size_t i = 0; i < head; ++i)
        if (values[i] != valueAt<T>(1, i)) return false;
    for (size_t i = 0; i < tail; ++i)
        if (values[head + i] != valueAt<T>(uint64_t{1} << 40, i)) return false;
    return true;
}

// Whether a column of `count` values lies in pages of its own: from a capacity of 256 KiB on,
// capacities doubling from 256 values.
template <typename T>
bool mapped(size_t count) {
    return count * sizeof(T) > (size_t{128} << 10);
}

template <typename T>
void checkJoins() {
    // Empty, small and the largest malloc'd, the smallest mapped, and mapped with the last page
    // ending at odd offsets.
    const size_t half = (size_t{128} << 10) / sizeof(T);
    const std::vector<size_t> sizes = {0, 1, 1000, half, half + 1, 2 * half + 333, 6 * half + 4097};
    for (const size_t head : sizes)
        for (const size_t tail : sizes) {
            INFO("head " << head << " tail " << tail << " of " << sizeof(T) << "-byte values");
            StagingColumn<T> joined = filled<T>(1, head);
            StagingColumn<T> later = filled<T>(uint64_t{1} << 40, tail);
            const T* const headValues = joined.begin();
            joined.append(std::move(later));
            CHECK(later.empty());
            CHECK(holdsJoined(joined, head, tail));
            // A mapped column does not move when another is joined to it.
            if (mapped<T>(head)) CHECK(joined.begin() == headValues);

            // The joined column grows on as any other.
            joined.push_back(T{7});
            CHECK(joined.size() == head + tail + 1);
            CHECK(joined[head + tail] == T{7});

            const T* const values = joined.begin();
            const bool pages = mapped<T>(head + tail + 1) || mapped<T>(head) || mapped<T>(tail);
            const Column<T> column = joined.intoColumn();
            CHECK(joined.empty());
            CHECK(column.size() == head + tail + 1);
            CHECK(holdsJoined(std::vector<T>(column.begin(), column.end() - 1), head, tail));
            // A mapped column's pages become the model's: nothing is copied.
            if (pages) CHECK(column.data() == values);
        }
}

}  // namespace

TEST_CASE("staging columns keep their values when joined and handed to the model") {
    checkJoins<int64_t>();
    checkJoins<uint32_t>();
    checkJoins<uint8_t>();
}

TEST_CASE("a staging column growing past the room kept for it moves once and keeps its values") {
    // 64 times 256 KiB is kept for a column first mapped at 256 KiB: 2 Mi eight-byte values.
    const size_t count = size_t{5} << 20;
    StagingColumn<int64_t> column = filled<int64_t>(1, count);
    REQUIRE(column.size() == count);
    bool same = true;
    for (size_t i = 0; i < count; ++i) same = same && column[i] == valueAt<int64_t>(1, i);
    CHECK(same);

    StagingColumn<int64_t> tail = filled<int64_t>(uint64_t{1} << 40, size_t{3} << 20);
    column.append(std::move(tail));
    CHECK(holdsJoined(column, count, size_t{3} << 20));
    const Column<int64_t> model = column.intoColumn();
    CHECK(holdsJoined(model, count, size_t{3} << 20));
}

TEST_CASE("a model column taken from a staging column is a column like any other") {
    StagingColumn<uint32_t> staging = filled<uint32_t>(5, 200000);
    Column<uint32_t> column = staging.intoColumn();
    const Column<uint32_t> copy = column;  // a copy owns its values
    CHECK(copy.data() != column.data());
    CHECK(copy == column);
    column.push_back(1);  // appending moves it into memory of its own, values kept
    CHECK(column.size() == 200001);
    CHECK(std::equal(copy.begin(), copy.end(), column.begin()));
    column.clear();
    column.shrink_to_fit();
    CHECK(column.empty());
}

TEST_CASE("a staging lane hands the model its events, long durations at their indexes") {
    StagingIntervals events;
    StagingInstants instants;
    const size_t count = 300000;  // columns past the size from which they lie in pages of their own
    const int64_t longDuration = int64_t{kLongDuration} + 7;
    for (size_t i = 0; i < count; ++i) {
        const auto start = static_cast<int64_t>(i) * 10;
        events.append(start, start + (i % 100000 == 3 ? longDuration : int64_t(i % 9)), uint32_t(i), uint32_t(i * 3),
                      i % 2 ? EventKind::Kernel : EventKind::Memcpy);
        instants.append(start + 1, uint32_t(i + 1), uint32_t(i * 5));
    }
    const IntervalColumns model = events.intoColumns();
    const InstantColumns modelInstants = instants.intoColumns();
    CHECK(events.size() == 0);
    CHECK(instants.size() == 0);
    REQUIRE(model.size() == count);
    REQUIRE(modelInstants.size() == count);
    CHECK(model.long_durations.size() == 3);
    CHECK(model.depth.empty());  // for freezing to fill
    bool same = true;
    for (size_t i = 0; i < count; ++i) {
        const auto start = static_cast<int64_t>(i) * 10;
        same = same && model.start_ns[i] == start &&
               model.durationNs(i) == (i % 100000 == 3 ? longDuration : int64_t(i % 9)) &&
               model.name_id[i] == uint32_t(i) && model.payload[i] == uint32_t(i * 3) &&
               model.kind[i] == (i % 2 ? EventKind::Kernel : EventKind::Memcpy) &&
               modelInstants.time_ns[i] == start + 1 && modelInstants.name_id[i] == uint32_t(i + 1) &&
               modelInstants.payload[i] == uint32_t(i * 5);
    }
    CHECK(same);
}
