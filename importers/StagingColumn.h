#pragma once
// A column an importer appends to before the model's columns are sized: trivially copyable
// values in arrival order. Small columns live in malloc'd memory; from 256 KiB on, in pages of
// their own at the start of a larger range of address space kept for them, which the column
// grows into (mprotect) without moving or copying its values. Where a virtual machine makes the
// first touch of a page at a new address cost microseconds, a page never moves before the
// model's column takes it (intoColumn); only the later part of two joined columns moves once
// (append). docs/performance.md, "Columns that keep their pages".
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>

#include "model/Column.h"

namespace lanescope {

template <typename T>
class StagingColumn {
    static_assert(std::is_trivially_copyable_v<T>);

public:
    StagingColumn() = default;
    StagingColumn(const StagingColumn&) = delete;
    StagingColumn& operator=(const StagingColumn&) = delete;
    StagingColumn(StagingColumn&& other) noexcept { swap(other); }
    StagingColumn& operator=(StagingColumn&& other) noexcept {
        StagingColumn(std::move(other)).swap(*this);
        return *this;
    }
    ~StagingColumn() { release(); }

    void push_back(T value) {
        if (size_ == ready_) makeRoom();
        data_[size_++] = value;
    }
    size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    T& operator[](size_t i) { return data_[i]; }
    const T& operator[](size_t i) const { return data_[i]; }
    const T* begin() const { return data_; }
    const T* end() const { return data_ + size_; }
    // Moves the values of `tail` to the end of this column and leaves `tail` empty. Where both
    // lie in pages of their own, tail's pages move behind this column's values instead of being
    // copied into fresh ones: its values shift within their pages to the offset at which this
    // column's last page ends, that page's values are copied in front of them, and the pages
    // take their place (docs/performance.md, "Columns that keep their pages").
    void append(StagingColumn&& tail) {
        if (tail.empty()) return;
        if (empty()) {
            *this = std::move(tail);
        } else if (mapped_ && tail.mapped_ && kMovesPages && pageBytes() % sizeof(T) == 0) {
            appendPages(tail);
        } else {
            while (capacity_ < size_ + tail.size_) grow();
            if (mapped_) faultInPages(data_ + size_, tail.size_ * sizeof(T));
            std::memcpy(data_ + size_, tail.data_, tail.size_ * sizeof(T));
            size_ += tail.size_;
            ready_ = mapped_ ? size_ : capacity_;
            tail.release();
        }
    }
    // The values as a model column, and this column empty. Where they lie in pages of their own,
    // the model column takes the pages that hold them (a view that keeps them alive: nothing is
    // copied), and the pages past them, faulted in ahead or kept for growth, are given back;
    // otherwise it gets a copy.
    Column<T> intoColumn() {
        Column<T> column;
        if (mapped_ && size_ > 0) {
            const size_t bytes = (size_ * sizeof(T) + pageBytes() - 1) / pageBytes() * pageBytes();
            if (reserved_ > bytes) ::munmap(reinterpret_cast<std::byte*>(data_) + bytes, reserved_ - bytes);
            const std::shared_ptr<void> pages(static_cast<void*>(data_), [bytes](void* p) { ::munmap(p, bytes); });
            column = viewColumn<T>(pages, data_, data_ + size_, data_, size_);
            forget();
            return column;
        }
        column.assign(begin(), end());
        release();
        return column;
    }
    // Frees the memory: the column is empty again.
    void release() {
        if (mapped_)
            ::munmap(data_, reserved_);
        else
            std::free(data_);
        forget();
    }
    void swap(StagingColumn& other) noexcept {
        std::swap(data_, other.data_);
        std::swap(size_, other.size_);
        std::swap(ready_, other.ready_);
        std::swap(capacity_, other.capacity_);
        std::swap(reserved_, other.reserved_);
        std::swap(mapped_, other.mapped_);
    }

private:
    static constexpr size_t kMapBytes = size_t{256} << 10;
    // A mapped column keeps this many times its size of address space to grow into (keptRange);
    // growing past it, it moves once (remapped).
    static constexpr size_t kRoomFactor = 64;
    // ThreadSanitizer does not see mremap (remapped()): under it, appended values are copied.
#if defined(__SANITIZE_THREAD__)
    static constexpr bool kMovesPages = false;
#else
    static constexpr bool kMovesPages = true;
#endif
    static constexpr size_t kPopulateBytes = size_t{64} << 10;

    static size_t pageBytes() {
        static const auto page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
        return page;
    }

    // Room for the next value: a grown column, and where it is mapped, its next
    // kPopulateBytes faulted in at once (faultInPages: where a page fault costs microseconds,
    // as in a virtual machine, one call for 16 pages costs 40 % less than 16 faults;
    // docs/performance.md, "Pages faulted in ahead").
    void makeRoom() {
        if (size_ == capacity_) grow();
        if (!mapped_) {
            ready_ = capacity_;
            return;
        }
        const size_t ahead = std::min(capacity_ - size_, std::max<size_t>(1, kPopulateBytes / sizeof(T)));
        faultInPages(data_ + size_, ahead * sizeof(T));
        ready_ = size_ + ahead;
    }

    void grow() {
        const size_t capacity = capacity_ == 0 ? 256 : capacity_ * 2;
        const size_t bytes = capacity * sizeof(T);
        if (bytes < kMapBytes) {
            void* grown = std::realloc(data_, bytes);
            if (!grown) throw std::bad_alloc();
            data_ = static_cast<T*>(grown);
        } else if (!mapped_) {
            T* const mapped = mapPages(bytes);
            if (size_ > 0) std::memcpy(mapped, data_, size_ * sizeof(T));
            std::free(data_);
            data_ = mapped;
            mapped_ = true;
        } else if (bytes <= reserved_) {
            if (::mprotect(data_ + capacity_, bytes - capacity_ * sizeof(T), PROT_READ | PROT_WRITE) != 0)
                throw std::bad_alloc();
        } else {
            data_ = remapped(bytes);
        }
        capacity_ = capacity;
    }

