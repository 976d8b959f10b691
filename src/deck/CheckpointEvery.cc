// Reading output.checkpoint_every of [output]: a count of turns or entries, or a wall time.
#include "deck/CheckpointEvery.hh"

#include <toml++/toml.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <stdexcept>
#include <string>

#include <fmt/format.h>

#include "deck/DeckSections.hh"

namespace gt {

CheckpointEvery checkpoint_every_wall_time(std::string_view text)
{
    auto const fail = [&] {
        return std::invalid_argument(fmt::format(
            "expected a wall time such as \"30 min\" (units s, min, h) or a number of turns, got \"{}\"",
            text));
    };
    std::size_t const begin = text.find_first_not_of(' ');
    if (begin == std::string_view::npos) throw fail();
    double number = 0;
    auto const [end, ec] = std::from_chars(text.data() + begin, text.data() + text.size(), number);
    if (ec != std::errc() || !std::isfinite(number)) throw fail();
    std::string_view unit = text.substr(std::size_t(end - text.data()));
    unit.remove_prefix(std::min(unit.find_first_not_of(' '), unit.size()));
    while (!unit.empty() && unit.back() == ' ') unit.remove_suffix(1);
    double const scale = unit == "s" ? 1.0 : unit == "min" ? 60.0 : unit == "h" ? 3600.0 : 0.0;
    if (scale == 0) throw fail();
    if (number <= 0) throw std::invalid_argument(fmt::format("the wall time must be > 0, got \"{}\"", text));
    CheckpointEvery every;
    every.seconds = number * scale;
    return every;
}

CheckpointEvery checkpoint_every_steps(std::int64_t steps)
{
    if (steps < 1)
        throw std::invalid_argument(
            fmt::format("expected at least 1 (turns of a ring, table entries of a single pass, events of a "
                        "detector run), got {}",
                        steps));
    CheckpointEvery every;
    every.steps = steps;
    return every;
}

namespace deck {

void read_checkpoint_every(DeckContext& ctx, toml::table const& t, OutputConfig& out)
{
    toml::node const* n = t.get("checkpoint_every");
    if (n == nullptr) return;
    try {
        if (auto const* i = n->as_integer())
            out.checkpoint_every = checkpoint_every_steps(i->get());
        else if (auto const* text = n->as_string())
            out.checkpoint_every = checkpoint_every_wall_time(text->get());
        else
            throw std::invalid_argument(k_checkpoint_every_expected);
    } catch (std::invalid_argument const& e) {
        ctx.error(ctx.where(*n), "output.checkpoint_every", e.what());
    }
}

}  // namespace deck
}  // namespace gt
