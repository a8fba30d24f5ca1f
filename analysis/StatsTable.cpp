#include "analysis/StatsTable.h"

#include <cmath>
#include <cstdio>

namespace lanescope {
std::string csvField(const std::string& text) {
    if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
    std::string quoted = "\"";
    for (char c : text) {
        if (c == '"') quoted += '"';
        quoted += c;
    }
    return quoted + '"';
}

namespace {

// Rounds the exact binary value half away from zero, as SQLite's round() in nsys's reports
// does: 15611.25 -> "15611.3", but 21228.85 (stored as 21228.8499...) -> "21228.8". The
// scaling is exact in long double for up to 3 decimals.
std::string formatRounded(double value, int decimals, bool halfEven) {
    if (halfEven || !std::isfinite(value) || decimals > 3 || std::fabs(value) > 1e15) {  // printf: half to even
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
        return buf;
    }
    const long double scaled = static_cast<long double>(value) * std::pow(10.0L, decimals);
    const auto units = static_cast<long long>(std::llroundl(scaled));
    const long long scale = static_cast<long long>(std::pow(10, decimals));
    const long long whole = std::llabs(units) / scale, fraction = std::llabs(units) % scale;
    char buf[64];
    if (decimals == 0)
        std::snprintf(buf, sizeof buf, "%s%lld", units < 0 ? "-" : "", whole);
    else
        std::snprintf(buf, sizeof buf, "%s%lld.%0*lld", units < 0 ? "-" : "", whole, decimals, fraction);
    return buf;
}

}  // namespace

std::string formatCell(const StatsTable::Cell& cell) {
    if (const auto* i = std::get_if<int64_t>(&cell)) return std::to_string(*i);
    if (const auto* r = std::get_if<StatsTable::Real>(&cell)) {
        return formatRounded(r->value, r->decimals, r->half_even);
    }
    return std::get<std::string>(cell);
}

std::string csvLine(const std::vector<std::string>& header) {
    std::string out;
    for (size_t i = 0; i < header.size(); ++i) {
        if (i) out += ',';
        out += csvField(header[i]);
    }
    return out += '\n';
}

std::string csvLine(const std::vector<StatsTable::Cell>& row) {
    std::string out;
    for (size_t i = 0; i < row.size(); ++i) {
        if (i) out += ',';
        out += csvField(formatCell(row[i]));
    }
    return out += '\n';
}

std::string toCsv(const StatsTable& table) {
    std::string out;
    if (table.rows.empty()) return out;  // nsys prints nothing for a report without rows
    out += csvLine(table.header);
    for (const auto& row : table.rows) out += csvLine(row);
    return out;
}

}  // namespace lanescope
