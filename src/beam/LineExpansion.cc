// Line expansion: the use line of [lattice], nested lines and repetition, into deck element names.
#include <algorithm>
#include <charconv>
#include <map>

#include <fmt/format.h>

#include "beam/Lattice.hh"
#include "deck/DeckError.hh"
#include "deck/Suggest.hh"

namespace gt {

namespace {

constexpr std::size_t k_max_entries = 50'000'000;  //!< a table larger than this is surely a deck typo

std::string trim(std::string const& s)
{
    auto const b = s.find_first_not_of(" \t");
    if (b == std::string::npos) return {};
    auto const e = s.find_last_not_of(" \t");
    return s.substr(b, e - b + 1);
}

std::string join(std::vector<std::string> const& v)
{
    std::string out;
    for (auto const& s : v) out += (out.empty() ? "" : ", ") + s;
    return out;
}

struct LineExpander {
    DeckConfig const& deck;
    std::map<std::string, std::vector<std::string> const*> lines;
    std::vector<std::string> known;  // element and line names, for suggestions
    std::vector<std::string> stack;
    std::vector<std::string> out;

    explicit LineExpander(DeckConfig const& d) : deck(d)
    {
        for (auto const& [name, items] : deck.lattice.lines) {
            lines[name] = &items;
            known.push_back(name);
        }
        for (auto const& e : deck.elements) known.push_back(e.name);
    }

    SourceLocation where(std::string const& line) const
    {
        auto const it = deck.lattice.line_where.find(line);
        return it != deck.lattice.line_where.end() ? it->second : SourceLocation{deck.path, 0, 0};
    }

    [[noreturn]] void fail(std::string const& line, std::string const& message) const
    {
        throw DeckError(where(line), "lattice." + line, message);
    }

    //! "name*N" or "N*name" -> (name, N).
    std::pair<std::string, long long> parse_item(std::string const& line, std::string const& item) const
    {
        auto const star = item.find('*');
        if (star == std::string::npos) return {trim(item), 1};
        std::string a = trim(item.substr(0, star)), b = trim(item.substr(star + 1));
        auto is_count = [](std::string const& s) {
            return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
        };
        if (is_count(a) && !is_count(b)) std::swap(a, b);
        long long n = 0;
        auto const [ptr, ec] = std::from_chars(b.data(), b.data() + b.size(), n);
        if (a.empty() || !is_count(b) || ec != std::errc{} || ptr != b.data() + b.size() || n < 1)
            fail(line, "'" + item + "': expected NAME*N with N a whole number >= 1");
        return {a, n};
    }

    void expand(std::string const& line)
    {
        if (std::find(stack.begin(), stack.end(), line) != stack.end()) {
            std::string cycle;
            for (auto const& s : stack) cycle += s + " -> ";
            fail(line, "line '" + line + "' contains itself (" + cycle + line + ")");
        }
        stack.push_back(line);
        for (auto const& item : *lines.at(line)) {
            auto const [name, count] = parse_item(line, item);
            bool const is_line = lines.count(name) > 0;
            if (!is_line && deck.find_element(name) == nullptr)
                fail(line, "'" + name + "' is neither an element nor a line" + did_you_mean(name, known));
            for (long long i = 0; i < count; ++i) {
                if (is_line)
                    expand(name);
                else
                    out.push_back(name);
                if (out.size() > k_max_entries)
                    fail(line, fmt::format("the expanded lattice has more than {} elements", k_max_entries));
            }
        }
        stack.pop_back();
    }
};

}  // namespace

std::vector<std::string> expand_use_line(DeckConfig const& deck)
{
    LineExpander ex(deck);
    std::string const& use = deck.lattice.use;
    if (!ex.lines.count(use)) {
        std::vector<std::string> names;
        for (auto const& [name, _] : deck.lattice.lines) names.push_back(name);
        throw DeckError(
            SourceLocation{deck.path, 0, 0}, "lattice.use",
            "no line named '" + use + "'" +
                (names.empty() ? std::string("; [lattice] defines no lines") : "; lines: " + join(names)) +
                did_you_mean(use, names));
    }
    ex.expand(use);
    if (ex.out.empty()) ex.fail(use, "the line '" + use + "' is empty");
    return ex.out;
}

}  // namespace gt
