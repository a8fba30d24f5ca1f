#include "importers/nsysrep/SystemEnvironment.h"

#include "importers/nsysrep/ProtoReader.h"
#include "model/SystemProperties.h"

namespace lanescope::nsysrep {

std::vector<RecordedSystemProperty> systemProperties(std::string_view summary) {
    std::vector<RecordedSystemProperty> out;
    try {
        ProtoReader reader(summary, 0);
        for (ProtoField device; reader.next(device);) {
            if (device.number != 1 || device.wire != 2) continue;
            std::string_view state;
            ProtoReader deviceFields(device.bytes, 0);
            for (ProtoField field; deviceFields.next(field);) {
                if (field.number == 1 && field.wire == 2) state = field.bytes;
                if (field.number != 2 || field.wire != 2) continue;
                ProtoReader list(field.bytes, 0);
                for (ProtoField property; list.next(property);) {
                    if (property.number != 1 || property.wire != 2) continue;
                    ProtoReader fields(property.bytes, 0);
                    RecordedSystemProperty p{state, 0, {}};
                    for (ProtoField f; fields.next(f);) {
                        if (f.number == 1 && f.wire == 0) p.number = f.value;
                        if (f.number == 2 && f.wire == 2) p.value = f.bytes;
                    }
                    out.push_back(p);
                }
            }
        }
    } catch (const MalformedProto&) {
        // What the summary holds before the damage stays; the rest is unknown.
    }
    return out;
}

std::string_view deviceEnvironment(std::string_view summary) {
    for (const RecordedSystemProperty& p : systemProperties(summary))
        if (p.number == kDeviceEnvironment) return p.value;
    return {};
}

}  // namespace lanescope::nsysrep
