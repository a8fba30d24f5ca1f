#pragma once
#include <QString>
#include <string_view>

namespace lanescope {

// The model's UTF-8 text (names from the string pool, std::string) as a QString, for the
// timeline and the viewer's panels.
inline QString qs(std::string_view text) { return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size())); }

}  // namespace lanescope
