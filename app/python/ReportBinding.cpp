// lanescope.Report: info(), stats(), analyze(), sql(), events(), critical_path(), collectives(),
// nvtx_payloads() and the lanes of one report.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <utility>

#include "analysis/Registry.h"
#include "analysis/critical_path/CriticalPath.h"
#include "app/cli/ReportInfo.h"
#include "app/python/Bindings.h"
#include "app/python/EventFrames.h"
#include "app/python/EventTables.h"
#include "app/python/Frames.h"
#include "app/python/NvtxPayloadFrame.h"
#include "app/python/OpenedReport.h"

namespace py = pybind11;

namespace lanescope::python {
namespace {

py::object jsonValue(const std::string& json) { return py::module_::import("json").attr("loads")(json); }

// range=(start_ns, end_ns) as stats --range START_NS:END_NS takes it; None: the whole report.
TimeRange timeRange(const std::optional<std::pair<int64_t, int64_t>>& range) {
    if (!range) return TimeRange::all();
    if (range->first > range->second) throw py::value_error("range wants (start_ns, end_ns) with start_ns <= end_ns");
    return {range->first, range->second};
}

py::object stats(const OpenedReport& r, const std::string& name,
                 const std::optional<std::pair<int64_t, int64_t>>& range) {
    const StatsRequest request = parseStatsRequest(name);
    if (!request.error.empty()) throw py::value_error(request.error);
    const TimeRange span = timeRange(range);
    StatsTable table;
    {
        py::gil_scoped_release release;
        table = request.entry->compute(r.model(), span, request.options);
    }
    return statsFrame(table);
}

py::object analyze(const OpenedReport& r, const std::string& name, const py::kwargs& options) {
    const RuleEntry* rule = findRule(name);
    if (!rule) throw py::value_error("unknown rule " + name);
    RuleOptions values;
    for (const auto& [option, value] : options) values.values[py::str(option)] = py::str(value);
    StatsTable table;
    {
        py::gil_scoped_release release;
        table = rule->run(r.model(), values).table;  // std::invalid_argument: a ValueError
    }
    return statsFrame(table);
}

py::object sqlQuery(OpenedReport& r, const std::string& query) {
    sql::SqlResult result;
    {
        py::gil_scoped_release release;
        result = r.query(query);
    }
    return sqlFrame(result);
}

py::object events(const py::object& self, const std::string& name) {
    const EventTableSpec* table = findEventTable(name);
    if (!table) {
        std::string names;
        for (const EventTableSpec& t : eventTables()) names += (names.empty() ? "" : ", ") + std::string(t.name);
        throw py::value_error("unknown table " + name + " (tables: " + names + ")");
    }
    return eventsFrame(self, self.cast<const OpenedReport&>().model(), *table);
}

// The critical path's segments (docs/analyses.md): range=(start_ns, end_ns), or step=N (the Nth step
// as the Ranks panel counts steps); neither: the whole report. One row per segment, in time order.
py::object criticalPath(const OpenedReport& r, const std::optional<std::pair<int64_t, int64_t>>& range,
                        const std::optional<int64_t>& step) {
    if (range && step) throw py::value_error("give range or step, not both");
    CriticalPathOptions options;
    if (range) {
        if (range->first > range->second)
            throw py::value_error("range wants (start_ns, end_ns) with start_ns <= end_ns");
        options.range = *range;
    }
    if (step) {
        const std::optional<OwnedRange> owned = stepOwnedRange(r.model(), *step);
        if (!owned) throw py::value_error("the report has no step " + std::to_string(*step));
        options.range = std::pair(owned->begin_ns, owned->end_ns);
        options.owner_thread = owned->thread;
    }
    CriticalPath path;
    {
        py::gil_scoped_release release;
        path = computeCriticalPath({&r.model()}, options);  // std::invalid_argument: a ValueError
    }
    const PathSegments& s = path.segments;
    const size_t n = s.size();
    py::array_t<int64_t> start(static_cast<py::ssize_t>(n)), end(static_cast<py::ssize_t>(n)),
        duration(static_cast<py::ssize_t>(n)), lane(static_cast<py::ssize_t>(n)), event(static_cast<py::ssize_t>(n));
    py::list category(n), name(n), label(n);
    for (size_t i = 0; i < n; ++i) {
        start.mutable_at(i) = s.start_ns[i];
        end.mutable_at(i) = s.end_ns[i];
        duration.mutable_at(i) = s.end_ns[i] - s.start_ns[i];
        lane.mutable_at(i) = s.lane[i];
        event.mutable_at(i) = s.event[i];
        const std::string_view c = pathCategoryName(s.category[i]);
        category[i] = py::str(c.data(), c.size());
        const std::string_view text = segmentName({&r.model()}, path, i);
        name[i] = py::str(text.data(), text.size());
        label[i] = path.lane_labels[s.lane_label[i]];
    }
    return dataFrame({{"start_ns", start},
                      {"end_ns", end},
                      {"duration_ns", duration},
                      {"category", category},
                      {"name", name},
                      {"lane", label},
                      {"lane_index", lane},
                      {"event_index", event}});
}

// Every NCCL collective (docs/analyses.md, "Communication"), as the COLLECTIVES table holds it:
// unknown sizes, ranks and bandwidths as missing values.
py::object collectives(OpenedReport& r) {
    sql::SqlResult result;
    {
        py::gil_scoped_release release;
        result = r.query(
            "SELECT operation, communicator, ranks, sizeBytes AS size_bytes, start AS start_ns, end AS end_ns, "
            "duration AS duration_ns, algbwGBps AS algbw_gbps, busbwGBps AS busbw_gbps, laneId AS lane_index, "
            "eventIndex AS event_index FROM COLLECTIVES ORDER BY collective");
    }
    return sqlFrame(result);
}

}  // namespace

void bindReport(py::module_& m) {
    py::class_<OpenedReport>(m, "Report", "One report, as lanescope.open() returns it (docs/python.md).")
        .def_property_readonly(
            "path", [](const OpenedReport& r) { return r.model().meta.source_path; }, "The file it was read from.")
        .def_property_readonly(
            "from_cache", [](const OpenedReport& r) { return r.fromCache(); },
            "Whether open(..., cache=True) read it back from its saved model instead of importing it.")
        .def(
            "info",
            [](const OpenedReport& r) {
                std::string json;
                {
                    py::gil_scoped_release release;
                    json = cli::infoJson(r.model());
                }
                return jsonValue(json);
            },
            "`lanescope-cli info --format json` as a dict.")
        .def("stats", &stats, py::arg("name"), py::arg("range") = py::none(),
             "One `nsys stats` report (`lanescope.stats_reports()`; options after the name as on the command\n"
             "line, 'cuda_gpu_kern_sum:base') as a DataFrame with the columns of `lanescope-cli stats --format\n"
             "csv`, numbers as printed there. range: (start_ns, end_ns), the events lying wholly inside.")
        .def("analyze", &analyze, py::arg("rule"),
             "One rule (`lanescope.rules()`) with its options as keywords, analyze(\"gpu_gaps\", gap=1), as a\n"
             "DataFrame with the columns of `lanescope-cli analyze --format csv` (no rows: nothing found).")
        .def("sql", &sqlQuery, py::arg("query"),
             "The result of an SQL query (SQLite's dialect) over the report's tables, named as in Nsight\n"
             "Systems' SQLite export (docs/sql.md), as a DataFrame.")
        .def("events", &events, py::arg("table"),
             "The events of one kind (`lanescope.event_tables`) from every lane, lane by lane, as a DataFrame:\n"
             "views of the model's columns when one lane holds them all, else new arrays (docs/python.md).")
        .def("critical_path", &criticalPath, py::arg("range") = py::none(), py::arg("step") = py::none(),
             "The critical path (docs/analyses.md) of range=(start_ns, end_ns), of step=N (the Nth step as the\n"
             "Ranks panel counts them), or of the whole report, as a DataFrame of its segments in time order:\n"
             "start_ns, end_ns, duration_ns, category, name, lane (its label), lane_index and event_index (-1\n"
             "for a gap), as `lanescope-cli critical-path --format csv` lists them.")
        .def("collectives", &collectives,
             "Every NCCL collective (docs/analyses.md, \"Communication\"), a row per NCCL kernel in start order:\n"
             "operation, communicator, ranks, size_bytes, start_ns, end_ns, duration_ns, algbw_gbps, busbw_gbps\n"
             "(GB/s, 1e9 bytes a second), lane_index, event_index; missing where the report records no size.")
        .def(
            "nvtx_payloads", [](const OpenedReport& r) { return nvtxPayloadsFrame(r.model()); },
            "The NVTX extended payloads (NCCL's communicator, message size, reduction, ...) decoded, one row\n"
            "per field of each NVTX range or mark carrying one, in start order, as a DataFrame: start_ns,\n"
            "end_ns, name (the range's), field, value (text; a damaged payload is one field 'bytes' in hex).")
        .def(
            "lane_events",
            [](const py::object& self, size_t lane) {
                return laneEventsFrame(self, self.cast<const OpenedReport&>().model(), lane);
            },
            py::arg("lane"),
            "The interval events of one lane (an index of lanes()) as read-only views of the model's\n"
            "columns, no copy; they keep the report alive.")
        .def(
            "lane_instants",
            [](const py::object& self, size_t lane) {
                return laneInstantsFrame(self, self.cast<const OpenedReport&>().model(), lane);
            },
            py::arg("lane"), "The instants of one lane as read-only views of the model's columns, no copy.")
        .def(
            "lanes", [](const OpenedReport& r) { return lanesFrame(r.model()); },
            "The lanes (timeline rows) with their owners and event counts, as a DataFrame.")
        .def(
            "strings",
            [](const OpenedReport& r) {
                const StringPool& pool = r.model().strings;
                py::list out(pool.size());
                for (uint32_t id = 0; id < pool.size(); ++id) {
                    const std::string_view s = pool.str(id);
                    out[id] = py::str(s.data(), s.size());
                }
                return out;
            },
            "The report's strings by id: what the name_id columns index.")
        .def("__repr__", [](const OpenedReport& r) {
            return "<lanescope.Report " + r.model().meta.source_path + " (" + r.model().meta.format + ")>";
        });
}

}  // namespace lanescope::python
