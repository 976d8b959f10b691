// Failures agreed between ranks: the lowest failing rank reports, every rank ends with its status.
#include "parallel/Agreement.hh"

#include "deck/DeckError.hh"
#include "parallel/Communicator.hh"

namespace gt::parallel {

int exit_code_of(std::exception_ptr const& error)
{
    if (!error) return 0;
    try {
        std::rethrow_exception(error);
    } catch (DeckError const&) {
        return 2;
    } catch (FailedElsewhere const& e) {
        return e.exit_code();
    } catch (...) {
        return 1;
    }
}

void agree(std::exception_ptr error)
{
    Communicator const& world = Communicator::world();
    int const reporter = world.min(error ? world.rank() : world.size());
    if (reporter == world.size()) return;
    int const code = -world.min(-exit_code_of(error));
    if (world.rank() != reporter) throw FailedElsewhere(code);
    try {
        std::rethrow_exception(error);
    } catch (DeckError const&) {
        throw;
    } catch (std::exception const& e) {
        throw AgreedFailure(e.what());
    } catch (...) {
        throw AgreedFailure("unknown error");
    }
}

}  // namespace gt::parallel