    // `bytes` of fresh pages, at the start of a range kept for the column to grow into (keptRange).
    T* mapPages(size_t bytes) {
        if (void* kept = keptRange(bytes)) {
            if (::mprotect(kept, bytes, PROT_READ | PROT_WRITE) == 0) return static_cast<T*>(kept);
            ::munmap(kept, reserved_);
        }
        void* pages = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (pages == MAP_FAILED) throw std::bad_alloc();
        reserved_ = bytes;
        return static_cast<T*>(pages);
    }

    // kRoomFactor times `bytes` of address space, inaccessible and neither memory nor commit charge
    // until the column grows into it (reserved_ its size); null where none is kept: under a limit
    // on the process's address space (ulimit -v), which ranges kept for growth would use up.
    void* keptRange(size_t bytes) {
        static const bool unlimited = [] {
            rlimit limit{};
            return ::getrlimit(RLIMIT_AS, &limit) == 0 && limit.rlim_cur == RLIM_INFINITY;
        }();
        if (!unlimited || bytes > SIZE_MAX / kRoomFactor) return nullptr;
        void* kept =
            ::mmap(nullptr, bytes * kRoomFactor, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (kept == MAP_FAILED) return nullptr;
        reserved_ = bytes * kRoomFactor;
        return kept;
    }

    // The mapped values moved to `bytes` of pages, past the range kept for them: into a new kept
    // range where one is kept, else just those pages. ThreadSanitizer does not see mremap: the
    // range it frees would keep its last owner's history, and another thread's column mapped there
    // later would race with it in TSan's eyes. Under TSan the move is a new map, a copy and an unmap.
    T* remapped(size_t bytes) {
#if defined(__SANITIZE_THREAD__)
        void* grown = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (grown == MAP_FAILED) throw std::bad_alloc();
        std::memcpy(grown, data_, size_ * sizeof(T));
        ::munmap(data_, reserved_);
        reserved_ = bytes;
        return static_cast<T*>(grown);
#else
        const size_t mapped = capacity_ * sizeof(T);
        if (reserved_ > mapped) ::munmap(reinterpret_cast<std::byte*>(data_) + mapped, reserved_ - mapped);
        reserved_ = mapped;
        void* grown = nullptr;
        if (void* kept = keptRange(bytes)) {
            grown = ::mremap(data_, mapped, mapped, MREMAP_MAYMOVE | MREMAP_FIXED, kept);
            if (grown == MAP_FAILED ||
                ::mprotect(static_cast<std::byte*>(kept) + mapped, bytes - mapped, PROT_READ | PROT_WRITE) != 0)
                throw std::bad_alloc();
        } else {
            grown = ::mremap(data_, mapped, bytes, MREMAP_MAYMOVE);
            if (grown == MAP_FAILED) throw std::bad_alloc();
            reserved_ = bytes;
        }
        return static_cast<T*>(grown);
#endif
    }

    // append() of two mapped columns: see there. Mapped capacities are whole pages (kMapBytes
    // and its doublings), so every size below is too.
    void appendPages(StagingColumn& tail) {
        const size_t headBytes = size_ * sizeof(T), tailBytes = tail.size_ * sizeof(T);
        const size_t shift = headBytes % pageBytes(), kept = headBytes - shift;
        while (tail.capacity_ * sizeof(T) < tailBytes + shift) tail.grow();
        auto* tailStart = reinterpret_cast<std::byte*>(tail.data_);
        std::memmove(tailStart + shift, tailStart, tailBytes);
        std::memcpy(tailStart, reinterpret_cast<const std::byte*>(data_) + kept, shift);
        const size_t tailMapped = tail.capacity_ * sizeof(T), joined = kept + tailMapped;
        if (joined > reserved_) {
            data_ = remapped(joined);
            capacity_ = joined / sizeof(T);
        }
        // tail's pages over [kept, joined) of this column's address space, which the kernel unmaps.
        if (tail.reserved_ > tailMapped)
            ::munmap(reinterpret_cast<std::byte*>(tail.data_) + tailMapped, tail.reserved_ - tailMapped);
        tail.reserved_ = tailMapped;
        void* moved = ::mremap(tail.data_, tailMapped, tailMapped, MREMAP_MAYMOVE | MREMAP_FIXED,
                               reinterpret_cast<std::byte*>(data_) + kept);
        if (moved == MAP_FAILED) throw std::bad_alloc();
        capacity_ = std::max(capacity_ * sizeof(T), joined) / sizeof(T);
        size_ += tail.size_;
        ready_ = size_;
        tail.forget();
    }

    // Empty, its memory no longer its own (freed, moved or handed over).
    void forget() {
        data_ = nullptr;
        size_ = ready_ = capacity_ = reserved_ = 0;
        mapped_ = false;
    }

    T* data_ = nullptr;
    size_t size_ = 0, capacity_ = 0;  // in values
    size_t ready_ = 0;                // values that fit before makeRoom: capacity_, or the pages faulted in
    size_t reserved_ = 0;             // mapped: the bytes of address space at data_, capacity_'s and kept room
    bool mapped_ = false;             // data_ is an mmap of reserved_ bytes, its first capacity_ values accessible
};

}  // namespace lanescope
