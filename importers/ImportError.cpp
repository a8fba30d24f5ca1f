#include "importers/ImportError.h"

namespace lanescope {

std::string_view errorKindName(ImportError::Kind kind) {
    switch (kind) {
        case ImportError::Kind::NotFound:
            return "not_found";
        case ImportError::Kind::Unreadable:
            return "unreadable";
        case ImportError::Kind::Empty:
            return "empty";
        case ImportError::Kind::UnknownFormat:
            return "unknown_format";
        case ImportError::Kind::WrongSchema:
            return "wrong_schema";
        case ImportError::Kind::Corrupt:
            return "corrupt";
        case ImportError::Kind::NsysMissing:
            return "nsys_missing";
        case ImportError::Kind::NsysTooOld:
            return "nsys_too_old";
        case ImportError::Kind::NsysFailed:
            return "nsys_failed";
        case ImportError::Kind::Cancelled:
            return "cancelled";
        case ImportError::Kind::TooBig:
            return "too_big";
    }
    return "unknown";
}

}  // namespace lanescope
