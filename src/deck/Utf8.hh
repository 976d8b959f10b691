// Whether bytes are well-formed UTF-8 (RFC 3629: no overlong forms, no surrogates, at most U+10FFFF),
// as TOML requires of every document: text from the command line (--set) is checked before it is
// handed to the TOML parser, so that it is reported as a deck error like any other.
#pragma once

#include <cstddef>
#include <string_view>

namespace gt {

inline bool is_valid_utf8(std::string_view s)
{
    std::size_t i = 0;
    while (i < s.size()) {
        auto const b = static_cast<unsigned char>(s[i]);
        std::size_t n = 0;
        char32_t cp = 0, min = 0;
        if (b < 0x80) {
            ++i;
            continue;
        } else if ((b & 0xE0) == 0xC0) {
            n = 1, cp = b & 0x1F, min = 0x80;
        } else if ((b & 0xF0) == 0xE0) {
            n = 2, cp = b & 0x0F, min = 0x800;
        } else if ((b & 0xF8) == 0xF0) {
            n = 3, cp = b & 0x07, min = 0x10000;
        } else {
            return false;
        }
        for (std::size_t k = 1; k <= n; ++k) {
            if (i + k >= s.size()) return false;
            auto const c = static_cast<unsigned char>(s[i + k]);
            if ((c & 0xC0) != 0x80) return false;
            cp = (cp << 6) | (c & 0x3F);
        }
        if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
        i += n + 1;
    }
    return true;
}

}  // namespace gt
