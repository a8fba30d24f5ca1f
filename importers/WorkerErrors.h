#pragma once
// Exceptions of worker threads carried back to the thread that joins them: an exception that
// escaped a std::jthread would end the whole program (std::terminate), a std::bad_alloc in a
// scan of a huge table included.
#include <exception>
#include <mutex>
#include <utility>

namespace lanescope {

// The first exception any guarded job threw; rethrow() raises it on the joining thread.
class WorkerErrors {
public:
    // `job` wrapped so that what it throws is kept here instead of escaping its thread.
    template <class Job>
    auto guard(Job job) {
        return [this, job = std::move(job)] {
            try {
                job();
            } catch (...) {
                std::lock_guard lock(mutex_);
                if (!first_) first_ = std::current_exception();
            }
        };
    }
    // Call after every guarded job has ended.
    void rethrow() const {
        if (first_) std::rethrow_exception(first_);
    }

private:
    std::mutex mutex_;
    std::exception_ptr first_;
};

}  // namespace lanescope
