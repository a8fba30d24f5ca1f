#include "query/NsysDeclarations.h"

#include <algorithm>
#include <iterator>

namespace lanescope::sql {
namespace {

// Sorted by table name.
constexpr NsysDeclaration kDeclarations[] = {
#include "query/NsysDeclarations.inc"
};

}  // namespace

const NsysDeclaration* nsysDeclaration(std::string_view table) {
    const auto found = std::lower_bound(std::begin(kDeclarations), std::end(kDeclarations), table,
                                        [](const NsysDeclaration& d, std::string_view t) { return d.table < t; });
    return found != std::end(kDeclarations) && found->table == table ? &*found : nullptr;
}

bool namesHold(std::string_view names, std::string_view column) {
    while (!names.empty()) {
        const size_t space = names.find(' ');
        if (names.substr(0, space) == column) return true;
        if (space == std::string_view::npos) break;
        names.remove_prefix(space + 1);
    }
    return false;
}

}  // namespace lanescope::sql
