// Where the collective kicks (wakes, LSC, CSR) go in a lattice, what acts at each, and the per-kick
// diagnostics table (/collective in the output file).
//
//  - a `wake` element: its wake, in full, where it stands;
//  - `wake = "NAME"` on an element with a length: NAME's wake, in full, after the element's last slice;
//  - `lsc = true` on an element with a length: LSC of ds = the slice length after every slice;
//  - `csr = true` on a sector bend: steady-state CSR of ds = the slice length and R = L / |angle|
//    after every body slice.
// Kicks at the same entry act together (one histogram).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "beam/Lattice.hh"
#include "collective/CollectiveSolver.hh"
#include "deck/Config.hh"
#include "io/TableWriter.hh"
#include "run/BeamTracker.hh"

namespace gt {

class CollectivePlan {
  public:
    //! The plan of one pass of `lattice` (built from `deck`, already sliced). Throws DeckError for
    //! an incomplete wake model, an unreadable wake table, a `wake` naming no wake element, or
    //! `lsc`/`wake` on an element without a length.
    CollectivePlan(Lattice const& lattice, DeckConfig const& deck);
    CollectivePlan(CollectivePlan const&) = delete;
    CollectivePlan& operator=(CollectivePlan const&) = delete;

    bool empty() const { return kicks_.empty(); }
    std::map<std::int64_t, CollectiveKickSpec> const& kicks() const { return kicks_; }
    CollectiveSettings const& settings() const { return settings_; }

  private:
    std::map<std::string, WakeFunction> wakes_;  //!< by wake element name (kick specs point here)
    std::map<std::int64_t, CollectiveKickSpec> kicks_;
    CollectiveSettings settings_;
};

//! The wake function a `wake` element describes. Throws DeckError naming the element and key.
WakeFunction wake_of(ElementConfig const& element, std::string const& deck_path);

//! Registers the plan's kicks with the tracker: at each, a kick by `solver` on `particles`, with a
//! row appended to `table` (collective_columns()) when it is not null.
void add_collective_kicks(BeamTracker& tracker, CollectivePlan const& plan, CollectiveSolver& solver,
                          ParticleView particles, Lattice const& lattice, DeckConfig const& deck, Table* table);

//! Columns of the per-kick diagnostics table.
std::vector<std::pair<std::string, std::string>> collective_columns();
//! Marks its wall-clock columns (t_histogram, t_convolve, t_kick) as timings (io/Measurement.hh).
void mark_collective_timings(Table& table);

//! What `gtrack check` says about the deck's collective effects ("" when it has none); throws DeckError
//! as CollectivePlan does.
std::string describe_collective(DeckConfig const& deck, ReferenceParticle const& ref);

//! One line for the run summary: kicks, energy change, time per stage.
std::string collective_summary(Table const& table);

}  // namespace gt
