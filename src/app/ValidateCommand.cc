// gtrack validate DECK: the deck on the CPU and on the GPU, compared after every stage.
#include "app/ValidateCommand.hh"

#include <cstdio>
#include <fstream>
#include <stdexcept>

#include <fmt/format.h>

#include "deck/DeckReader.hh"
#include "kernels/core/Device.hh"
#include "kernels/cpu/Executor.hh"
#include "run/BeamDetectorRun.hh"
#include "run/DetectorRun.hh"
#include "run/DeviceMemory.hh"
#include "run/Validation.hh"

namespace gt {

namespace {

StatsWhere parse_stages(std::string const& s)
{
    if (s == "slice") return StatsWhere::every_slice;
    if (s == "element") return StatsWhere::every_element;
    if (s == "turn") return StatsWhere::turn;
    if (s == "end") return StatsWhere::end;
    throw std::runtime_error(fmt::format("--stages: expected slice, element, turn or end, got '{}'", s));
}

}  // namespace

int validate_with_backends(DeckConfig const& deck, ValidateOptions const& options, BeamKernels& reference,
                           BeamKernels& candidate)
{
    ValidationOptions vo;
    vo.stages = parse_stages(options.stages);
    if (!options.tolerance_file.empty()) vo.tolerances.read_file(options.tolerance_file);
    try {
        for (auto const& v : options.rtol) vo.tolerances.add_option("--rtol", v);
        for (auto const& v : options.atol) vo.tolerances.add_option("--atol", v);
        if (!options.test_perturb_kick.empty())
            vo.perturb_candidate = KickPerturbation::parse(options.test_perturb_kick);
    } catch (std::invalid_argument const& e) {
        throw std::runtime_error(e.what());
    }
    std::string const report_path = options.report.empty() ? deck.run.name + "-validate.md" : options.report;
    // Open the report first: a run that cannot write it fails before tracking.
    std::ofstream report(report_path);
    if (!report) throw std::runtime_error(fmt::format("cannot write the report file '{}'", report_path));

    ValidationResult const result = validate_beamline(deck, reference, candidate, vo);
    std::fputs(validation_summary(result, options.rows).c_str(), stdout);
    report << validation_report(result);
    report.close();
    if (!report) throw std::runtime_error(fmt::format("writing the report file '{}' failed", report_path));
    std::printf("report: %s\n", report_path.c_str());
    return result.ok() ? 0 : 1;
}

int validate_command(CommandOptions const& options, ValidateOptions const& validate)
{
    DeckConfig const deck = read_deck(options.deck, options.overrides);
    cpu::set_thread_count(options.threads);
    if (!device::compiled_in() || device::count() == 0) {
        std::fprintf(
            stderr,
            "gtrack validate: no GPU to validate against (%s): nothing was compared, no report written\n",
            device::compiled_in()
                ? "this gtrack has the CUDA backend, but no GPU is visible: run it where nvidia-smi shows one"
                : "this gtrack was built without CUDA: build with -DGTRACK_CUDA=ON on a machine with the "
                  "CUDA "
                  "toolkit, and run it there");
        return 77;
    }
    if (deck.run.kind == "detector") return validate_detector(deck, validate.report);
    check_device_memory(estimate_beamline_device_memory(deck));
    std::unique_ptr<BeamKernels> cpu = make_cpu_beam_kernels();
    std::unique_ptr<BeamKernels> gpu = make_cuda_beam_kernels();
    int const beam = validate_with_backends(deck, validate, *cpu, *gpu);
    if (!deck.detector.along_beamline) return beam;
    // A detector beside the lattice: its part from the beam part's primaries, CPU against GPU, bit for bit.
    std::string const report =
        validate.report.empty() ? deck.run.name + "-validate-detector.md" : validate.report + ".detector.md";
    int const detector = validate_beam_detector(deck, report);
    return beam != 0 ? beam : detector;
}

}  // namespace gt
