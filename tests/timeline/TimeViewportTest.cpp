#include <catch2/catch.hpp>

#include "timeline/TimeViewport.h"

using lanescope::TimeViewport;

TEST_CASE("TimeViewport zooms around the anchor and stays inside the whole span") {
    TimeViewport v;
    v.setWhole(1000, 11000);
    CHECK(v.visibleBegin() == 1000);
    CHECK(v.visibleEnd() == 11000);
    v.zoom(2.0, 3000);  // anchor at 20% of the view stays at 20%
    CHECK(v.visibleSpan() == 5000);
    CHECK(v.visibleBegin() == 2000);
    v.pan(-100000);
    CHECK(v.visibleBegin() == 1000);
    v.pan(100000);
    CHECK(v.visibleEnd() == 11000);
    v.zoom(0.01, 5000);  // zooming out past everything shows everything
    CHECK(v.visibleBegin() == 1000);
    CHECK(v.visibleEnd() == 11000);
    v.zoom(1e9, 5000);  // never narrower than the minimum span
    CHECK(v.visibleSpan() == TimeViewport::kMinSpanNs);
    v.fitAll();
    CHECK(v.visibleSpan() == 10000);
}
