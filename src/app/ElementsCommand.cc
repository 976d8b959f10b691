// gtrack elements: the element registry written out, as docs/decks.md's tables or as JSON for the importers.
#include <cstdio>

#include "app/Commands.hh"
#include "deck/ElementRegistry.hh"

namespace gt {

int elements_command(bool json)
{
    std::string const text = json ? element_registry_json() : element_tables_markdown();
    std::fputs(text.c_str(), stdout);
    return 0;
}

}  // namespace gt
