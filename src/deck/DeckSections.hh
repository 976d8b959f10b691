// The readers of a beamline deck's sections and of [scan] and --set, one file each
// (docs/development.md: how to add a deck key). Each reads one TOML table into the configuration
// and reports every problem through the DeckContext.
#pragma once

#include <toml++/toml.h>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "deck/Config.hh"
#include "deck/DeckContext.hh"
#include "deck/Scan.hh"

namespace gt::deck {

//! Reads every beamline section of `root` (not [run], read already, nor [scan]) (BeamlineSections.cc).
void read_beamline_sections(DeckContext& ctx, toml::table const& root, DeckConfig& cfg);

//! [run] (RunSection.cc).
void read_run(DeckContext& ctx, toml::table const& t, DeckConfig& cfg);

//! [beam] (BeamSection.cc); its shape, [beam.twiss] or [beam.sigma], in BeamShapeSection.cc.
void read_beam(DeckContext& ctx, toml::table const& t, BeamConfig& beam);
void read_twiss(DeckContext& ctx, toml::table const& t, BeamConfig& beam);
void read_sigma(DeckContext& ctx, toml::table const& t, BeamConfig& beam);
//! [beam.cathode] (distribution = "cathode"); the species must have been read.
void read_cathode(DeckContext& ctx, toml::table const& t, BeamConfig& beam);

//! [elements] (ElementsSection.cc): every name goes into ctx.element_names(), valid or not.
void read_elements(DeckContext& ctx, toml::table const& t, DeckConfig& cfg);

//! [lattice] (LatticeSection.cc); returns the element names the tracked line reaches (for [output]
//! checks), empty when the lattice has problems.
std::set<std::string> read_lattice(DeckContext& ctx, toml::table const& t, DeckConfig& cfg);

//! [errors] (ErrorsSection.cc): random misalignments and field errors per element group; after
//! [elements] (the groups' types).
void read_errors(DeckContext& ctx, toml::table const& t, DeckConfig& cfg);

//! [space_charge] (SpaceChargeSection.cc); after [beam], whose bunch charge it checks.
void read_space_charge(DeckContext& ctx, toml::table const& t, DeckConfig& cfg);

//! output.checkpoint_every of [output] (CheckpointEvery.cc).
void read_checkpoint_every(DeckContext& ctx, toml::table const& t, OutputConfig& out);

//! [collective] (CollectiveSection.cc): the longitudinal grid of the wakes, LSC and CSR.
void read_collective(DeckContext& ctx, toml::table const& t, DeckConfig& cfg);

//! A detector beside the lattice (BeamDetectorSection.cc): [materials], [geometry], [field], [propagation],
//! [physics] as in detector decks, and [detector]; read after [beam] (the detector's particle is the beam's).
void read_beamline_detector(DeckContext& ctx, toml::table const& root, DeckConfig& cfg);

//! [dynamic_aperture] (DynamicApertureSection.cc): a ring study's grid; after [lattice] (its turns).
void read_dynamic_aperture(DeckContext& ctx, toml::table const& t, DeckConfig& cfg);
//! [momentum_aperture] (MomentumApertureSection.cc): locations and search of the momentum aperture; after
//! [lattice] and [elements] (its turns, the names and types it selects).
void read_momentum_aperture(DeckContext& ctx, toml::table const& t, DeckConfig& cfg);

//! [output] of a beamline deck (OutputSection.cc); t may be null (the defaults).
void read_output(DeckContext& ctx, toml::table const* t, DeckConfig& cfg,
                 std::set<std::string> const& tracked);

//! Expands output.file ({index}, {name}, scanned keys); checks that scan points write distinct files
//! (OutputSection.cc). Run once on the final configuration.
void expand_output_file(DeckContext const& ctx, DeckConfig& cfg, std::vector<Diagnostic>& problems);

//! [scan] (ScanSection.cc): the mode, and each parameter with its list or range, checked against root.
void read_scan(DeckContext& ctx, toml::node const& node, toml::table const& root, ScanConfig& scan);

//! The source path of the nodes made when value `value` of scanned key `key` is applied.
std::string scan_origin(std::string const& key, std::size_t value);

//! --set KEY=VALUE (Overrides.cc): puts the value into root, or reports why it cannot.
void apply_override(DeckContext& ctx, toml::table& root, std::string const& text);

//! --unset KEY (Unset.cc): removes root.KEY (a value or a table), or reports that it is not there.
void apply_unset(DeckContext& ctx, toml::table& root, std::string const& key);

//! Sets root.<segments> to the TOML value `value` (a plain string when it is not TOML), creating
//! missing tables; `origin` is the source path of every node made (for DeckContext::where()).
void apply_value(DeckContext& ctx, toml::table& root, std::vector<std::string> const& segments,
                 std::string_view value, std::string const& origin);

}  // namespace gt::deck
