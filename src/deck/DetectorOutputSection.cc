// [output] of a detector deck: the file name, whether hits are written, how often to checkpoint.
#include "deck/DeckSections.hh"
#include "deck/DetectorSections.hh"

namespace gt::deck {

void read_detector_output(DeckContext& ctx, toml::table const* t, DeckConfig& cfg)
{
    cfg.output.file = cfg.run.name + ".h5";
    if (!t) return;
    cfg.output.where = ctx.where(*t);
    ctx.check_keys(*t, "output", {"file", "hits", "checkpoint_every", "checksums"});
    read_checkpoint_every(ctx, *t, cfg.output);
    if (auto f = ctx.string_at(*t, "output", "file", false, "")) cfg.output.file = *f;
    if (auto b = ctx.bool_at(*t, "output", "hits")) cfg.detector.write_hits = *b;
    if (auto b = ctx.bool_at(*t, "output", "checksums")) cfg.output.checksums = *b;
}

}  // namespace gt::deck
