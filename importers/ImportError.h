#pragma once
#include <string>
#include <string_view>

namespace lanescope {

// Why a file could not be imported. `message` is one line naming the file and the cause.
struct ImportError {
    enum class Kind {
        NotFound,       // the path does not exist or is not a regular file
        Unreadable,     // permission or I/O error
        Empty,          // zero bytes
        UnknownFormat,  // no importer recognises the content
        WrongSchema,    // right container, not the expected tables (e.g. unrelated SQLite)
        Corrupt,        // truncated or damaged content
        NsysMissing,    // a .nsys-rep needs nsys, and none was found
        NsysTooOld,     // the nsys found cannot read this report
        NsysFailed,     // nsys ran and failed for another reason
        Cancelled,      // the user cancelled
        TooBig,         // the report would not fit in the memory available
    };
    Kind kind;
    std::string message;
};

std::string_view errorKindName(ImportError::Kind kind);

}  // namespace lanescope
