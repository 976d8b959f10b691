// Reading HepMC3's ASCII event listing into libhepmc3's event record (detector/HepMcListing.hh). The
// grammar is that of HepMC3's WriterAscii (HepMC3 3.1/3.2, "HepMC::Asciiv3"):
//   HepMC::Version V                      optional, first
//   HepMC::Asciiv3-START_EVENT_LISTING
//   W name1\|name2...                     optional run information: weight names (T, A: tools, attributes)
//   E number vertices particles [@ x y z t]
//   U GEV|MEV MM|CM
//   W w1 w2 ...
//   A ...                                 event attributes (not kept)
//   V id status [p1,p2,...] [@ x y z t]   id = -(the vertex's number in the event)
//   P id mother pdg px py pz e m status   id = 1, 2, ...; mother a particle (> 0), a vertex (< 0) or 0
//   HepMC::Asciiv3-END_EVENT_LISTING
#include "detector/HepMcListing.hh"

#include <HepMC3/GenEvent.h>
#include <HepMC3/GenParticle.h>
#include <HepMC3/GenVertex.h>
#include <HepMC3/Units.h>

#include <charconv>
#include <cmath>
#include <limits>

#include <fmt/format.h>

namespace gt {

namespace {

constexpr std::size_t k_longest_line = 1 << 20;    //!< a listing's lines are short; a longer one is not one
constexpr std::int64_t k_most_entries = 10000000;  //!< particles or vertices an event may declare
constexpr std::string_view k_start = "HepMC::Asciiv3-START_EVENT_LISTING";
constexpr std::string_view k_end = "HepMC::Asciiv3-END_EVENT_LISTING";

std::vector<std::string_view> split_fields(std::string_view s)
{
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (i < s.size()) {
        while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
        std::size_t const start = i;
        while (i < s.size() && s[i] != ' ' && s[i] != '\t') ++i;
        if (i > start) out.push_back(s.substr(start, i - start));
    }
    return out;
}

std::string shown(std::string_view s)
{
    std::string out;
    for (char c : s.substr(0, 40)) out += (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) ? '?' : c;
    return s.size() > 40 ? out + "..." : out;
}

}  // namespace

HepMcListing::HepMcListing(std::istream& in, std::string name) : in_(in), name_(std::move(name)) {}

void HepMcListing::fail(std::string const& what) const
{
    throw HepMcError(fmt::format("{}:{}: {}", name_, line_number_, what));
}

bool HepMcListing::read_line()
{
    line_.clear();
    // at most k_longest_line characters: a binary file or a runaway line is refused, not swallowed whole
    std::streambuf* const buf = in_.rdbuf();
    bool any = false;
    for (;;) {
        int const c = buf->sbumpc();
        if (c == std::char_traits<char>::eof()) break;
        any = true;
        if (c == '\n') break;
        if (line_.size() == k_longest_line) {
            ++line_number_;
            fail(
                fmt::format("a line of more than {} characters: not a HepMC3 ASCII listing", k_longest_line));
        }
        line_ += static_cast<char>(c);
    }
    if (!any) return false;
    ++line_number_;
    if (!line_.empty() && line_.back() == '\r') line_.pop_back();
    fields_ = split_fields(line_);
    return true;
}

namespace {

template <class T>
bool parse_number(std::string_view s, T& v)
{
    auto const [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if constexpr (std::is_floating_point_v<T>)
        if (ec == std::errc() && !std::isfinite(v)) return false;
    return ec == std::errc() && end == s.data() + s.size();
}

}  // namespace

bool HepMcListing::next(HepMC3::GenEvent& event, std::size_t& line)
{
    if (ended_) return false;
    event.clear();
    bool in_event = false;
    for (;;) {
        if (pending_) {
            pending_ = false;
        } else if (!read_line()) {
            if (!started_) fail("an empty file: not a HepMC3 ASCII listing");
            fail(fmt::format("the file ends without the listing's end line '{}': it is truncated{}", k_end,
                             in_event ? fmt::format(" (in the event of line {})", event_line_) : ""));
        }
        if (fields_.empty()) continue;
        std::string_view const head = fields_[0];
        if (head.starts_with("HepMC::")) {
            if (head == "HepMC::Version" && !started_ && line_number_ == 1) continue;
            if (head == k_start && !started_) {
                started_ = true;
                continue;
            }
            if (head == k_end && started_) {
                if (in_event) finish_event(event);
                ended_ = true;
                // nothing but blank lines may follow
                while (read_line())
                    if (!fields_.empty()) fail("text after the listing's end line");
                if (in_event) line = event_line_;
                return in_event;
            }
            if (head.find("IO_GenEvent") != std::string_view::npos)
                fail(
                    "a HepMC2 listing (IO_GenEvent): gtrack reads HepMC3's ASCII format (Asciiv3); convert "
                    "the "
                    "file with HepMC3 (ReaderAsciiHepMC2, then WriterAscii)");
            fail(fmt::format("unexpected '{}' (a HepMC3 ASCII listing starts with '{}' and ends with '{}')",
                             shown(head), k_start, k_end));
        }
        if (!started_)
            fail(fmt::format(
                "'{}': not a HepMC3 ASCII listing (its first lines are 'HepMC::Version ...' and '{}')",
                shown(line_), k_start));
        if (head.size() != 1)
            fail(fmt::format("'{}': not a line of a HepMC3 ASCII listing (E, U, W, V, P, A or T lines)",
                             shown(line_)));
        char const type = head[0];
        if (type == 'E') {
            if (in_event) {
                finish_event(event);
                pending_ = true;
                line = event_line_;
                return true;
            }
            in_event = true;
            read_event_line(event);
            continue;
        }
        if (!in_event) {  // run information, before the first event
            if (type == 'W') {
                if (!weight_names_.empty()) fail("a second line of weight names");
                std::string_view rest = std::string_view(line_).substr(line_.find('W') + 1);
                while (!rest.empty() && (rest.front() == ' ' || rest.front() == '\t')) rest.remove_prefix(1);
                for (std::size_t start = 0;;) {  // names separated by "\|" (WriterAscii's escape)
                    auto const sep = rest.find("\\|", start);
                    weight_names_.emplace_back(
                        rest.substr(start, sep == std::string_view::npos ? sep : sep - start));
                    if (sep == std::string_view::npos) break;
                    start = sep + 2;
                }
                weights_ = weight_names_.size();
                weights_known_ = true;
                continue;
            }
            if (type == 'T' || type == 'A') continue;
            fail(fmt::format("'{}': a {} line before the first event (E line)", shown(line_), type));
        }
        switch (type) {
            case 'U':
                read_units(event);
                break;
            case 'W':
                read_weights(event);
                break;
            case 'V':
                read_vertex(event);
                break;
            case 'P':
                read_particle(event);
                break;
            case 'A':
            case 'T':
                break;
            default:
                fail(fmt::format("'{}': not a line of a HepMC3 ASCII listing (E, U, W, V, P, A or T lines)",
                                 shown(line_)));
        }
    }
}

void HepMcListing::read_event_line(HepMC3::GenEvent& event)
{
    event_line_ = line_number_;
    has_weights_ = has_units_ = false;
    if (fields_.size() != 4 && fields_.size() != 9)
        fail(fmt::format("'{}': an event line is 'E number vertices particles' with '@ x y z t' optionally",
                         shown(line_)));
    std::int64_t number = 0;
    if (!parse_number(fields_[1], number) || number < std::numeric_limits<int>::min() ||
        number > std::numeric_limits<int>::max())
        fail(fmt::format("'{}': the event number is not a whole number", shown(line_)));
    if (!parse_number(fields_[2], vertices_declared_) || vertices_declared_ < 0 ||
        vertices_declared_ > k_most_entries)
        fail(fmt::format("'{}': expected the number of vertices (0 to {})", shown(line_), k_most_entries));
    if (!parse_number(fields_[3], particles_declared_) || particles_declared_ < 0 ||
        particles_declared_ > k_most_entries)
        fail(fmt::format("'{}': expected the number of particles (0 to {})", shown(line_), k_most_entries));
    event.set_event_number(static_cast<int>(number));
    if (fields_.size() == 9) {
        double p[4];
        if (fields_[4] != "@")
            fail(fmt::format("'{}': expected '@' before the event's position", shown(line_)));
        for (int k = 0; k < 4; ++k)
            if (!parse_number(fields_[5 + std::size_t(k)], p[k]))
                fail(fmt::format("'{}': the event's position is not four finite numbers", shown(line_)));
        event.shift_position_to(HepMC3::FourVector(p[0], p[1], p[2], p[3]));
    }
}

void HepMcListing::read_units(HepMC3::GenEvent& event)
{
    if (fields_.size() != 3 || (fields_[1] != "GEV" && fields_[1] != "MEV") ||
        (fields_[2] != "MM" && fields_[2] != "CM"))
        fail(fmt::format("'{}': a units line is 'U GEV|MEV MM|CM'", shown(line_)));
    if (has_units_) fail("a second units line in one event");
    has_units_ = true;
    // set_units converts what the event holds already: as libhepmc3's own reader does, in line order
    event.set_units(fields_[1] == "GEV" ? HepMC3::Units::GEV : HepMC3::Units::MEV,
                    fields_[2] == "MM" ? HepMC3::Units::MM : HepMC3::Units::CM);
}

void HepMcListing::read_weights(HepMC3::GenEvent& event)
{
    if (has_weights_) fail("a second weights line in one event");
    has_weights_ = true;
    std::vector<double> w(fields_.size() - 1);
    for (std::size_t i = 1; i < fields_.size(); ++i)
        if (!parse_number(fields_[i], w[i - 1]))
            fail(fmt::format("'{}': weight {} is not a finite number", shown(line_), i));
    if (w.empty()) fail("a weights line without weights");
    if (weights_known_ && w.size() != weights_)
        fail(fmt::format("{} weights, where {} {}", w.size(), weights_,
                         weight_names_.empty() ? "the first event has" : "the run information names"));
    weights_ = w.size();
    weights_known_ = true;
    event.weights() = std::move(w);
}

void HepMcListing::read_vertex(HepMC3::GenEvent& event)
{
    if (fields_.size() != 4 && fields_.size() != 9)
        fail(fmt::format("'{}': a vertex line is 'V id status [particles]' with '@ x y z t' optionally",
                         shown(line_)));
    auto const count = static_cast<std::int64_t>(event.vertices().size());
    std::int64_t id = 0, status = 0;
    if (!parse_number(fields_[1], id) || id != -(count + 1))
        fail(
            fmt::format("'{}': expected vertex id {} (vertices are numbered -1, -2, ... in the order they "
                        "appear, those a particle's mother makes included)",
                        shown(line_), -(count + 1)));
    if (count + 1 > vertices_declared_)
        fail(fmt::format("more vertices than the {} the event's line (line {}) declares", vertices_declared_,
                         event_line_));
    if (!parse_number(fields_[2], status) || status < std::numeric_limits<int>::min() ||
        status > std::numeric_limits<int>::max())
        fail(fmt::format("'{}': the vertex status is not a whole number", shown(line_)));
    auto vertex = std::make_shared<HepMC3::GenVertex>();
    vertex->set_status(static_cast<int>(status));
    std::string_view list = fields_[3];
    if (list.size() < 2 || list.front() != '[' || list.back() != ']')
        fail(fmt::format("'{}': expected the incoming particles as [p1,p2,...]", shown(line_)));
    list = list.substr(1, list.size() - 2);
    auto const particles = static_cast<std::int64_t>(event.particles().size());
    while (!list.empty()) {
        auto const comma = list.find(',');
        std::string_view const item = list.substr(0, comma);
        std::int64_t p = 0;
        if (!parse_number(item, p) || p < 1 || p > particles)
            fail(fmt::format("'{}': incoming particle '{}' is not one of the {} particles listed before it",
                             shown(line_), shown(item), particles));
        HepMC3::GenParticlePtr const in = event.particles()[std::size_t(p - 1)];
        if (in->end_vertex()) fail(fmt::format("particle {} enters two vertices", p));
        vertex->add_particle_in(in);
        if (comma == std::string_view::npos) break;
        list.remove_prefix(comma + 1);
        if (list.empty()) fail(fmt::format("'{}': a list of incoming particles ending in ','", shown(line_)));
    }
    if (fields_.size() == 9) {
        double x[4];
        if (fields_[4] != "@")
            fail(fmt::format("'{}': expected '@' before the vertex position", shown(line_)));
        for (int k = 0; k < 4; ++k)
            if (!parse_number(fields_[5 + std::size_t(k)], x[k]))
                fail(fmt::format("'{}': the vertex position is not four finite numbers", shown(line_)));
        vertex->set_position(HepMC3::FourVector(x[0], x[1], x[2], x[3]));
    }
    event.add_vertex(vertex);
}

void HepMcListing::read_particle(HepMC3::GenEvent& event)
{
    if (fields_.size() != 10)
        fail(
            fmt::format("'{}': a particle line is 'P id mother pdg px py pz e m status' (10 fields, {} here)",
                        shown(line_), fields_.size()));
    auto const count = static_cast<std::int64_t>(event.particles().size());
    std::int64_t id = 0, mother = 0, pdg = 0, status = 0;
    if (!parse_number(fields_[1], id) || id != count + 1)
        fail(fmt::format("'{}': expected particle id {} (particles are numbered 1, 2, ... in order)",
                         shown(line_), count + 1));
    if (id > particles_declared_)
        fail(fmt::format("more particles than the {} the event's line (line {}) declares",
                         particles_declared_, event_line_));
    auto const vertices = static_cast<std::int64_t>(event.vertices().size());
    if (!parse_number(fields_[2], mother) || mother >= id || mother < -vertices)
        fail(
            fmt::format("'{}': the mother '{}' is neither a particle listed before (1 to {}) nor a vertex "
                        "listed before (-1 to -{}) nor 0",
                        shown(line_), shown(fields_[2]), id - 1, vertices));
    if (!parse_number(fields_[3], pdg) || pdg < std::numeric_limits<int>::min() ||
        pdg > std::numeric_limits<int>::max())
        fail(fmt::format("'{}': the PDG id is not a whole number", shown(line_)));
    double v[5];
    char const* const names[5] = {"px", "py", "pz", "e", "m"};
    for (int k = 0; k < 5; ++k)
        if (!parse_number(fields_[4 + std::size_t(k)], v[k]))
            fail(fmt::format("'{}': {} is not a finite number", shown(line_), names[k]));
    if (!parse_number(fields_[9], status) || status < std::numeric_limits<int>::min() ||
        status > std::numeric_limits<int>::max())
        fail(fmt::format("'{}': the status is not a whole number", shown(line_)));
    auto particle = std::make_shared<HepMC3::GenParticle>();
    if (mother > 0) {
        // the mother's end vertex, made here when it has none (a vertex the listing does not write out)
        HepMC3::GenParticlePtr const m = event.particles()[std::size_t(mother - 1)];
        HepMC3::GenVertexPtr vertex = m->end_vertex();
        if (!vertex) {
            if (vertices + 1 > vertices_declared_)
                fail(fmt::format("more vertices than the {} the event's line (line {}) declares",
                                 vertices_declared_, event_line_));
            vertex = std::make_shared<HepMC3::GenVertex>();
            vertex->add_particle_in(m);
            event.add_vertex(vertex);
        }
        vertex->add_particle_out(particle);
    } else if (mother < 0) {
        event.vertices()[std::size_t(-mother - 1)]->add_particle_out(particle);
    }
    particle->set_pid(static_cast<int>(pdg));
    particle->set_momentum(HepMC3::FourVector(v[0], v[1], v[2], v[3]));
    particle->set_generated_mass(v[4]);
    particle->set_status(static_cast<int>(status));
    event.add_particle(particle);
}

void HepMcListing::finish_event(HepMC3::GenEvent const& event) const
{
    auto const particles = static_cast<std::int64_t>(event.particles().size());
    auto const vertices = static_cast<std::int64_t>(event.vertices().size());
    if (particles != particles_declared_ || vertices != vertices_declared_)
        throw HepMcError(
            fmt::format("{}:{}: event {} declares {} vertices and {} particles, and has {} and {} (a "
                        "truncated or corrupted "
                        "event)",
                        name_, event_line_, event.event_number(), vertices_declared_, particles_declared_,
                        vertices, particles));
    if (weights_known_ && !has_weights_ && weights_ > 0)
        throw HepMcError(fmt::format("{}:{}: event {} has no weights line (W), where {} weights are expected",
                                     name_, event_line_, event.event_number(), weights_));
}

}  // namespace gt
