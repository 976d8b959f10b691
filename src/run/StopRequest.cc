// The stop flag set by the signal handlers and polled by the run loops.
#include "run/StopRequest.hh"

#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include <fmt/format.h>

#include "io/OutputFile.hh"

namespace gt {
namespace {

constexpr int k_signals[3] = {SIGTERM, SIGINT, SIGUSR1};
constexpr char const* k_names[3] = {"SIGTERM", "SIGINT", "SIGUSR1"};
// Only lock-free atomics and write(), unlink(), sigaction() and raise() are touched in a handler
// (async-signal-safe, POSIX.1-2017 section 2.4.3).
std::atomic<int> g_signal{0};     //!< the signal that asked to stop, 0: none
std::atomic<bool> g_armed{false};  //!< a StopRequest is alive
std::atomic<bool> g_usr1_only{false};  //!< SIGTERM and SIGINT end the process (several MPI ranks)
static_assert(std::atomic<int>::is_always_lock_free && std::atomic<bool>::is_always_lock_free);
struct sigaction g_previous[3];
bool g_installed[3] = {false, false, false};

int index_of(int sig)
{
    for (int i = 0; i < 3; ++i)
        if (k_signals[i] == sig) return i;
    return -1;
}

//! The first signal while armed: remembered, announced, taken. Later ones are not taken.
bool take_stop_signal(int sig)
{
    int const i = index_of(sig);
    if (i < 0 || !g_armed.load() || (g_usr1_only.load() && sig != SIGUSR1)) return false;
    int expected = 0;
    if (!g_signal.compare_exchange_strong(expected, sig)) return false;
    char message[160] = "\ngtrack: ";
    std::strcat(message, k_names[i]);
    std::strcat(message, " received: stopping at the next safe point (send it again to end at once)\n");
    ssize_t const written = ::write(STDERR_FILENO, message, std::strlen(message));
    (void)written;  // nothing to do about a closed stderr in a handler
    return true;
}

void on_stop_signal(int sig)
{
    int const saved_errno = errno;
    if (take_stop_signal(sig)) {
        errno = saved_errno;
        return;
    }
    // A second signal (or one after the run): end at once, as the signal would have without us.
    remove_output_temporaries();
    struct sigaction dfl {};
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    ::sigaction(sig, &dfl, nullptr);
    ::raise(sig);
    errno = saved_errno;
}

//! The progress a test hook fires at, -1 when its variable is not set.
std::int64_t test_hook(char const* variable)
{
    char const* v = std::getenv(variable);
    if (v == nullptr || *v == '\0') return -1;
    char* end = nullptr;
    long long const n = std::strtoll(v, &end, 10);
    if (*end != '\0' || n < 0)
        throw std::runtime_error(
            fmt::format("{}={}: expected a non-negative integer (the progress to act at)", variable, v));
    return n;
}

}  // namespace

StopRequest::StopRequest(bool usr1_only) : usr1_only_(usr1_only)
{
    if (g_armed.exchange(true)) throw std::logic_error("only one StopRequest may be alive at a time");
    g_usr1_only.store(usr1_only);
    g_signal.store(0);
    try {
        test_stop_at_ = test_hook(k_test_stop_variable);
        test_kill_at_ = test_hook(k_test_kill_variable);
        test_stop_track_at_ = test_hook(k_test_stop_track_variable);
    } catch (...) {
        g_armed.store(false);
        throw;
    }
    for (int i = 0; i < 3; ++i) {
        if (usr1_only && k_signals[i] != SIGUSR1) continue;  // as without gtrack (the output's cleanup)
        struct sigaction current {};
        if (::sigaction(k_signals[i], nullptr, &current) != 0) continue;
        if ((current.sa_flags & SA_SIGINFO) == 0 && current.sa_handler == SIG_IGN) continue;
        struct sigaction sa {};
        sa.sa_handler = on_stop_signal;
        sigemptyset(&sa.sa_mask);
        g_previous[i] = current;
        g_installed[i] = ::sigaction(k_signals[i], &sa, nullptr) == 0;
    }
    // The output files' cleanup handler (io/OutputFile.cc) may sit in front of ours for SIGINT and
    // SIGTERM: it offers us the first signal before deleting anything.
    set_signal_stop_hook(take_stop_signal);
}

StopRequest::~StopRequest()
{
    set_signal_stop_hook(nullptr);
    g_armed.store(false);
    g_usr1_only.store(false);
    for (int i = 0; i < 3; ++i) {
        if (g_installed[i]) ::sigaction(k_signals[i], &g_previous[i], nullptr);
        g_installed[i] = false;
    }
}

bool StopRequest::stop_here(std::int64_t progress)
{
    if (test_kill_at_ >= 0 && progress >= test_kill_at_) ::raise(SIGKILL);
    if (test_stop_at_ >= 0 && progress >= test_stop_at_) {
        test_stop_at_ = -1;
        ::raise(usr1_only_ ? SIGUSR1 : SIGTERM);  // the real signal path, delivered before raise() returns
    }
    return requested();
}

bool StopRequest::stop_within(std::int64_t tracked)
{
    if (test_stop_track_at_ >= 0 && tracked >= test_stop_track_at_) {
        test_stop_track_at_ = -1;
        ::raise(usr1_only_ ? SIGUSR1 : SIGTERM);
    }
    return requested();
}

bool StopRequest::requested() const { return g_signal.load() != 0; }

std::string StopRequest::signal_name() const
{
    int const i = index_of(g_signal.load());
    return i < 0 ? std::string() : std::string(k_names[i]);
}

}  // namespace gt
