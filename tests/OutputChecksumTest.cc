// A run's output file carries checksums (HDF5's Fletcher-32 filter on every non-empty dataset, written
// through io/H5Access's one dataset-creation helper): phase-space snapshots, tables and provenance
// alike. One flipped bit in a snapshot is refused by `gtrack compare` and by a run reading the beam from
// the file, each naming the dataset. GTRACK_TEST_NO_CHECKSUMS=1 (a measuring aid) writes the same
// numbers without the filter.
#include <doctest/doctest.h>

#include <fstream>
#include <string>
#include <vector>

#include "ChecksumTestSupport.hh"
#include "CommandTestSupport.hh"
#include "IoTestSupport.hh"
#include "TextTestSupport.hh"
#include "io/H5Access.hh"
#include "io/H5Handle.hh"

using namespace gt;
using namespace gt::test;

namespace {

//! inputs/fodo.toml made small: 2000 protons through 5 cells, a snapshot at the end.
std::string small_fodo(std::string const& dir)
{
    return std::string(GTRACK_BINARY) + " run " + GTRACK_SOURCE_DIR +
           "/inputs/fodo.toml --backend cpu --threads 1 -q --set beam.macroparticles=2000 "
           "--set 'lattice.line=[\"cell*5\"]' -o " +
           dir;
}

}  // namespace

TEST_CASE("an output file's datasets carry checksums; a flipped bit is refused by compare and by a file beam")
{
    TempDir dir;
    std::string const out = dir.file("fodo.h5");
    CommandResult const r = run_shell(small_fodo(out));
    INFO(r.output);
    REQUIRE(r.status == 0);
    std::string snapshot;
    {
        h5::File f = h5::open_file_readonly(out);
        REQUIRE(h5::is_group(f, "data"));
        std::vector<std::string> const steps = h5::list_children(h5::open_group(f, "data"));
        REQUIRE(steps.size() == 1);
        snapshot = "/data/" + steps[0] + "/particles/beam";
        for (std::string const& d : {snapshot + "/position/x", snapshot + "/momentum/z", snapshot + "/id",
                                    std::string("/stats/s"), std::string("/stats/sigma_x")})
            CHECK_MESSAGE(h5::has_checksum(f, d), d);
    }
    std::string const intact = dir.file("intact.h5");
    REQUIRE(run_shell("cp " + out + " " + intact).status == 0);
    CHECK(run_gtrack("compare " + intact + " " + out).status == 0);

    // A low mantissa bit of particle 17's x: one part in 10^15, which no statistic would show.
    flip_stored_bit(out, snapshot + "/position/x", 17, 3);
    CommandResult const compared = run_gtrack("compare " + intact + " " + out);
    INFO(compared.output);
    CHECK(compared.status != 0);
    CHECK(contains(compared.output,
                   "'" + snapshot + "/position/x' in file '" + out + "' do not match their checksum"));
    CHECK(contains(compared.output, "the file is damaged"));

    // A run taking its beam from the damaged file stops, naming the dataset.
    std::string const deck = dir.file("again.toml");
    std::ofstream(deck)
        << "[run]\nname = \"again\"\n[beam]\nparticle = \"proton\"\nkinetic_energy = \"250 MeV\"\n"
           "bunch_charge = \"1 nC\"\ndistribution = \"file\"\nfile = \""
        << out << "\"\n[elements]\nM = { type = \"marker\" }\n[lattice]\nline = [\"M\"]\n"
        << "[output]\nfile = \"" << dir.file("again.h5") << "\"\n";
    CommandResult const again = run_gtrack("run " + deck + " --backend cpu -q");
    INFO(again.output);
    CHECK(again.status != 0);
    CHECK(contains(again.output, "position/x' in file '" + out + "' do not match their checksum"));
    // The intact copy is read.
    CommandResult const fine =
        run_gtrack("run " + deck + " --backend cpu -q --set 'beam.file=\"" + intact + "\"'");
    INFO(fine.output);
    CHECK(fine.status == 0);
}

TEST_CASE("GTRACK_TEST_NO_CHECKSUMS=1 writes the same numbers without the filter (for measuring its cost)")
{
    TempDir dir;
    std::string const with = dir.file("with.h5"), without = dir.file("without.h5");
    REQUIRE(run_shell(small_fodo(with)).status == 0);
    REQUIRE(run_shell("GTRACK_TEST_NO_CHECKSUMS=1 " + small_fodo(without)).status == 0);
    {
        h5::File a = h5::open_file_readonly(with), b = h5::open_file_readonly(without);
        CHECK(h5::has_checksum(a, "/stats/s"));
        CHECK_FALSE(h5::has_checksum(b, "/stats/s"));
    }
    // Everything but the provenance's times and paths agrees.
    CommandResult const c = run_gtrack("compare " + with + " " + without);
    INFO(c.output);
    CHECK(c.status == 0);
}
