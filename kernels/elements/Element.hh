// The element table entry: a kind tag, a misalignment and a union of the element structs; and
// track_element, the switch the segment kernel applies to each particle.
#pragma once

#include <cstdint>
#include <type_traits>

#include "kernels/core/Macros.hh"
#include "kernels/core/ParticleState.hh"
#include "kernels/elements/Aperture.hh"
#include "kernels/elements/AxialFieldMap.hh"
#include "kernels/elements/BeamShift.hh"
#include "kernels/elements/Collimator.hh"
#include "kernels/elements/DipoleEdge.hh"
#include "kernels/elements/Drift.hh"
#include "kernels/elements/ExactBend.hh"
#include "kernels/elements/FieldMap3D.hh"
#include "kernels/elements/Kicker.hh"
#include "kernels/elements/MapSupport.hh"
#include "kernels/elements/Marker.hh"
#include "kernels/elements/Misalignment.hh"
#include "kernels/elements/Multipole.hh"
#include "kernels/elements/Quadrupole.hh"
#include "kernels/elements/RfCavity.hh"
#include "kernels/elements/SRotation.hh"
#include "kernels/elements/SectorBend.hh"
#include "kernels/elements/Solenoid.hh"
#include "kernels/elements/ThickMultipole.hh"
#include "kernels/elements/ThinSolenoid.hh"
#include "kernels/elements/TimeCode.hh"

namespace gt {

enum class ElementKind : std::int32_t {
    marker,
    monitor,
    drift,
    quadrupole,
    sector_bend,
    dipole_edge,
    multipole,
    thick_multipole,
    solenoid,
    rf_cavity,
    kicker,
    aperture,
    collimator,
    axial_field_map,
    time_code,  //!< a drift, quadrupole, solenoid, profile element or 3D map tracked in time
    field_map_3d,
    srotation,      //!< a roll of the transverse coordinates about s (SRotation.hh)
    exact_bend,     //!< a sector-bend body, exact model (ExactBend.hh)
    thin_solenoid,  //!< ThinSolenoid.hh
    beam_shift,     //!< a shift of the coordinates, ELEGANT's MALIGN (BeamShift.hh)
};

//! One entry of the flat element table: trivially copyable, copied to the device as bytes.
struct Element {
    ElementKind kind;
    std::int32_t index;  //!< position in the lattice table (what a loss record stores)
    bool misaligned;
    Misalignment misalignment;
    union {
        Marker marker;
        Drift drift;
        Quadrupole quadrupole;
        SectorBend sector_bend;
        DipoleEdge dipole_edge;
        Multipole multipole;
        ThickMultipole thick_multipole;
        Solenoid solenoid;
        RfCavity rf_cavity;
        Kicker kicker;
        Aperture aperture;
        Collimator collimator;
        AxialFieldMap axial_field_map;
        TimeCode time_code;
        FieldMap3D field_map_3d;
        SRotation srotation;
        ExactBend exact_bend;
        ThinSolenoid thin_solenoid;
        BeamShift beam_shift;
    };

