#pragma once
#include <pybind11/pybind11.h>

#include <cstddef>

#include "app/python/EventTables.h"
#include "model/Report.h"

namespace lanescope::python {

// The frames of a report's events, made of the lanes' columns (model/Lane.h). `owner` is the
// Python Report object holding `report`: each numpy array that views the model's memory keeps
// it alive as the array's base, so the array stays valid after the caller drops the report.
// Views are read-only (the model never changes); .copy() one to change it.
//
// A lane's columns, viewed in place, no copy: start_ns int64, duration_ns uint32, name_id
// uint32 (Report.strings()), payload uint32, kind uint8 (EventKind), depth uint8. Except
// duration_ns, made int64 (a copy) in a lane holding an event of 4.29 s or more, whose
// duration the model keeps apart (IntervalColumns::long_durations). Sorted by start_ns.
pybind11::object laneEventsFrame(const pybind11::object& owner, const Report& report, size_t lane);
// A lane's instants, viewed in place: time_ns int64, name_id uint32, payload uint32. Sorted by
// time_ns.
pybind11::object laneInstantsFrame(const pybind11::object& owner, const Report& report, size_t lane);

// One table of eventTables(): lane int32 (index into Report.lanes()), then the columns above
// without kind (the table's own; the nccl table keeps it). Rows lane by lane, each lane's in
// start order. The columns view the model when the table is the whole of one lane; else they
// are new arrays, filled on every core without the GIL (the lanes' columns are separate
// vectors, and a lane of GPU work mixes kernels and copies). lane is always a new array.
pybind11::object eventsFrame(const pybind11::object& owner, const Report& report, const EventTableSpec& table);

// The lanes, one row each in Report::lanes order: lane, kind (its name), name, pid, tid, gpu (CUDA
// device id), stream (CUDA stream id), cpu (core), events, instants; -1 where it does not apply.
pybind11::object lanesFrame(const Report& report);

}  // namespace lanescope::python
