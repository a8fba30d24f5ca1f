// Model columns (model/Column.h): a column viewing a region neither copies nor writes it and
// keeps its owner alive; appending to a view or copying it gives memory of its own; a column of
// its own value-initialises as std::vector does.
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <memory>
#include <numeric>
#include <vector>

#include "model/Column.h"
#include "tests/support/ColumnEquality.h"

using namespace lanescope;

namespace {

// Pages that can only be read: a write to them would end the test with SIGSEGV.
struct ReadOnlyPages {
    size_t bytes = 0;
    int64_t* values = nullptr;
    explicit ReadOnlyPages(size_t count) : bytes(count * sizeof(int64_t)) {
        void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        REQUIRE(p != MAP_FAILED);
        values = static_cast<int64_t*>(p);
        std::iota(values, values + count, int64_t{100});
        REQUIRE(::mprotect(p, bytes, PROT_READ) == 0);
    }
    ~ReadOnlyPages() { ::munmap(values, bytes); }
};

}  // namespace

TEST_CASE("a column viewing a region reads it in place, writes nothing and keeps its owner") {
    const size_t count = 3 * size_t(::sysconf(_SC_PAGESIZE)) / sizeof(int64_t);
    auto pages = std::make_shared<ReadOnlyPages>(count);
    const int64_t* values = pages->values;
    std::weak_ptr<ReadOnlyPages> owner = pages;
    {
        Column<int64_t> view = viewColumn(std::shared_ptr<const void>(pages), values, values + count, values, count);
        pages.reset();
        CHECK_FALSE(owner.expired());  // the column keeps the region
        CHECK(view.data() == values);
        REQUIRE(view.size() == count);
        CHECK(view.front() == 100);
        CHECK(view.back() == int64_t(100 + count - 1));

        // Moved, it still views; copied, the copy has memory of its own.
        Column<int64_t> moved = std::move(view);
        CHECK(moved.data() == values);
        const Column<int64_t> copy = moved;
        CHECK(copy.data() != values);
        CHECK(copy == std::vector<int64_t>(values, values + count));

        // A part of it viewed: only those elements.
        const Column<int64_t> part =
            viewColumn(std::shared_ptr<const void>(owner.lock()), values, values + count, values + 5, 7);
        CHECK(part.data() == values + 5);
        CHECK(part == std::vector<int64_t>{105, 106, 107, 108, 109, 110, 111});

        // Appending moves it to memory of its own, the region untouched.
        moved.push_back(-1);
        CHECK(moved.data() != values);
        CHECK(moved.size() == count + 1);
        CHECK(moved[count - 1] == int64_t(100 + count - 1));
        CHECK(moved.back() == -1);
        moved.resize(count + 4);  // grown in its own memory: zeros
        CHECK(moved.back() == 0);
        CHECK(values[0] == 100);
    }
    CHECK(owner.expired());  // the last column gone, the region goes
}

TEST_CASE("a column that moves to memory of its own lets the region it viewed go") {
    const size_t count = 3 * size_t(::sysconf(_SC_PAGESIZE)) / sizeof(int64_t);
    auto pages = std::make_shared<ReadOnlyPages>(count);
    const int64_t* values = pages->values;
    const std::weak_ptr<ReadOnlyPages> owner = pages;
    Column<int64_t> column =
        viewColumn(std::shared_ptr<const void>(std::move(pages)), values, values + count, values, count);
    CHECK_FALSE(owner.expired());
    column.push_back(-1);  // its elements copied into memory of its own: the region is not needed
    CHECK(owner.expired());
    REQUIRE(column.size() == count + 1);
    CHECK(column[0] == 100);
    CHECK(column[count - 1] == int64_t(100 + count - 1));
    CHECK(column.back() == -1);
    column.push_back(-2);  // and it grows on in memory of its own
    CHECK(column.back() == -2);
}

TEST_CASE("a column of its own is a std::vector: zeros when grown, equal to a vector of its elements") {
    Column<uint32_t> column;
    column.resize(1000, 7);
    column.resize(2000);
    CHECK(column[999] == 7);
    CHECK(column[1999] == 0);
    CHECK(std::count(column.begin(), column.end(), 0u) == 1000);
    Column<uint8_t> empty = viewColumn<uint8_t>(nullptr, nullptr, nullptr, nullptr, 0);
    CHECK(empty.empty());
    empty.resize(3);
    CHECK(empty == std::vector<uint8_t>{0, 0, 0});
}
