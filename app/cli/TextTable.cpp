#include "app/cli/TextTable.h"

#include <algorithm>

namespace lanescope::cli {
namespace {

// Counts UTF-8 code points, not bytes.
size_t displayWidth(const std::string& s) {
    return static_cast<size_t>(std::count_if(s.begin(), s.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

std::string cut(const std::string& s, size_t width) {
    if (displayWidth(s) <= width) return s;
    std::string out;
    size_t shown = 0;
    for (size_t i = 0; i < s.size(); ++i) {
        if ((s[i] & 0xC0) != 0x80 && ++shown > width - 1) break;
        out += s[i];
    }
    return out + "…";
}

}  // namespace

std::string renderTextTable(const std::vector<std::string>& header, const std::vector<std::vector<std::string>>& rows,
                            const std::vector<bool>& numeric, size_t maxWidth) {
    std::vector<size_t> width(header.size());
    for (size_t c = 0; c < header.size(); ++c) width[c] = displayWidth(header[c]);
    for (const auto& row : rows)
        for (size_t c = 0; c < row.size() && c < width.size(); ++c)
            width[c] = std::min(maxWidth, std::max(width[c], displayWidth(row[c])));
    auto line = [&](const std::vector<std::string>& cells) {
        std::string out;
        for (size_t c = 0; c < cells.size() && c < width.size(); ++c) {
            const std::string text = cut(cells[c], width[c]);
            const std::string pad(width[c] - displayWidth(text), ' ');
            if (c) out += "  ";
            out += (c < numeric.size() && numeric[c]) ? pad + text : text + (c + 1 < cells.size() ? pad : "");
        }
        return out + "\n";
    };
    std::string out = line(header);
    std::vector<std::string> rule;
    for (size_t w : width) rule.emplace_back(w, '-');
    out += line(rule);
    for (const auto& row : rows) out += line(row);
    return out;
}

}  // namespace lanescope::cli
