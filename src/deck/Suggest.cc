// "Did you mean ...?" suggestions by edit distance.
#include "deck/Suggest.hh"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

namespace gt {

namespace {
char lower(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }
}  // namespace

int edit_distance(std::string_view a, std::string_view b)
{
    // d[i][j]: distance between the first i characters of a and the first j of b.
    std::size_t const n = a.size(), m = b.size();
    std::vector<std::vector<int>> d(n + 1, std::vector<int>(m + 1, 0));
    for (std::size_t i = 0; i <= n; ++i) d[i][0] = static_cast<int>(i);
    for (std::size_t j = 0; j <= m; ++j) d[0][j] = static_cast<int>(j);
    for (std::size_t i = 1; i <= n; ++i) {
        for (std::size_t j = 1; j <= m; ++j) {
            int const cost = lower(a[i - 1]) == lower(b[j - 1]) ? 0 : 1;
            d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
            if (i > 1 && j > 1 && lower(a[i - 1]) == lower(b[j - 2]) && lower(a[i - 2]) == lower(b[j - 1]))
                d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
        }
    }
    return d[n][m];
}

std::optional<std::string> closest_name(std::string_view word, std::vector<std::string> const& candidates)
{
    int const limit = word.size() <= 3 ? 1 : 2;
    std::optional<std::string> best;
    int best_distance = limit + 1;
    for (auto const& c : candidates) {
        if (c == word) continue;
        int const d = edit_distance(word, c);
        if (d < best_distance) {
            best_distance = d;
            best = c;
        }
    }
    if (best) return best;
    // A truncated name ("gauss" for "gaussian") is farther than 2 edits but still obvious.
    if (word.size() >= 3) {
        for (auto const& c : candidates) {
            if (c.size() > word.size() && std::equal(word.begin(), word.end(), c.begin(),
                                                     [](char x, char y) { return lower(x) == lower(y); }))
                return c;
        }
    }
    return std::nullopt;
}

std::string did_you_mean(std::string_view word, std::vector<std::string> const& candidates)
{
    auto const best = closest_name(word, candidates);
    return best ? fmt::format(" (did you mean '{}'?)", *best) : std::string();
}

}  // namespace gt
