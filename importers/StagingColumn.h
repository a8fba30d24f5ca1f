#pragma once
// A column an importer appends to before the model's columns are sized: trivially copyable
// values in arrival order. Small columns live in malloc'd memory; from 256 KiB on, in pages of
// their own that the kernel moves when the column grows (mremap), so growth neither copies
// the values nor touches their pages again, as a std::vector's doubling does.
#include <sys/mman.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
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
    // Frees the memory: the column is empty again.
    void release() {
        if (mapped_)
            ::munmap(data_, capacity_ * sizeof(T));
        else
            std::free(data_);
        data_ = nullptr;
        size_ = ready_ = capacity_ = 0;
        mapped_ = false;
    }
    void swap(StagingColumn& other) noexcept {
        std::swap(data_, other.data_);
        std::swap(size_, other.size_);
        std::swap(ready_, other.ready_);
        std::swap(capacity_, other.capacity_);
        std::swap(mapped_, other.mapped_);
    }

private:
    static constexpr size_t kMapBytes = size_t{256} << 10;
    static constexpr size_t kPopulateBytes = size_t{64} << 10;

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
        void* grown = nullptr;
        if (bytes < kMapBytes) {
            grown = std::realloc(data_, bytes);
            if (!grown) throw std::bad_alloc();
        } else if (!mapped_) {
            grown = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
            if (grown == MAP_FAILED) throw std::bad_alloc();
            if (size_ > 0) std::memcpy(grown, data_, size_ * sizeof(T));
            std::free(data_);
            mapped_ = true;
        } else {
            grown = remapped(bytes);
        }
        data_ = static_cast<T*>(grown);
        capacity_ = capacity;
    }

    // The mapped values moved to `bytes` of pages. ThreadSanitizer does not see mremap: the range it
    // frees would keep its last owner's history, and another thread's column mapped there later
    // would race with it in TSan's eyes. Under TSan the move is a new map, a copy and an unmap.
    void* remapped(size_t bytes) {
#if defined(__SANITIZE_THREAD__)
        void* grown = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (grown == MAP_FAILED) throw std::bad_alloc();
        std::memcpy(grown, data_, size_ * sizeof(T));
        ::munmap(data_, capacity_ * sizeof(T));
#else
        void* grown = ::mremap(data_, capacity_ * sizeof(T), bytes, MREMAP_MAYMOVE);
        if (grown == MAP_FAILED) throw std::bad_alloc();
#endif
        return grown;
    }

    T* data_ = nullptr;
    size_t size_ = 0, capacity_ = 0;  // in values
    size_t ready_ = 0;                // values that fit before makeRoom: capacity_, or the pages faulted in
    bool mapped_ = false;             // data_ is an mmap of capacity_ values, else malloc'd
};

}  // namespace lanescope
