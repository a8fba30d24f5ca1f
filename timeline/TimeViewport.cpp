#include "timeline/TimeViewport.h"

#include <algorithm>
#include <cmath>

namespace lanescope {

void TimeViewport::setWhole(int64_t begin_ns, int64_t end_ns) {
    wholeBegin_ = begin_ns;
    wholeEnd_ = std::max(end_ns, begin_ns + kMinSpanNs);
    setVisible(wholeBegin_, wholeEnd_);
}

void TimeViewport::setVisible(int64_t begin_ns, int64_t end_ns) {
    const int64_t wholeSpan = wholeEnd_ - wholeBegin_;
    int64_t span = std::clamp(end_ns - begin_ns, std::min(kMinSpanNs, wholeSpan), wholeSpan);
    const int64_t begin = std::clamp(begin_ns, wholeBegin_, wholeEnd_ - span);
    visibleBegin_ = begin;
    visibleEnd_ = begin + span;
}

void TimeViewport::zoom(double factor, int64_t anchor_ns) {
    if (!(factor > 0) || !std::isfinite(factor)) return;
    const double fraction = visibleSpan() > 0 ? double(anchor_ns - visibleBegin_) / double(visibleSpan()) : 0.5;
    const auto span = static_cast<int64_t>(std::llround(double(visibleSpan()) / factor));
    const auto begin = anchor_ns - static_cast<int64_t>(std::llround(fraction * double(span)));
    setVisible(begin, begin + std::max<int64_t>(span, 1));
}

void TimeViewport::pan(int64_t delta_ns) { setVisible(visibleBegin_ + delta_ns, visibleEnd_ + delta_ns); }

}  // namespace lanescope
