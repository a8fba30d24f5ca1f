#pragma once
#include <cstdint>

namespace lanescope {

// The time window every view follows: whole report span >= visible range. All times are
// integer nanoseconds on the report's timeline. The visible range always lies inside the
// whole span and is at least kMinSpanNs wide.
class TimeViewport {
public:
    static constexpr int64_t kMinSpanNs = 100;

    void setWhole(int64_t begin_ns, int64_t end_ns);
    void setVisible(int64_t begin_ns, int64_t end_ns);
    // Zooms by `factor` (> 1 zooms in) keeping the time under `anchor_ns` fixed.
    void zoom(double factor, int64_t anchor_ns);
    // Moves the visible range by `delta_ns`, stopping at the ends of the whole span.
    void pan(int64_t delta_ns);
    void fitAll() { setVisible(wholeBegin_, wholeEnd_); }

    int64_t wholeBegin() const { return wholeBegin_; }
    int64_t wholeEnd() const { return wholeEnd_; }
    int64_t visibleBegin() const { return visibleBegin_; }
    int64_t visibleEnd() const { return visibleEnd_; }
    int64_t visibleSpan() const { return visibleEnd_ - visibleBegin_; }

private:
    int64_t wholeBegin_ = 0, wholeEnd_ = kMinSpanNs;
    int64_t visibleBegin_ = 0, visibleEnd_ = kMinSpanNs;
};

}  // namespace lanescope
