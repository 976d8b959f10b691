// Fuzz target: arbitrary bytes as a GDML file. A problem must come back as one GdmlError (file, line,
// element); anything else (another exception, a crash, a sanitizer report, a hang) is a bug in the
// reader. The first byte picks the options: pointer suffixes stripped, a <constant> override.
#include <cstddef>
#include <cstdint>
#include <string>

#include "deck/gdml/GdmlReader.hh"
#include "deck/gdml/GdmlSource.hh"

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size)
{
    if (size == 0) return 0;
    gt::gdml::GdmlOptions options;
    options.strip_pointers = (data[0] & 1) != 0;
    if (data[0] & 2) options.constants["thickness"] = 3.0;
    std::string const text(reinterpret_cast<char const*>(data) + 1, size - 1);
    try {
        (void)gt::gdml::read_gdml_text("fuzz.gdml", text, options);
    } catch (gt::gdml::GdmlError const&) {
    }
    return 0;
}
