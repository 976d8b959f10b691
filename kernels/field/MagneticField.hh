// The magnetic field of a detector run: none, uniform, a finite solenoid, or a field map; one
// tagged struct so that kernels switch on the kind instead of calling virtually.
#pragma once

#include <cstdint>
#include <type_traits>

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

//! The part of f that is a field of kind Field (f itself for MagneticField); f.type must match.
template <class Field>
GT_HOST_DEVICE inline Field const& field_of(MagneticField const& f)
{
    if constexpr (std::is_same_v<Field, UniformField>)
        return f.uniform;
    else if constexpr (std::is_same_v<Field, SolenoidField>)
        return f.solenoid;
    else if constexpr (std::is_same_v<Field, CartesianFieldMap>)
        return f.cartesian;
    else if constexpr (std::is_same_v<Field, RzFieldMap>)
        return f.rz;
    else {
        static_assert(std::is_same_v<Field, MagneticField>, "a kind of MagneticField");
        return f;
    }
}

//! Calls visit(Field{}) with the kind of f's field (a type tag: MagneticField for none).
template <class Visit>
auto visit_field_kind(MagneticField const& f, Visit&& visit)
{
    switch (f.type) {
        case FieldType::uniform:
            return visit(UniformField{});
        case FieldType::solenoid:
            return visit(SolenoidField{});
        case FieldType::cartesian_map:
            return visit(CartesianFieldMap{});
        case FieldType::rz_map:
            return visit(RzFieldMap{});
        default:
            return visit(MagneticField{});
    }
}

}  // namespace gt
