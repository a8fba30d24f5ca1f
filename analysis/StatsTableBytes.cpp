#include "analysis/StatsTableBytes.h"

#include <cstdint>

#include "analysis/ByteCodec.h"

namespace lanescope {
namespace {

constexpr std::string_view kStatsTableTag = "LSSTAT01";
enum class CellTag : uint8_t { Integer = 0, Real = 1, Text = 2 };

bool readCell(ByteReader& in, StatsTable::Cell& cell) {
    uint8_t tag = 0;
    if (!in.get(tag)) return false;
    switch (CellTag(tag)) {
        case CellTag::Integer: {
            int64_t value = 0;
            if (!in.get(value)) return false;
            cell = value;
            return true;
        }
        case CellTag::Real: {
            StatsTable::Real real{};
            uint8_t halfEven = 0;
            int32_t decimals = 0;
            if (!in.get(real.value) || !in.get(decimals) || !in.get(halfEven) || halfEven > 1) return false;
            real.decimals = decimals;
            real.half_even = halfEven == 1;
            cell = real;
            return true;
        }
        case CellTag::Text: {
            std::string text;
            if (!in.text(text)) return false;
            cell = std::move(text);
            return true;
        }
    }
    return false;
}

}  // namespace

std::string encodeStatsTable(const StatsTable& table) {
    ByteWriter out;
    out.raw(kStatsTableTag);
    out.text(table.name);
    out.put(uint32_t(table.header.size()));
    for (const std::string& column : table.header) out.text(column);
    out.put(uint64_t(table.rows_left_out));
    out.put(uint64_t(table.rows.size()));
    for (const auto& row : table.rows) {
        out.put(uint32_t(row.size()));
        for (const StatsTable::Cell& cell : row) {
            if (const auto* value = std::get_if<int64_t>(&cell)) {
                out.put(uint8_t(CellTag::Integer));
                out.put(*value);
            } else if (const auto* real = std::get_if<StatsTable::Real>(&cell)) {
                out.put(uint8_t(CellTag::Real));
                out.put(real->value);
                out.put(int32_t(real->decimals));
                out.put(uint8_t(real->half_even ? 1 : 0));
            } else {
                out.put(uint8_t(CellTag::Text));
                out.text(std::get<std::string>(cell));
            }
        }
    }
    return out.take();
}

std::optional<StatsTable> decodeStatsTable(std::string_view bytes) {
    ByteReader in(bytes);
    StatsTable table;
    uint32_t columns = 0;
    if (!in.raw(kStatsTableTag) || !in.text(table.name) || !in.get(columns)) return std::nullopt;
    // Each count is checked against the bytes left (every item takes at least 4), so that a
    // damaged count cannot make it reserve more than the input could hold.
    if (columns > in.left() / 4) return std::nullopt;
    table.header.resize(columns);
    for (std::string& column : table.header)
        if (!in.text(column)) return std::nullopt;
    uint64_t leftOut = 0, rows = 0;
    if (!in.get(leftOut) || !in.get(rows) || rows > in.left() / 4) return std::nullopt;
    table.rows_left_out = leftOut;
    table.rows.resize(size_t(rows));
    for (auto& row : table.rows) {
        uint32_t cells = 0;
        if (!in.get(cells) || cells > in.left()) return std::nullopt;
        row.resize(cells);
        for (StatsTable::Cell& cell : row)
            if (!readCell(in, cell)) return std::nullopt;
    }
    if (in.left() != 0) return std::nullopt;
    return table;
}

}  // namespace lanescope
