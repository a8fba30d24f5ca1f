#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace lanescope {

// Memory for a column's elements (ColumnMemory.cpp): operator new below kHugeColumnBytes;
// from there on, aligned on 2 MiB, its whole 2 MiB pages marked for the system's transparent
// huge pages (Linux's MADV_HUGEPAGE), so that a column growing to millions of elements takes a
// page fault per 2 MiB instead of one per 4 KiB (docs/performance.md, "Reading, not mapping").
// A growing column may so hold up to 2 MiB past its size, within its capacity.
inline constexpr size_t kHugeColumnBytes = size_t{2} << 20;
void* allocateColumnMemory(size_t bytes);
void freeColumnMemory(void* memory, size_t bytes) noexcept;
// Faults in the whole pages inside [begin, begin + bytes) in one call, for memory about to be
// written whole (Linux's MADV_POPULATE_WRITE; advice, which older systems refuse): where a page
// fault costs microseconds, as in a virtual machine, one call for many pages costs 40 % less
// than their faults one by one (docs/performance.md, "Pages faulted in ahead").
void faultInPages(void* begin, size_t bytes) noexcept;
// The same for the elements a column may hold past its size, up to `size` of them.
template <typename T, typename Allocator>
void faultInUpTo(std::vector<T, Allocator>& column, size_t size) {
    if (size > column.size()) faultInPages(column.data() + column.size(), (size - column.size()) * sizeof(T));
}

// The allocator of a model column (Column<T>): memory of its own, like std::allocator, or a
// view of elements that already lie in a region kept alive by a shared owner (a model file
// mapped from disk, cache/ModelReader.cpp), which the column then neither copies, writes nor
// frees. A viewing column behaves as any other: appending to it moves it to memory of its own;
// a copy of it owns its elements.
template <typename T>
class ColumnAllocator {
public:
    using value_type = T;
    using propagate_on_container_copy_assignment = std::false_type;
    using propagate_on_container_move_assignment = std::true_type;
    using propagate_on_container_swap = std::true_type;
    using is_always_equal = std::false_type;

    ColumnAllocator() noexcept = default;
    // An allocator whose first allocation of `count` elements is `elements`, inside the region
    // [region_begin, region_end) that `owner` keeps alive.
    ColumnAllocator(std::shared_ptr<const void> owner, const void* region_begin, const void* region_end,
                    const T* elements, size_t count) noexcept
        : owner_(std::move(owner)),
          regionBegin_(static_cast<const std::byte*>(region_begin)),
          regionEnd_(static_cast<const std::byte*>(region_end)),
          pending_(const_cast<T*>(elements)),
          pendingCount_(count) {}
    template <typename U>
    ColumnAllocator(const ColumnAllocator<U>& other) noexcept  // NOLINT(google-explicit-constructor): rebinding
        : owner_(other.owner_), regionBegin_(other.regionBegin_), regionEnd_(other.regionEnd_) {}

    T* allocate(size_t n) {
        viewing_ = pending_ && n == pendingCount_;
        if (viewing_) return std::exchange(pending_, nullptr);
        static_assert(alignof(T) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__);
        if (n > SIZE_MAX / sizeof(T)) throw std::bad_array_new_length();
        return static_cast<T*>(allocateColumnMemory(n * sizeof(T)));
    }
    // Frees memory of its own. The viewed elements given back (the column moved to memory of its
    // own, or is gone), the column no longer keeps the region alive.
    void deallocate(T* p, size_t n) noexcept {
        if (!inRegion(p)) {
            freeColumnMemory(p, n * sizeof(T));
            return;
        }
        owner_.reset();
        regionBegin_ = regionEnd_ = nullptr;
    }
    // Value-initialises an element of memory of its own. While the column views the region
    // (its last allocation was the view), the elements it grows by there hold their values:
    // a flag, not a test of each element's address, so that the loop constructing a view of
    // millions of elements costs nothing.
    template <typename U>
    void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
        if (!viewing_) ::new (static_cast<void*>(p)) U();
    }
    template <typename U, typename... Args>
    void construct(U* p, Args&&... args) {
        ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
    }
    // A copied column owns its elements.
    ColumnAllocator select_on_container_copy_construction() const noexcept { return {}; }

    friend bool operator==(const ColumnAllocator& a, const ColumnAllocator& b) noexcept { return a.owner_ == b.owner_; }

private:
    template <typename U>
    friend class ColumnAllocator;
    bool inRegion(const void* p) const noexcept {
        const auto* at = static_cast<const std::byte*>(p);
        return regionBegin_ != nullptr && at >= regionBegin_ && at < regionEnd_;
    }

    std::shared_ptr<const void> owner_;  // keeps the region alive; null for memory of its own
    const std::byte* regionBegin_ = nullptr;
    const std::byte* regionEnd_ = nullptr;
    T* pending_ = nullptr;  // the elements the next allocation of pendingCount_ returns
    size_t pendingCount_ = 0;
    bool viewing_ = false;  // the last allocation returned pending_
};

// A column of the model: a std::vector whose elements are its own or a view of a region
// (ColumnAllocator).
template <typename T>
using Column = std::vector<T, ColumnAllocator<T>>;

// A column viewing `count` elements at `elements`, inside [region_begin, region_end), which
// `owner` keeps alive; nothing is copied or written.
template <typename T>
Column<T> viewColumn(std::shared_ptr<const void> owner, const void* region_begin, const void* region_end,
                     const T* elements, size_t count) {
    static_assert(std::is_trivially_copyable_v<T>);
    Column<T> column(ColumnAllocator<T>(std::move(owner), region_begin, region_end, elements, count));
    if (count == 0) return column;
    column.reserve(count);  // the allocation is `elements`
    column.resize(count);   // constructs nothing inside the region
    return column;
}

}  // namespace lanescope
