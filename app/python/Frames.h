#pragma once
#include <pybind11/pybind11.h>

#include <string>
#include <utility>
#include <vector>

#include "analysis/StatsTable.h"
#include "query/ReportSql.h"

namespace lanescope::python {

// Named columns (numpy arrays, pandas arrays or lists), in the order a frame shows them.
using Columns = std::vector<std::pair<std::string, pybind11::object>>;

// pandas.DataFrame of the columns as they are: copy=False, so an array that views a report's
// memory stays a view (pandas 1.5 and later keep each column as its own block then).
pybind11::object dataFrame(const Columns& columns);

// A statistics or rule table as the frame pandas.read_csv makes of its CSV (`lanescope-cli
// stats --format csv`): the CSV's header; a column of integers int64; of numbers float64, each
// value as printed (rounded to the CSV's decimals); else objects (str, int, float). An empty
// cell (nsys prints nothing there) is NaN, so a column of integers with one is float64. No
// rows: the header alone.
pybind11::object statsFrame(const StatsTable& table);

// A query's result: per column int64 when every cell is an integer; pandas' nullable Int64
// when integers and NULLs; float64 when reals (and integers) with NULL as NaN; else objects
// (str, int, float, None for NULL).
pybind11::object sqlFrame(const sql::SqlResult& result);

}  // namespace lanescope::python
