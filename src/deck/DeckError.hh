// Errors in a deck: each names file, line, column, key path and what was expected; many per deck.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "deck/Config.hh"

namespace gt {

struct Diagnostic {
    SourceLocation where;
    std::string key;      //!< full key path, e.g. "elements.QF.k1"
    std::string message;  //!< what is wrong and what was expected

    //! "deck.toml:12:5: elements.QF.k1: expected ..." (the form compilers use, so editors jump to it)
    std::string format() const
    {
        std::string text = where.file;
        if (where.line > 0) text += ":" + std::to_string(where.line) + ":" + std::to_string(where.column);
        text += ": ";
        if (!key.empty()) text += key + ": ";
        return text + message;
    }
};

//! Thrown once with every problem found, so a user fixes a deck in one pass.
class DeckError : public std::runtime_error {
  public:
    explicit DeckError(std::vector<Diagnostic> diagnostics)
        : std::runtime_error(join(diagnostics)), diagnostics_(std::move(diagnostics))
    {
    }
    DeckError(SourceLocation where, std::string key, std::string message)
        : DeckError(std::vector<Diagnostic>{Diagnostic{std::move(where), std::move(key), std::move(message)}})
    {
    }
    std::vector<Diagnostic> const& diagnostics() const { return diagnostics_; }

  private:
    static std::string join(std::vector<Diagnostic> const& ds)
    {
        std::string text;
        for (auto const& d : ds) text += (text.empty() ? "" : "\n") + d.format();
        return text;
    }
    std::vector<Diagnostic> diagnostics_;
};

}  // namespace gt
