#include "importers/nsysrep/SystemEnvironment.h"

#include "importers/nsysrep/ProtoReader.h"

namespace lanescope::nsysrep {
namespace {

constexpr uint64_t kDeviceEnvironment = 610;  // the name enum of TARGET_INFO_SYSTEM_ENV

}  // namespace

std::string_view deviceEnvironment(std::string_view summary) {
    try {
        ProtoReader reader(summary, 0);
        for (ProtoField device; reader.next(device);) {
            if (device.number != 1 || device.wire != 2) continue;
            ProtoReader deviceFields(device.bytes, 0);
            for (ProtoField properties; deviceFields.next(properties);) {
                if (properties.number != 2 || properties.wire != 2) continue;
                ProtoReader list(properties.bytes, 0);
                for (ProtoField property; list.next(property);) {
                    if (property.number != 1 || property.wire != 2) continue;
                    ProtoReader fields(property.bytes, 0);
                    uint64_t name = 0;
                    std::string_view value;
                    for (ProtoField f; fields.next(f);) {
                        if (f.number == 1 && f.wire == 0) name = f.value;
                        if (f.number == 2 && f.wire == 2) value = f.bytes;
                    }
                    if (name == kDeviceEnvironment) return value;
                }
            }
        }
    } catch (const MalformedProto&) {
        // The environment only names the rank: a damaged summary leaves it unknown.
    }
    return {};
}

}  // namespace lanescope::nsysrep
