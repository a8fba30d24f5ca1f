#pragma once
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace lanescope {

// A result table of a statistics report: named columns, rows in report order.
// Real cells carry the number of decimals they are printed with.
struct StatsTable {
    struct Real {
        double value;
        int decimals;
        // Rounding of the exact binary value: half away from zero (SQLite's round(), which
        // nsys's SQL applies), or half to even (Python's formatting, which nsys applies to the
        // columns it converts to other units, such as MB in cuda_gpu_trace).
        bool half_even = false;
    };
    using Cell = std::variant<int64_t, Real, std::string>;

    std::string name;                 // e.g. "cuda_gpu_kern_sum"
    std::vector<std::string> header;  // e.g. "Total Time (ns)"
    std::vector<std::vector<Cell>> rows;
    // Rows of a trace report made beyond StatsOptions::trace_rows: counted, not kept.
    uint64_t rows_left_out = 0;
};

// The CSV line (with its line break) of a header or of a row of cells, as toCsv writes it.
std::string csvLine(const std::vector<std::string>& header);
std::string csvLine(const std::vector<StatsTable::Cell>& row);

// One CSV field: quoted (inner quotes doubled) when it holds a comma, quote or line break.
std::string csvField(const std::string& text);
// The text of one cell as `nsys stats -f csv` prints it (numbers unquoted, fixed decimals).
std::string formatCell(const StatsTable::Cell& cell);
// CSV with a header line, quoting fields that hold a comma, quote or newline; empty for a
// table without rows, as `nsys stats -f csv` prints nothing then.
std::string toCsv(const StatsTable& table);

}  // namespace lanescope
