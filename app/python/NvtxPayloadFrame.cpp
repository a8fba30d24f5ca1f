#include "app/python/NvtxPayloadFrame.h"

#include <pybind11/numpy.h>

#include <algorithm>
#include <string>
#include <vector>

#include "app/python/Frames.h"
#include "model/NvtxPayloadDecoder.h"

namespace py = pybind11;

namespace lanescope::python {
namespace {

// One row of the frame, its texts owned here until they become Python strings.
struct PayloadRow {
    int64_t start = 0, end = 0;
    uint32_t name = 0;  // the event's name, into Report::strings
    std::string field, value;
};

std::vector<PayloadRow> payloadRows(const Report& r) {
    std::vector<PayloadRow> rows;
    const auto& payloads = r.nvtx_payloads.rows;
    for (size_t k = 0; k < payloads.size(); ++k) {
        const NvtxPayloadRow& p = payloads[k];
        const Lane& lane = r.lanes[p.lane];
        if (lane.kind != LaneKind::Nvtx && lane.kind != LaneKind::NvtxStartEnd) continue;  // a copy
        if (k > 0 && std::tie(p.lane, p.mark, p.event) ==
                         std::tie(payloads[k - 1].lane, payloads[k - 1].mark, payloads[k - 1].event))
            continue;  // an event's payloads come together: decoded with its first
        const int64_t start = p.mark ? lane.instants.time_ns[p.event] : lane.events.start_ns[p.event];
        const int64_t end = p.mark ? start : lane.events.endNs(p.event);
        const uint32_t name = p.mark ? lane.instants.name_id[p.event] : lane.events.name_id[p.event];
        const auto fields = p.mark ? nvtxMarkPayloadFields(r, p.lane, p.event) : nvtxPayloadFields(r, p.lane, p.event);
        for (const NvtxPayloadField& f : fields) rows.push_back({start, end, name, f.name, f.text});
    }
    std::stable_sort(rows.begin(), rows.end(),
                     [](const PayloadRow& a, const PayloadRow& b) { return a.start < b.start; });
    return rows;
}

}  // namespace

py::object nvtxPayloadsFrame(const Report& report) {
    std::vector<PayloadRow> rows;
    {
        py::gil_scoped_release release;
        rows = payloadRows(report);
    }
    const auto n = static_cast<py::ssize_t>(rows.size());
    py::array_t<int64_t> start(n), end(n);
    py::list name(rows.size()), field(rows.size()), value(rows.size());
    for (size_t i = 0; i < rows.size(); ++i) {
        start.mutable_at(i) = rows[i].start;
        end.mutable_at(i) = rows[i].end;
        const std::string_view text = report.str(rows[i].name);
        name[i] = py::str(text.data(), text.size());
        field[i] = py::str(rows[i].field);
        value[i] = py::str(rows[i].value);
    }
    return dataFrame({{"start_ns", start}, {"end_ns", end}, {"name", name}, {"field", field}, {"value", value}});
}

}  // namespace lanescope::python
