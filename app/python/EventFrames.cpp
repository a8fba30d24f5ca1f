#include "app/python/EventFrames.h"

#include <pybind11/numpy.h>

#include <algorithm>
#include <optional>
#include <string>

#include "app/python/Frames.h"
#include "importers/cache/OnThreads.h"

namespace py = pybind11;

namespace lanescope::python {
namespace {

static_assert(sizeof(EventKind) == 1, "the kind column is viewed as uint8");

// A read-only numpy array over n values at `data`, which `owner` keeps alive.
template <typename T>
py::array viewOf(const T* data, size_t n, const py::object& owner) {
    py::array view(py::dtype::of<T>(), {static_cast<py::ssize_t>(n)}, {static_cast<py::ssize_t>(sizeof(T))}, data,
                   owner);
    py::detail::array_proxy(view.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
    return view;
}
template <typename T, typename Allocator>
py::array viewOf(const std::vector<T, Allocator>& column, const py::object& owner) {
    return viewOf(column.data(), column.size(), owner);
}
// The kinds of `rows` events from the first of `events`, as uint8 (rows past its end: the lanes
// packed after it).
py::array kindsOf(const IntervalColumns& events, size_t rows, const py::object& owner) {
    return viewOf(reinterpret_cast<const uint8_t*>(events.kind.data()), rows, owner);
}

// A new column of n values of T, and where to write them.
template <typename T>
std::pair<py::array_t<T>, T*> newColumn(size_t n) {
    py::array_t<T> column(static_cast<py::ssize_t>(n));
    T* data = column.mutable_data();
    return {std::move(column), data};
}

// The durations in ns of the events of `lanes`, one lane after the other, the long ones put back
// in place of their marks.
py::array_t<int64_t> allDurations(const Report& report, const std::vector<uint32_t>& lanes, size_t rows) {
    auto [column, out] = newColumn<int64_t>(rows);
    py::gil_scoped_release release;
    for (const uint32_t lane : lanes) {
        const IntervalColumns& events = report.lanes[lane].events;
        std::copy(events.duration_ns.begin(), events.duration_ns.end(), out);
        for (const LongDuration& l : events.long_durations) out[l.index] = l.duration_ns;
        out += events.size();
    }
    return column;
}

// A stretch of one lane's events (or instants), [begin, end) of its columns, whose `rows` rows of
// the table go to the frame's rows from `at` on: all of its events when rows == end - begin,
// else those of the table's event kind.
struct Stretch {
    uint32_t lane = 0;
    size_t begin = 0;
    size_t end = 0;
    size_t rows = 0;
    size_t at = 0;
    bool whole() const { return rows == end - begin; }
};
// Events a stretch holds at most: enough stretches for every core, each long enough to copy fast.
constexpr size_t kStretchEvents = size_t{1} << 20;

// The rows of a table held by one lane: all of its events (or instants), or `rows` of them.
struct LanePart {
    uint32_t lane = 0;
    size_t rows = 0;  // at least 1
    bool whole = false;
};

// Where a table's rows are: its lanes cut into stretches, counted on every core (a lane of GPU
// work gives the rows of the table's kind), and placed in the frame lane by lane, each lane's
// rows in its order; and per lane giving rows, how many.
struct Placement {
    std::vector<Stretch> stretches;  // in frame order, those giving no row left out
    std::vector<LanePart> parts;     // in Report::lanes order
    size_t rows = 0;
};

Placement placeRows(const Report& report, const EventTableSpec& table) {
    const bool intervals = table.columns == EventTableSpec::Columns::Intervals;
    std::vector<Stretch> cut;
    for (const uint32_t lane : tableLanes(report, table)) {
        const Lane& l = report.lanes[lane];
        const size_t n = intervals ? l.events.size() : l.instants.size();
        for (size_t begin = 0; begin < n; begin += kStretchEvents)
            cut.push_back({lane, begin, std::min(n, begin + kStretchEvents), 0, 0});
    }
    cache::onThreads(0, cut.size(), [&](size_t, size_t i) {
        Stretch& s = cut[i];
        // A kernel lane holds kernels only: no need to count them.
        if (!table.event || (*table.event == EventKind::Kernel && isKernelLane(report.lanes[s.lane]))) {
            s.rows = s.end - s.begin;
            return;
        }
        const auto kinds = report.lanes[s.lane].events.kind.begin();
        s.rows = static_cast<size_t>(std::count(kinds + s.begin, kinds + s.end, *table.event));
    });
    Placement placed;
    for (Stretch& s : cut) {
        if (!s.rows) continue;
        s.at = placed.rows;
        placed.rows += s.rows;
        if (placed.parts.empty() || placed.parts.back().lane != s.lane) placed.parts.push_back({s.lane, 0, false});
        placed.parts.back().rows += s.rows;
        placed.stretches.push_back(s);
    }
    for (LanePart& part : placed.parts) {
        const Lane& l = report.lanes[part.lane];
        part.whole = part.rows == (intervals ? l.events.size() : l.instants.size());
    }
    return placed;
}

// Whether the part's rows hold an event of 4.29 s or more, whose duration_ns is only a mark.
bool holdsLong(const Lane& lane, const LanePart& part, std::optional<EventKind> only) {
    const auto& longs = lane.events.long_durations;
    return std::any_of(longs.begin(), longs.end(),
                       [&](const LongDuration& l) { return part.whole || lane.events.kind[l.index] == *only; });
}

// Where copied columns are written, each from the frame's row 0; null: a column the frame has not.
struct Outputs {
    int32_t* lane = nullptr;
    int64_t* start = nullptr;  // start_ns, or time_ns of instants
    uint32_t* duration32 = nullptr;
    int64_t* duration64 = nullptr;
    uint32_t* name = nullptr;
    uint32_t* payload = nullptr;
    uint8_t* kind = nullptr;
    uint8_t* depth = nullptr;
};

// The first of the columns' long durations whose event is at `index` or after.
std::vector<LongDuration>::const_iterator firstLongFrom(const IntervalColumns& e, size_t index) {
    return std::lower_bound(e.long_durations.begin(), e.long_durations.end(), index,
                            [](const LongDuration& d, size_t i) { return d.index < i; });
}

// Puts back the long durations of a whole stretch's events, copied to duration64 as their marks.
void copyLongDurations(const IntervalColumns& e, const Stretch& s, int64_t* duration64) {
    for (auto l = firstLongFrom(e, s.begin); l != e.long_durations.end() && l->index < s.end; ++l)
        duration64[s.at + (l->index - s.begin)] = l->duration_ns;
}

// Copies a whole stretch of interval events column by column.
void copyWholeIntervals(const IntervalColumns& e, const Stretch& s, const Outputs& out) {
    const size_t n = s.end - s.begin;
    std::fill_n(out.lane + s.at, n, static_cast<int32_t>(s.lane));
    std::copy_n(e.start_ns.begin() + s.begin, n, out.start + s.at);
    if (out.duration64) {
        std::copy_n(e.duration_ns.begin() + s.begin, n, out.duration64 + s.at);
        copyLongDurations(e, s, out.duration64);
    } else {
        std::copy_n(e.duration_ns.begin() + s.begin, n, out.duration32 + s.at);
    }
    std::copy_n(e.name_id.begin() + s.begin, n, out.name + s.at);
    std::copy_n(e.payload.begin() + s.begin, n, out.payload + s.at);
    if (out.kind) std::copy_n(reinterpret_cast<const uint8_t*>(e.kind.data()) + s.begin, n, out.kind + s.at);
    std::copy_n(e.depth.begin() + s.begin, n, out.depth + s.at);
}

// Copies the events of kind `only` of a stretch, row by row.
void copyIntervalsOfKind(const IntervalColumns& e, const Stretch& s, EventKind only, const Outputs& out) {
    const auto& longs = e.long_durations;
    auto l = firstLongFrom(e, s.begin);
    size_t k = s.at;
    for (size_t i = s.begin; i < s.end; ++i) {
        if (e.kind[i] != only) continue;
        out.lane[k] = static_cast<int32_t>(s.lane);
        out.start[k] = e.start_ns[i];
        if (out.duration64) {
            while (l != longs.end() && l->index < i) ++l;
            out.duration64[k] = l != longs.end() && l->index == i ? l->duration_ns : int64_t{e.duration_ns[i]};
        } else {
            out.duration32[k] = e.duration_ns[i];
        }
        out.name[k] = e.name_id[i];
        out.payload[k] = e.payload[i];
        out.depth[k] = e.depth[i];
        ++k;
    }
}

void copyInstants(const InstantColumns& instants, const Stretch& s, const Outputs& out) {
    const size_t n = s.end - s.begin;
    std::fill_n(out.lane + s.at, n, static_cast<int32_t>(s.lane));
    std::copy_n(instants.time_ns.begin() + s.begin, n, out.start + s.at);
    std::copy_n(instants.name_id.begin() + s.begin, n, out.name + s.at);
    std::copy_n(instants.payload.begin() + s.begin, n, out.payload + s.at);
}

// A table of several lanes, or of some events of a lane: every column new, filled without the
// GIL on every core, a stretch of a lane at a time.
Columns copiedColumns(const Report& report, const EventTableSpec& table, const Placement& placed, bool longs) {
    const size_t rows = placed.rows;
    const bool intervals = table.columns == EventTableSpec::Columns::Intervals;
    auto [lane, laneOut] = newColumn<int32_t>(rows);
    auto [start, startOut] = newColumn<int64_t>(rows);
    auto [name, nameOut] = newColumn<uint32_t>(rows);
    auto [payload, payloadOut] = newColumn<uint32_t>(rows);
    auto [duration32, duration32Out] = newColumn<uint32_t>(intervals && !longs ? rows : 0);
    auto [duration64, duration64Out] = newColumn<int64_t>(intervals && longs ? rows : 0);
    auto [kind, kindOut] = newColumn<uint8_t>(intervals && !table.event ? rows : 0);
    auto [depth, depthOut] = newColumn<uint8_t>(intervals ? rows : 0);
    {
        py::gil_scoped_release release;
        Outputs out{laneOut, startOut, nullptr, nullptr, nameOut, payloadOut, nullptr, nullptr};
        if (intervals) {
            if (longs)
                out.duration64 = duration64Out;
            else
                out.duration32 = duration32Out;
            out.kind = table.event ? nullptr : kindOut;
            out.depth = depthOut;
        }
        cache::onThreads(0, placed.stretches.size(), [&](size_t, size_t i) {
            const Stretch& s = placed.stretches[i];
            const Lane& l = report.lanes[s.lane];
            if (!intervals)
                copyInstants(l.instants, s, out);
            else if (s.whole())
                copyWholeIntervals(l.events, s, out);
            else
                copyIntervalsOfKind(l.events, s, *table.event, out);
        });
    }
    if (!intervals) return {{"lane", lane}, {"time_ns", start}, {"name_id", name}, {"payload", payload}};
    Columns columns{{"lane", lane}, {"start_ns", start}};
    columns.emplace_back("duration_ns", longs ? py::object(duration64) : py::object(duration32));
    columns.insert(columns.end(), {{"name_id", name}, {"payload", payload}});
    if (!table.event) columns.emplace_back("kind", kind);
    columns.emplace_back("depth", depth);
    return columns;
}

// Whether `b`'s elements begin where `a`'s end.
template <typename Column>
bool follows(const Column& a, const Column& b) {
    return a.data() + a.size() == b.data();
}

// Whether the parts are whole lanes whose every column follows the one of the lane before in
// memory, so that each column of the table is one block: one lane, or the kernel lanes, which the
// import packs so (importers/KernelLanes.h).
bool inOneBlock(const Report& report, const std::vector<LanePart>& parts, EventTableSpec::Columns columns) {
    for (size_t k = 0; k < parts.size(); ++k) {
        if (!parts[k].whole) return false;
        if (k == 0) continue;
        const Lane& a = report.lanes[parts[k - 1].lane];
        const Lane& b = report.lanes[parts[k].lane];
        const bool together =
            columns == EventTableSpec::Columns::Instants
                ? follows(a.instants.time_ns, b.instants.time_ns) && follows(a.instants.name_id, b.instants.name_id) &&
                      follows(a.instants.payload, b.instants.payload)
                : follows(a.events.start_ns, b.events.start_ns) &&
                      follows(a.events.duration_ns, b.events.duration_ns) &&
                      follows(a.events.name_id, b.events.name_id) && follows(a.events.payload, b.events.payload) &&
                      follows(a.events.kind, b.events.kind) && follows(a.events.depth, b.events.depth);
        if (!together) return false;
    }
    return true;
}

const Lane& laneAt(const Report& report, size_t lane) {
    if (lane >= report.lanes.size())
        throw py::index_error("lane " + std::to_string(lane) + " out of range: the report has " +
                              std::to_string(report.lanes.size()) + " lanes");
    return report.lanes[lane];
}

}  // namespace

py::object laneEventsFrame(const py::object& owner, const Report& report, size_t lane) {
    const IntervalColumns& e = laneAt(report, lane).events;
    return dataFrame({{"start_ns", viewOf(e.start_ns, owner)},
                      {"duration_ns", e.long_durations.empty()
                                          ? py::object(viewOf(e.duration_ns, owner))
                                          : py::object(allDurations(report, {static_cast<uint32_t>(lane)}, e.size()))},
                      {"name_id", viewOf(e.name_id, owner)},
                      {"payload", viewOf(e.payload, owner)},
                      {"kind", kindsOf(e, e.size(), owner)},
                      {"depth", viewOf(e.depth, owner)}});
}

py::object laneInstantsFrame(const py::object& owner, const Report& report, size_t lane) {
    const InstantColumns& i = laneAt(report, lane).instants;
    return dataFrame({{"time_ns", viewOf(i.time_ns, owner)},
                      {"name_id", viewOf(i.name_id, owner)},
                      {"payload", viewOf(i.payload, owner)}});
}

py::object eventsFrame(const py::object& owner, const Report& report, const EventTableSpec& table) {
    Placement placed;
    bool longs = false;
    {
        py::gil_scoped_release release;
        placed = placeRows(report, table);
        for (const LanePart& part : placed.parts)
            longs = longs || (table.columns == EventTableSpec::Columns::Intervals &&
                              holdsLong(report.lanes[part.lane], part, table.event));
    }
    const std::vector<LanePart>& parts = placed.parts;
    if (parts.empty() || !inOneBlock(report, parts, table.columns))
        return dataFrame(copiedColumns(report, table, placed, longs));
    // Whole lanes whose columns follow one another: each column one view from the first lane's,
    // and the lanes' indexes beside them.
    const size_t rows = placed.rows;
    std::vector<uint32_t> lanes;
    for (const LanePart& part : parts) lanes.push_back(part.lane);
    auto [lane, laneOut] = newColumn<int32_t>(rows);
    {  // filled a stretch at a time on every core: the column is new memory, its first touch the cost
        py::gil_scoped_release release;
        int32_t* const laneColumn = laneOut;
        cache::onThreads(0, placed.stretches.size(), [&](size_t, size_t i) {
            const Stretch& s = placed.stretches[i];
            std::fill_n(laneColumn + s.at, s.rows, static_cast<int32_t>(s.lane));
        });
    }
    const Lane& l = report.lanes[parts.front().lane];
    if (table.columns == EventTableSpec::Columns::Instants)
        return dataFrame({{"lane", lane},
                          {"time_ns", viewOf(l.instants.time_ns.data(), rows, owner)},
                          {"name_id", viewOf(l.instants.name_id.data(), rows, owner)},
                          {"payload", viewOf(l.instants.payload.data(), rows, owner)}});
    const IntervalColumns& e = l.events;
    Columns columns{{"lane", lane}, {"start_ns", viewOf(e.start_ns.data(), rows, owner)}};
    columns.emplace_back("duration_ns", longs ? py::object(allDurations(report, lanes, rows))
                                              : py::object(viewOf(e.duration_ns.data(), rows, owner)));
    columns.insert(columns.end(), {{"name_id", viewOf(e.name_id.data(), rows, owner)},
                                   {"payload", viewOf(e.payload.data(), rows, owner)}});
    if (!table.event) columns.emplace_back("kind", kindsOf(e, rows, owner));
    columns.emplace_back("depth", viewOf(e.depth.data(), rows, owner));
    return dataFrame(columns);
}

py::object lanesFrame(const Report& report) {
    const size_t n = report.lanes.size();
    auto column = [&](auto value) {
        using T = decltype(value(report.lanes.front()));
        auto [array, out] = newColumn<T>(n);
        for (size_t i = 0; i < n; ++i) out[i] = value(report.lanes[i]);
        return array;
    };
    auto owner = [](int32_t index, const auto& table, auto field) -> int64_t {
        return index >= 0 && static_cast<size_t>(index) < table.size() ? field(table[static_cast<size_t>(index)]) : -1;
    };
    py::list kinds, names;
    for (const Lane& l : report.lanes) {
        kinds.append(py::str(std::string(laneKindName(l.kind))));
        names.append(py::str(std::string(report.str(l.name_id))));
    }
    auto lanes = newColumn<int32_t>(n);
    for (size_t i = 0; i < n; ++i) lanes.second[i] = static_cast<int32_t>(i);
    return dataFrame(
        {{"lane", lanes.first},
         {"kind", kinds},
         {"name", names},
         {"pid", column([&](const Lane& l) {
              const int32_t process = l.thread >= 0 && static_cast<size_t>(l.thread) < report.threads.size()
                                          ? report.threads[static_cast<size_t>(l.thread)].process
                                          : l.process;
              return owner(process, report.processes, [](const Process& p) { return p.pid; });
          })},
         {"tid", column([&](const Lane& l) {
              return owner(l.thread, report.threads, [](const Thread& t) { return t.tid; });
          })},
         {"gpu",
          column([&](const Lane& l) { return owner(l.gpu, report.gpus, [](const Gpu& g) { return g.device_id; }); })},
         {"stream", column([](const Lane& l) { return l.stream_id; })},
         {"cpu", column([](const Lane& l) { return int64_t{l.cpu}; })},
         {"events", column([](const Lane& l) { return static_cast<uint64_t>(l.events.size()); })},
         {"instants", column([](const Lane& l) { return static_cast<uint64_t>(l.instants.size()); })}});
}

}  // namespace lanescope::python
