// HepMC3's ASCII event listing (the format of HepMC3's WriterAscii, "Asciiv3"), read line by line into
// libhepmc3's event record (HepMC3::GenEvent), which then gives units, momenta and the vertex positions
// particles inherit along their decay chain. libhepmc3's own text parser (ReaderAscii) is not used: the
// Debian 3.1.2 one refuses its own writer's vertices without incoming particles (a particle gun's
// `V -1 0 [] @ ...`), trusts its input (out-of-range particle and vertex references, attribute names of
// 64 characters or more and lines of 256 KiB overrun it) and says only "parsing failed". Here every line
// is checked, and a problem names the file, the line and what is wrong.
#pragma once

#include <cstdint>
#include <istream>
#include <stdexcept>
#include <string>
#include <vector>

namespace HepMC3 {
class GenEvent;
}

namespace gt {

//! A problem with an event file: "FILE:LINE: what is wrong".
class HepMcError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

//! Reads a HepMC3 ASCII listing one event at a time (the grammar: docs/decks.md, "Primaries from an event
//! file"). Run information (T and A lines before the first event) and event attributes (A) are checked
//! for their type letter only and not kept: gtrack does not use them.
class HepMcListing {
  public:
    //! `name` stands for the stream in messages (the file name).
    HepMcListing(std::istream& in, std::string name);

    //! The next event into `event` (cleared first); false after the last one (the listing's end line).
    //! `line` receives the line number of its E line. Throws HepMcError at the first problem: a line not
    //! of the format, a reference to a particle or vertex the event does not have (yet), counts that
    //! differ from the E line's, a file that ends without the listing's end line (truncated).
    bool next(HepMC3::GenEvent& event, std::size_t& line);

    //! The weight names of the run information (a W line before the first event); empty if none.
    std::vector<std::string> const& weight_names() const { return weight_names_; }
    //! The line number reached, for messages about the event just read.
    std::size_t line() const { return line_number_; }
    std::string const& name() const { return name_; }

  private:
    bool read_line();
    [[noreturn]] void fail(std::string const& what) const;
    void read_event_line(HepMC3::GenEvent& event);
    void read_units(HepMC3::GenEvent& event);
    void read_weights(HepMC3::GenEvent& event);
    void read_vertex(HepMC3::GenEvent& event);
    void read_particle(HepMC3::GenEvent& event);
    void finish_event(HepMC3::GenEvent const& event) const;

    std::istream& in_;
    std::string name_;
    std::string line_;
    std::vector<std::string_view> fields_;  //!< line_'s fields
    std::size_t line_number_ = 0;
    bool pending_ = false;  //!< line_ is the next event's E line, read already
    bool started_ = false;  //!< the listing's start line was seen
    bool ended_ = false;    //!< the listing's end line was seen
    std::vector<std::string> weight_names_;
    std::size_t weights_ = 0;  //!< the weights every event has (the names', or the first event's)
    bool weights_known_ = false;
    // the event being read
    std::size_t event_line_ = 0;
    std::int64_t vertices_declared_ = 0, particles_declared_ = 0;
    bool has_weights_ = false, has_units_ = false;
};

}  // namespace gt
