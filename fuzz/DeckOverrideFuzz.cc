// Fuzz target: --set overrides applied to the example decks. The first byte picks the deck
// (inputs/*.toml, read once), the second whether and which --scan-index is asked for, and each
// further line is one override string ("beam.kinetic_energy=300 MeV"). Only DeckError may come back.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "deck/DeckError.hh"
#include "deck/DeckReader.hh"

namespace {

struct Deck {
    std::string name, text;
};

std::vector<Deck> load_example_decks()
{
    std::vector<Deck> decks;
    for (auto const& entry : std::filesystem::directory_iterator(GTRACK_SOURCE_DIR "/inputs")) {
        if (entry.path().extension() != ".toml") continue;
        std::ifstream in(entry.path());
        std::ostringstream text;
        text << in.rdbuf();
        decks.push_back({entry.path().string(), text.str()});
    }
    // Directory order is arbitrary: sort, so that a saved input picks the same deck next time.
    std::sort(decks.begin(), decks.end(), [](Deck const& a, Deck const& b) { return a.name < b.name; });
    return decks;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size)
{
    static std::vector<Deck> const decks = load_example_decks();
    if (size < 2 || decks.empty()) return 0;
    Deck const& deck = decks[data[0] % decks.size()];
    std::optional<std::uint64_t> scan_index;
    if (data[1] & 0x80) scan_index = data[1] & 0x7f;
    std::vector<std::string> overrides;
    std::string const rest(reinterpret_cast<char const*>(data) + 2, size - 2);
    std::istringstream lines(rest);
    for (std::string line; std::getline(lines, line);) overrides.push_back(line);
    try {
        (void)gt::read_deck_text(deck.text, deck.name, overrides, scan_index);
    } catch (gt::DeckError const&) {
    }
    return 0;
}
