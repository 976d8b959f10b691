// The magnetic field of a detector run: none, uniform, a finite solenoid, or a field map; one
// tagged struct so that kernels switch on the kind instead of calling virtually.
#pragma once

#include <cstdint>

#include "kernels/field/FieldMap.hh"
#include "kernels/field/SolenoidField.hh"
#include "kernels/field/UniformField.hh"

namespace gt {

enum class FieldType : std::int32_t { none = 0, uniform = 1, solenoid = 2, cartesian_map = 3, rz_map = 4 };

struct MagneticField {
    FieldType type = FieldType::none;
    UniformField uniform;
    SolenoidField solenoid;
    CartesianFieldMap cartesian;
    RzFieldMap rz;

    GT_HOST_DEVICE Vec3 operator()(Vec3 pos) const
    {
        switch (type) {
            case FieldType::uniform:
                return uniform(pos);
            case FieldType::solenoid:
                return solenoid(pos);
            case FieldType::cartesian_map:
                return cartesian(pos);
            case FieldType::rz_map:
                return rz(pos);
            default:
                return {0, 0, 0};
        }
    }
};

}  // namespace gt