    //! Host: an entry of the given kind; the caller fills the matching union member.
    static Element make(ElementKind kind)
    {
        Element e;
        e.kind = kind;
        e.index = -1;
        e.misaligned = false;
        e.misalignment = Misalignment::make(0.0, 0.0, 0.0);
        e.marker = Marker{};
        return e;
    }
};

static_assert(std::is_trivially_copyable_v<Element>, "Element is copied to the device as bytes");

//! Which cases of the element switch a segment kernel compiles; SegmentCaseTable picks the smallest that
//! tracks every entry of a segment, and each entry runs the same code in every switch that holds it (the
//! same bits). The switch's deepest case sets the GPU kernel's registers for every lattice it tracks:
//! - `all`: every kind. The t-code and 3D field-map entries (integrated in time or through a grid) take
//!   it to 254 registers per thread (sm_90, ptxas -v), one 256-thread block per SM.
//! - `without_integrators`: all but those two; 128 registers with two blocks per SM (BeamDriver.hh).
//! - `linear_maps`: markers, monitors, and drifts and quadrupoles of the linear model without radiation only
//! (the paraxial
//!   drift and the thick linear quadrupole, each a few multiply-adds with no square root or division):
//!   a lattice of first-order maps runs without the registers of the exact maps, bends, RF, multipoles
//!   and profile elements (launch bound and ptxas numbers in BeamDriver.hh).
//! - `optics_maps`: the magnetic optics of a ring or a transfer line: markers, monitors, drifts and
//!   quadrupoles of every model, sector bends (the exact body only without gradient, sextupole or other body
//!   multipole: one arc), dipole edges, thin and thick multipoles, apertures and s rotations. Without the RF
//!   cavity, solenoid, kicker, collimator and profile (RK4) cases, whose call trees set
//!   `without_integrators`' registers (BeamDriver.hh), and without the exact combined-function bend, whose
//!   split steps (four second-order flows with two sets of principal trajectories each, per sub-step) took
//!   this kernel from 3.2 to 23.5 thousand instructions and a 520-byte stack of spills at its 64 registers.
enum class ElementCases { linear_maps, optics_maps, without_integrators, all };

//! True for the kinds only the `all` switch tracks.
GT_HOST_DEVICE constexpr bool needs_all_cases(ElementKind kind)
{
    return kind == ElementKind::time_code || kind == ElementKind::field_map_3d;
}

//! True for the entries the `linear_maps` switch tracks: the kind and, for a drift or quadrupole, the
//! model (an exact drift or a chromatic or kick quadrupole does not qualify). Host: reads the union
//! member of the entry's kind only.
inline bool is_linear_map(Element const& e)
{
    switch (e.kind) {
        case ElementKind::marker:
        case ElementKind::monitor:
            return true;
        case ElementKind::drift:
            return e.drift.model == DriftModel::linear;
        case ElementKind::quadrupole:
            // A radiating quadrupole (SynchrotronRadiation.hh) is not a short first-order map: the
            // optics_maps switch tracks it, with the radiation (Quadrupole::operator()).
            return e.quadrupole.model == QuadrupoleModel::linear && e.quadrupole.c_rad == 0.0;
        default:
            return false;
    }
}

//! True for the entries the `optics_maps` switch tracks (its list above). Host: reads the kind and, for
//! an exact bend, whether it has a gradient, sextupole or other body multipole (kicked).
inline bool is_optics_map(Element const& e)
{
    switch (e.kind) {
        case ElementKind::marker:
        case ElementKind::monitor:
        case ElementKind::drift:
        case ElementKind::quadrupole:
        case ElementKind::sector_bend:
        case ElementKind::dipole_edge:
        case ElementKind::multipole:
        case ElementKind::thick_multipole:
        case ElementKind::aperture:
        case ElementKind::srotation:
            return true;
        case ElementKind::exact_bend:
            return !e.exact_bend.kicked;
        default:
            return false;
    }
}

//! True for an entry whose map radiates (classical radiation on: c_rad != 0, SynchrotronRadiation.hh). The
//! CPU's lanes track such an entry one particle at a time (kernels/cpu/SegmentLanes.hh): the radiation is
//! written for one particle only. Host: reads the union member of the entry's kind only.
inline bool radiates(Element const& e)
{
    switch (e.kind) {
        case ElementKind::quadrupole:
            return e.quadrupole.c_rad != 0.0;
        case ElementKind::sector_bend:
            return e.sector_bend.c_rad != 0.0;
        case ElementKind::exact_bend:
            return e.exact_bend.c_rad != 0.0;
        case ElementKind::dipole_edge:
            return e.dipole_edge.c_rad != 0.0;
        case ElementKind::thick_multipole:
            return e.thick_multipole.c_rad != 0.0;
        default:
            return false;
    }
}

//! The quantum excitation of an entry that emits photons (`[lattice] radiation = "quantum"`: a radiating
//! quadrupole, sector-bend body of either model or thick multipole with c_q != 0), else nullptr. Dipole edges
//! take the mean loss only: their path -x tan(e) is first order in x and its share of I3 averages to zero
//! over the beam (docs/physics.md).
GT_HOST_DEVICE GT_FORCEINLINE QuantumExcitation const* quantum_excitation(Element const& e)
{
    QuantumExcitation const* q = nullptr;
    switch (e.kind) {
        case ElementKind::quadrupole:
            q = &e.quadrupole.quantum;
            break;
        case ElementKind::sector_bend:
            q = &e.sector_bend.quantum;
            break;
        case ElementKind::exact_bend:
            q = &e.exact_bend.quantum;
            break;
        case ElementKind::thick_multipole:
            q = &e.thick_multipole.quantum;
            break;
        default:
            return nullptr;
    }
    return q->c_q != 0.0 ? q : nullptr;
}

//! True for an entry that emits photons (quantum_excitation). Host: SegmentCaseTable.
inline bool emits_photons(Element const& e) { return quantum_excitation(e) != nullptr; }

//! Host: switches on the quantum excitation `q` for an entry whose map radiates (radiates(e)) and emits
//! photons (the kinds of quantum_excitation); any other entry is left as it is.
inline void set_quantum_excitation(Element& e, QuantumExcitation const& q)
{
    if (!radiates(e)) return;
    switch (e.kind) {
        case ElementKind::quadrupole:
            e.quadrupole.quantum = q;
            break;
        case ElementKind::sector_bend:
            e.sector_bend.quantum = q;
            break;
        case ElementKind::exact_bend:
            e.exact_bend.quantum = q;
            break;
        case ElementKind::thick_multipole:
            e.thick_multipole.quantum = q;
            break;
        default:
            break;
    }
}

//! The `optics_maps` switch: the same calls as track_element's full switch for those kinds; any other
//! kind is refused (false: the particle is marked lost). The host never picks this switch for a segment that
//! holds one, nor for an exact bend with body multipoles (`kicked`, is_optics_map): that is no longer
//! re-checked per particle (issue 29: the host's SegmentCaseTable is the only picker).
GT_HOST_DEVICE GT_FORCEINLINE bool track_optics_map(Element const& e, Particle& p)
{
    switch (e.kind) {
        case ElementKind::marker:
        case ElementKind::monitor:
            return true;
        case ElementKind::drift:
            return e.drift(p);
        case ElementKind::quadrupole:
            return e.quadrupole(p);
        case ElementKind::sector_bend:
            return e.sector_bend(p);
        case ElementKind::exact_bend:
            // ExactBend::operator() without its split steps (see ElementCases); with its radiation.
            return e.exact_bend.uniform(p);
        case ElementKind::dipole_edge:
            return e.dipole_edge(p);
        case ElementKind::multipole:
            return e.multipole(p);
        case ElementKind::thick_multipole:
            return e.thick_multipole(p);
        case ElementKind::aperture:
            return e.aperture(p);
        case ElementKind::srotation:
            return e.srotation(p);
        default:
            return false;
    }
}

//! The linear-map switches' answer to a kind they lack (the host never gives them one): the particle marked
//! lost on the CPU; on the GPU the kernel traps (a launch failure the host reports), which costs the pushes
//! nothing where a `false` carried a flag through the switch to the finiteness check.
GT_HOST_DEVICE GT_FORCEINLINE bool refused_by_linear_switch()
{
#if defined(__CUDA_ARCH__)
    __trap();
#endif
    return false;
}

//! The `linear_maps` switch: the calls Drift and Quadrupole make for their linear model. The host
//! (SegmentCaseTable, is_linear_map) picks it only for segments of markers, monitors and linear drifts and
//! quadrupoles without radiation, and the model and c_rad are not re-checked per particle (issue 29: 9 of
//! the 33 issued instructions of a linear quadrupole push went to the re-check and its refusal's flag; docs/
//! performance.md, "Instructions per push"). Any other kind: refused_by_linear_switch.
GT_HOST_DEVICE GT_FORCEINLINE bool track_linear_map(Element const& e, Particle& p)
{
    switch (e.kind) {
        case ElementKind::marker:
        case ElementKind::monitor:
            return true;
        case ElementKind::drift:
            drift_linear_table(p, e.drift.length, e.drift.t_per_pt);
            return true;
        case ElementKind::quadrupole:
            return e.quadrupole.track_linear(p);
        default:
            return refused_by_linear_switch();
    }
}

//! The linear-map switch with track_element's finiteness check, for a particle whose six coordinates are
//! finite on entry and an entry that is not misaligned: only the coordinates the entry's map writes are
//! tested (the others are unchanged, so finite), which is is_finite's verdict after the map. A marker or
//! monitor writes none: its push is the dispatch alone. TrackSegment runs it for the segments without
//! misalignments once a particle is finite at the segment's start (docs/performance.md, "Instructions per
//! push": 13 of a drift's 31 issued instructions were the check of all six).
GT_HOST_DEVICE GT_FORCEINLINE bool track_linear_map_finite_entry(Element const& e, Particle& p)
{
    switch (e.kind) {
        case ElementKind::marker:
        case ElementKind::monitor:
            return true;
        case ElementKind::drift: {
            drift_linear_table(p, e.drift.length, e.drift.t_per_pt);
            // Every verdict computed, then joined without branches (`&`, not `&&`).
            bool const x = finite_bits(p.x), y = finite_bits(p.y), t = finite_bits(p.t);
            return x & y & t;
        }
        case ElementKind::quadrupole: {
            e.quadrupole.track_linear(p);
            bool const x = finite_bits(p.x), px = finite_bits(p.px), y = finite_bits(p.y),
                       py = finite_bits(p.py), t = finite_bits(p.t);
            return x & px & y & py & t;
        }
        default:
            return refused_by_linear_switch();
    }
}

//! Pushes one particle through one entry; false when the particle is lost there (aperture, an
//! unphysical momentum, or a coordinate that became NaN or infinite). With `without_integrators` the
//! t-code and 3D-map entries are not compiled, with `optics_maps` only track_optics_map's, with
//! `linear_maps` only track_linear_map's: the host never
//! picks a switch for a segment holding an entry it lacks (SegmentCaseTable), and a particle reaching an
//! entry of a kind its switch lacks is marked lost, not pushed (the linear-map switch on the GPU traps).
//! `Misalignments` false: the entries' misalignments are not applied (TrackSegment, for segments that hold
//! no misaligned entry, SegmentCaseTable::misaligned).
template <ElementCases Cases = ElementCases::all, bool Misalignments = true>
GT_HOST_DEVICE GT_FORCEINLINE bool track_element(Element const& e, Particle& p)
{
    if constexpr (Misalignments)
        if (e.misaligned) e.misalignment.enter(p);
    bool ok = true;
    if constexpr (Cases == ElementCases::linear_maps) {
        ok = track_linear_map(e, p);
    } else if constexpr (Cases == ElementCases::optics_maps) {
        ok = track_optics_map(e, p);
    } else {
        switch (e.kind) {
            case ElementKind::marker:
            case ElementKind::monitor:
                break;
            case ElementKind::drift:
                ok = e.drift(p);
                break;
            case ElementKind::quadrupole:
                ok = e.quadrupole(p);
                break;
            case ElementKind::sector_bend:
                ok = e.sector_bend(p);
                break;
            case ElementKind::dipole_edge:
                ok = e.dipole_edge(p);
                break;
            case ElementKind::multipole:
                ok = e.multipole(p);
                break;
            case ElementKind::thick_multipole:
                ok = e.thick_multipole(p);
                break;
            case ElementKind::solenoid:
                ok = e.solenoid(p);
                break;
            case ElementKind::rf_cavity:
                ok = e.rf_cavity(p);
                break;
            case ElementKind::kicker:
                ok = e.kicker(p);
                break;
            case ElementKind::aperture:
                ok = e.aperture(p);
                break;
            case ElementKind::collimator:
                ok = e.collimator(p);
                break;
            case ElementKind::axial_field_map:
                ok = e.axial_field_map(p);
                break;
            case ElementKind::time_code:
                if constexpr (Cases == ElementCases::all)
                    ok = e.time_code(p);
                else
                    ok = false;
                break;
            case ElementKind::field_map_3d:
                if constexpr (Cases == ElementCases::all)
                    ok = e.field_map_3d(p);
                else
                    ok = false;
                break;
            case ElementKind::srotation:
                ok = e.srotation(p);
                break;
            case ElementKind::exact_bend:
                ok = e.exact_bend(p);
                break;
            case ElementKind::thin_solenoid:
                ok = e.thin_solenoid(p);
                break;
            case ElementKind::beam_shift:
                ok = e.beam_shift(p);
                break;
        }
    }
    if constexpr (Misalignments)
        if (e.misaligned) e.misalignment.leave(p);
    // `&`, not `&&`: the check runs after a refusing map too (no side effect, the same verdict), and on the
    // GPU both verdicts meet in one predicate, where the short circuit carried a bool through the switch.
    return ok & is_finite(p);
}

//! track_element with quantum excitation: an entry that emits photons (quantum_excitation(e)) runs its
//! radiating map with the particle's PhotonStream for this entry, keyed by (`clock`, e.index); every other
//! entry runs track_element's code for it (the same bits as without the clock). The segment kernels call this
//! only for segments that hold such an entry (SegmentCaseTable::emits_photons), with `Cases`
//! `without_integrators` or `all`. A new radiating map takes a `Photons&` (NoPhotons or PhotonStream) and
//! passes it to radiate(); its case is added here and in quantum_excitation.
template <ElementCases Cases>
GT_HOST_DEVICE GT_FORCEINLINE bool track_element(Element const& e, Particle& p, PhotonClock const& clock)
{
    static_assert(Cases == ElementCases::without_integrators || Cases == ElementCases::all,
                  "the photon-emitting maps are compiled into the two largest switches only");
    QuantumExcitation const* q = quantum_excitation(e);
    if (q == nullptr) return track_element<Cases>(e, p);
    PhotonStream photons(*q, clock, e.index);
    if (e.misaligned) e.misalignment.enter(p);
    bool ok = false;
    switch (e.kind) {
        case ElementKind::quadrupole:
            ok = e.quadrupole.track_radiating(p, photons);
            break;
        case ElementKind::sector_bend:
            ok = e.sector_bend.track_radiating(p, photons);
            break;
        case ElementKind::exact_bend:
            ok = e.exact_bend(p, photons);
            break;
        case ElementKind::thick_multipole:
            ok = e.thick_multipole.track_radiating(p, photons);
            break;
        default:
            break;
    }
    if (e.misaligned) e.misalignment.leave(p);
    return ok && is_finite(p);
}

//! Points the entries that read field data (profile elements, 3D maps) at `base`, the executor's copy of the
//! lattice's field data; the table itself holds only offsets into it.
inline void bind_field_data(Element& e, double const* base)
{
    if (e.kind == ElementKind::axial_field_map)
        e.axial_field_map.profile.coefficients = base + e.axial_field_map.profile.offset;
    if (e.kind == ElementKind::time_code && e.time_code.field == TimeField::axial_map)
        e.time_code.map.profile.coefficients = base + e.time_code.map.profile.offset;
    if (e.kind == ElementKind::time_code && e.time_code.field == TimeField::grid_map)
        e.time_code.grid_map.grid.values = base + e.time_code.grid_map.grid.offset;
    if (e.kind == ElementKind::field_map_3d) e.field_map_3d.grid.values = base + e.field_map_3d.grid.offset;
}

//! Name of a kind, as `gtrack check` prints it.
inline char const* kind_name(ElementKind kind)
{
    switch (kind) {
        case ElementKind::marker:
            return "marker";
        case ElementKind::monitor:
            return "monitor";
        case ElementKind::drift:
            return "drift";
        case ElementKind::quadrupole:
            return "quadrupole";
        case ElementKind::sector_bend:
            return "sbend body";
        case ElementKind::dipole_edge:
            return "dipole edge";
        case ElementKind::multipole:
            return "multipole";
        case ElementKind::thick_multipole:
            return "thick multipole";
        case ElementKind::solenoid:
            return "solenoid";
        case ElementKind::rf_cavity:
            return "rf cavity";
        case ElementKind::kicker:
            return "kicker";
        case ElementKind::aperture:
            return "aperture";
        case ElementKind::collimator:
            return "collimator";
        case ElementKind::axial_field_map:
            return "field map (axis)";
        case ElementKind::time_code:
            return "t-code";
        case ElementKind::field_map_3d:
            return "field map (3D)";
        case ElementKind::srotation:
            return "s rotation";
        case ElementKind::exact_bend:
            return "sbend body (exact)";
        case ElementKind::thin_solenoid:
            return "thin solenoid";
        case ElementKind::beam_shift:
            return "beam shift";
    }
    return "?";
}

}  // namespace gt
