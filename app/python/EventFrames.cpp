#include "app/python/EventFrames.h"

#include <pybind11/numpy.h>

#include <algorithm>
#include <string>

#include "app/python/Frames.h"

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
py::array kindsOf(const IntervalColumns& events, const py::object& owner) {
    return viewOf(reinterpret_cast<const uint8_t*>(events.kind.data()), events.size(), owner);
}

// Whether the part holds an event of 4.29 s or more, whose duration_ns is only a mark.
bool holdsLong(const Lane& lane, const LanePart& part) {
    const auto& longs = lane.events.long_durations;
    if (part.whole || longs.empty()) return !longs.empty();
    return std::any_of(longs.begin(), longs.end(), [&](const LongDuration& l) {
        return std::binary_search(part.rows.begin(), part.rows.end(), l.index);
    });
}

// out[k] = column[the part's k-th row], for a column of n values.
template <typename T, typename S>
void gather(T* out, const S* column, size_t n, const LanePart& part) {
    if (part.whole) {
        std::copy(column, column + n, out);
        return;
    }
    for (size_t k = 0; k < part.rows.size(); ++k) out[k] = column[part.rows[k]];
}
template <typename T, typename S, typename Allocator>
void gather(T* out, const std::vector<S, Allocator>& column, const LanePart& part) {
    gather(out, column.data(), column.size(), part);
}

// The part's durations in ns, the long ones put back in place of their marks.
void gatherDurations(int64_t* out, const IntervalColumns& events, const LanePart& part) {
    gather(out, events.duration_ns, part);
    for (const LongDuration& l : events.long_durations) {
        if (part.whole) {
            out[l.index] = l.duration_ns;
            continue;
        }
        const auto at = std::lower_bound(part.rows.begin(), part.rows.end(), l.index);
        if (at != part.rows.end() && *at == l.index) out[at - part.rows.begin()] = l.duration_ns;
    }
}

// A new column of n values of T, and where to write them.
template <typename T>
std::pair<py::array_t<T>, T*> newColumn(size_t n) {
    py::array_t<T> column(static_cast<py::ssize_t>(n));
    T* data = column.mutable_data();
    return {std::move(column), data};
}

py::array_t<int64_t> allDurations(const IntervalColumns& events) {
    auto [column, out] = newColumn<int64_t>(events.size());
    py::gil_scoped_release release;
    gatherDurations(out, events, LanePart{0, true, {}});
    return column;
}

// A table of several lanes, or of some events of a lane: every column new, filled without the GIL.
Columns copiedColumns(const Report& report, const EventTableSpec& table, const std::vector<LanePart>& parts,
                      size_t rows, bool longs) {
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
        size_t at = 0;
        for (const LanePart& part : parts) {
            const Lane& l = report.lanes[part.lane];
            const size_t n = part.size(report, table.columns);
            std::fill_n(laneOut + at, n, static_cast<int32_t>(part.lane));
            if (!intervals) {
                gather(startOut + at, l.instants.time_ns, part);
                gather(nameOut + at, l.instants.name_id, part);
                gather(payloadOut + at, l.instants.payload, part);
                at += n;
                continue;
            }
            gather(startOut + at, l.events.start_ns, part);
            if (longs)
                gatherDurations(duration64Out + at, l.events, part);
            else
                gather(duration32Out + at, l.events.duration_ns, part);
            gather(nameOut + at, l.events.name_id, part);
            gather(payloadOut + at, l.events.payload, part);
            if (!table.event)
                gather(kindOut + at, reinterpret_cast<const uint8_t*>(l.events.kind.data()), l.events.size(), part);
            gather(depthOut + at, l.events.depth, part);
            at += n;
        }
    }
    if (!intervals) return {{"lane", lane}, {"time_ns", start}, {"name_id", name}, {"payload", payload}};
    Columns columns{{"lane", lane}, {"start_ns", start}};
    columns.emplace_back("duration_ns", longs ? py::object(duration64) : py::object(duration32));
    columns.insert(columns.end(), {{"name_id", name}, {"payload", payload}});
    if (!table.event) columns.emplace_back("kind", kind);
    columns.emplace_back("depth", depth);
    return columns;
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
                      {"duration_ns", e.long_durations.empty() ? py::object(viewOf(e.duration_ns, owner))
                                                               : py::object(allDurations(e))},
                      {"name_id", viewOf(e.name_id, owner)},
                      {"payload", viewOf(e.payload, owner)},
                      {"kind", kindsOf(e, owner)},
                      {"depth", viewOf(e.depth, owner)}});
}

py::object laneInstantsFrame(const py::object& owner, const Report& report, size_t lane) {
    const InstantColumns& i = laneAt(report, lane).instants;
    return dataFrame({{"time_ns", viewOf(i.time_ns, owner)},
                      {"name_id", viewOf(i.name_id, owner)},
                      {"payload", viewOf(i.payload, owner)}});
}

py::object eventsFrame(const py::object& owner, const Report& report, const EventTableSpec& table) {
    std::vector<LanePart> parts;
    size_t rows = 0;
    bool longs = false;
    {
        py::gil_scoped_release release;
        parts = tableParts(report, table);
        for (const LanePart& part : parts) {
            rows += part.size(report, table.columns);
            longs = longs ||
                    (table.columns == EventTableSpec::Columns::Intervals && holdsLong(report.lanes[part.lane], part));
        }
    }
    if (parts.size() != 1 || !parts.front().whole) return dataFrame(copiedColumns(report, table, parts, rows, longs));
    // The whole of one lane: its columns as they are, and the lane's index beside them.
    const uint32_t index = parts.front().lane;
    const Lane& l = report.lanes[index];
    auto [lane, laneOut] = newColumn<int32_t>(rows);
    std::fill_n(laneOut, rows, static_cast<int32_t>(index));
    if (table.columns == EventTableSpec::Columns::Instants)
        return dataFrame({{"lane", lane},
                          {"time_ns", viewOf(l.instants.time_ns, owner)},
                          {"name_id", viewOf(l.instants.name_id, owner)},
                          {"payload", viewOf(l.instants.payload, owner)}});
    const IntervalColumns& e = l.events;
    Columns columns{{"lane", lane}, {"start_ns", viewOf(e.start_ns, owner)}};
    columns.emplace_back("duration_ns", longs ? py::object(allDurations(e)) : py::object(viewOf(e.duration_ns, owner)));
    columns.insert(columns.end(), {{"name_id", viewOf(e.name_id, owner)}, {"payload", viewOf(e.payload, owner)}});
    if (!table.event) columns.emplace_back("kind", kindsOf(e, owner));
    columns.emplace_back("depth", viewOf(e.depth, owner));
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
