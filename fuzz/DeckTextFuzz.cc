// Fuzz target: arbitrary text as a deck. A deck problem must come back as one DeckError; anything
// else (another exception, a crash, a sanitizer report, a hang) is a bug in the reader.
#include <cstddef>
#include <cstdint>
#include <string>

#include "deck/DeckError.hh"
#include "deck/DeckReader.hh"

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size)
{
    std::string const text(reinterpret_cast<char const*>(data), size);
    try {
        (void)gt::read_deck_text(text, "fuzz.toml");
    } catch (gt::DeckError const&) {
    }
    return 0;
}
