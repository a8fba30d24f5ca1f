#include "app/python/Frames.h"

#include <pybind11/numpy.h>

#include <cstdlib>
#include <limits>
#include <variant>

namespace py = pybind11;

namespace lanescope::python {
namespace {

// What a column's cells are, from the least general to the most.
enum class ColumnType { Integers, Numbers, Objects };

// A column of n values, each made by value(i).
template <typename T, typename Value>
py::array_t<T> numpyColumn(size_t n, const Value& value) {
    py::array_t<T> column(static_cast<py::ssize_t>(n));
    T* out = column.mutable_data();
    for (size_t i = 0; i < n; ++i) out[i] = value(i);
    return column;
}

// A number as the CSV prints it: the value rounded to its decimals, read back.
double printedValue(const StatsTable::Real& real) { return std::strtod(formatCell(real).c_str(), nullptr); }

constexpr double kMissing = std::numeric_limits<double>::quiet_NaN();

// An empty cell: nothing printed, which pandas.read_csv reads as NaN.
bool isEmpty(const StatsTable::Cell& cell) {
    const auto* s = std::get_if<std::string>(&cell);
    return s && s->empty();
}

double statsNumber(const StatsTable::Cell& cell) {
    if (const auto* i = std::get_if<int64_t>(&cell)) return static_cast<double>(*i);
    if (const auto* r = std::get_if<StatsTable::Real>(&cell)) return printedValue(*r);
    return kMissing;
}

py::object statsCell(const StatsTable::Cell& cell) {
    if (const auto* i = std::get_if<int64_t>(&cell)) return py::int_(*i);
    if (const auto* s = std::get_if<std::string>(&cell); s && !s->empty()) return py::str(*s);
    return py::float_(statsNumber(cell));
}

py::object statsColumn(const StatsTable& table, size_t c) {
    const auto& rows = table.rows;
    ColumnType type = ColumnType::Integers;
    for (const auto& row : rows) {
        if (std::holds_alternative<std::string>(row[c]) && !isEmpty(row[c])) type = ColumnType::Objects;
        if (!std::holds_alternative<int64_t>(row[c]) && type == ColumnType::Integers) type = ColumnType::Numbers;
    }
    if (rows.empty() || type == ColumnType::Objects) {
        py::list cells(rows.size());
        for (size_t r = 0; r < rows.size(); ++r) cells[r] = statsCell(rows[r][c]);
        return cells;
    }
    if (type == ColumnType::Integers)
        return numpyColumn<int64_t>(rows.size(), [&](size_t r) { return std::get<int64_t>(rows[r][c]); });
    return numpyColumn<double>(rows.size(), [&](size_t r) { return statsNumber(rows[r][c]); });
}

py::object sqlCell(const sql::SqlCell& cell) {
    if (const auto* i = std::get_if<int64_t>(&cell)) return py::int_(*i);
    if (const auto* d = std::get_if<double>(&cell)) return py::float_(*d);
    if (const auto* s = std::get_if<std::string>(&cell)) return py::str(*s);
    return py::none();
}

py::object sqlColumn(const sql::SqlResult& result, size_t c) {
    const auto& rows = result.rows;
    size_t nulls = 0;
    bool reals = false, others = false;
    for (const auto& row : rows) {
        nulls += std::holds_alternative<std::monostate>(row[c]);
        reals |= std::holds_alternative<double>(row[c]);
        others |= std::holds_alternative<std::string>(row[c]);
    }
    const bool numbers = !others && nulls < rows.size();  // not all NULL, not empty
    auto integer = [&](size_t r) {
        const auto* i = std::get_if<int64_t>(&rows[r][c]);
        return i ? *i : 0;
    };
    if (numbers && reals)
        return numpyColumn<double>(rows.size(), [&](size_t r) {
            const auto& cell = rows[r][c];
            if (const auto* d = std::get_if<double>(&cell)) return *d;
            const auto* i = std::get_if<int64_t>(&cell);
            return i ? static_cast<double>(*i) : kMissing;
        });
    if (numbers && nulls == 0) return numpyColumn<int64_t>(rows.size(), integer);
    if (numbers) {
        auto mask = numpyColumn<bool>(rows.size(),
                                      [&](size_t r) { return std::holds_alternative<std::monostate>(rows[r][c]); });
        return py::module_::import("pandas").attr("arrays").attr("IntegerArray")(
            numpyColumn<int64_t>(rows.size(), integer), mask);
    }
    py::list cells(rows.size());
    for (size_t r = 0; r < rows.size(); ++r) cells[r] = sqlCell(rows[r][c]);
    return cells;
}

}  // namespace

py::object dataFrame(const Columns& columns) {
    py::dict data;  // keyed by position, so that names may repeat (a query's "SELECT a.x, b.x")
    py::list names;
    for (size_t i = 0; i < columns.size(); ++i) {
        data[py::int_(i)] = columns[i].second;
        names.append(columns[i].first);
    }
    py::object frame = py::module_::import("pandas").attr("DataFrame")(data, py::arg("copy") = false);
    frame.attr("columns") = names;
    return frame;
}

py::object statsFrame(const StatsTable& table) {
    Columns columns;
    for (size_t c = 0; c < table.header.size(); ++c) columns.emplace_back(table.header[c], statsColumn(table, c));
    return dataFrame(columns);
}

py::object sqlFrame(const sql::SqlResult& result) {
    Columns columns;
    for (size_t c = 0; c < result.columns.size(); ++c) columns.emplace_back(result.columns[c], sqlColumn(result, c));
    return dataFrame(columns);
}

}  // namespace lanescope::python
