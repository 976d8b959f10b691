// The run's output file: temporary name, atomic rename on commit, deletion on failure or signal.
#include "io/OutputFile.hh"

#include <fcntl.h>
#include <pthread.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <stdexcept>

#include <fmt/format.h>

#include "io/Measurement.hh"
namespace gt {
namespace {

// ---- the registry of live temporaries, read by the signal handler ------------------------------
//
// A signal handler may only call async-signal-safe functions (POSIX.1-2017 section 2.4.3): unlink()
// and raise() are; malloc, std::string and HDF5 are not. So the registry is a fixed array of
// fixed-size buffers in static storage, each published by an atomic state (lock-free, hence usable
// from a handler): a slot's path is written while it is 'filling' and read only when 'live'.
constexpr int k_slots = 32;  // one run writes one file; tests open a few at a time
constexpr std::size_t k_path_capacity = 4096;
enum SlotState : int { k_free = 0, k_filling = 1, k_live = 2 };
static_assert(std::atomic<int>::is_always_lock_free);

struct TempSlot {
    std::atomic<int> state{k_free};
    char path[k_path_capacity];
};
TempSlot g_slots[k_slots];

// The dispositions found before ours, so that our handler passes the signal on unchanged.
constexpr int k_signals[3] = {SIGINT, SIGTERM, SIGHUP};
struct sigaction g_previous[3];
volatile std::sig_atomic_t g_handling = 0;
std::atomic<SignalStopHook> g_stop_hook{nullptr};
static_assert(std::atomic<SignalStopHook>::is_always_lock_free);

void remove_temporaries_and_pass_on(int sig, siginfo_t* info, void* context)
{
    int const saved_errno = errno;
    if (SignalStopHook const hook = g_stop_hook.load(); hook != nullptr && hook(sig)) {
        errno = saved_errno;
        return;
    }
    remove_output_temporaries();
    for (int i = 0; i < 3; ++i) {
        if (k_signals[i] != sig) continue;
        struct sigaction const& previous = g_previous[i];
        bool const default_action = (previous.sa_flags & SA_SIGINFO) == 0 &&
                                    (previous.sa_handler == SIG_DFL || previous.sa_handler == SIG_IGN);
        // A second signal after the temporaries are gone ends the process: this also breaks a cycle
        // with a handler that saved ours and re-raises into it.
        if (default_action || g_handling != 0) {
            // The default action, re-raised: delivered when this handler returns, it ends the process
            // as the signal would have without us (the shell and a batch system see "killed by
            // SIGTERM", not a normal exit).
            struct sigaction dfl {};
            dfl.sa_handler = SIG_DFL;
            sigemptyset(&dfl.sa_mask);
            ::sigaction(sig, &dfl, nullptr);
            ::raise(sig);
        } else {
            g_handling = 1;
            if ((previous.sa_flags & SA_SIGINFO) != 0)
                previous.sa_sigaction(sig, info, context);
            else
                previous.sa_handler(sig);
        }
    }
    errno = saved_errno;
}

bool is_ours(struct sigaction const& sa)
{
    return (sa.sa_flags & SA_SIGINFO) != 0 && sa.sa_sigaction == remove_temporaries_and_pass_on;
}

//! Installs our handler wherever it is not the current one. Checked at every OutputFile, not once:
//! code that saves and restores signal handlers around a section (test frameworks do) removes ours.
void install_signal_handlers()
{
    static std::mutex mutex;
    std::lock_guard<std::mutex> lock(mutex);
    // No signal may read g_previous while it changes.
    sigset_t block, old_mask;
    sigemptyset(&block);
    for (int sig : k_signals) sigaddset(&block, sig);
    pthread_sigmask(SIG_BLOCK, &block, &old_mask);
    for (int i = 0; i < 3; ++i) {
        struct sigaction current {};
        if (::sigaction(k_signals[i], nullptr, &current) != 0 || is_ours(current)) continue;
        // A signal the parent chose to ignore (nohup, background jobs) does not end the run: the
        // temporary must stay. A handler the program installed runs after ours.
        if ((current.sa_flags & SA_SIGINFO) == 0 && current.sa_handler == SIG_IGN) continue;
        g_previous[i] = current;
        struct sigaction sa {};
        sa.sa_sigaction = remove_temporaries_and_pass_on;
        sigemptyset(&sa.sa_mask);
        sa.sa_flags = SA_SIGINFO;
        ::sigaction(k_signals[i], &sa, nullptr);
    }
    pthread_sigmask(SIG_SETMASK, &old_mask, nullptr);
}

//! Returns the slot index, or -1 when the path is too long or all slots are taken (then only the
//! destructor, not a signal, removes that temporary).
int register_temporary(std::string const& path)
{
    if (path.size() >= k_path_capacity) return -1;
    for (int i = 0; i < k_slots; ++i) {
        int expected = k_free;
        if (g_slots[i].state.compare_exchange_strong(expected, k_filling, std::memory_order_acquire)) {
            std::memcpy(g_slots[i].path, path.c_str(), path.size() + 1);
            g_slots[i].state.store(k_live, std::memory_order_release);
            return i;
        }
    }
    return -1;
}

void unregister_temporary(int slot)
{
    if (slot >= 0) g_slots[slot].state.store(k_free, std::memory_order_release);
}

std::string directory_of(std::string const& path)
{
    std::string dir = std::filesystem::path(path).parent_path().string();
    return dir.empty() ? std::string(".") : dir;
}

//! fsync() so that the file a rename makes visible is complete on disk, not only in the page cache.
void sync_path(std::string const& path, int flags, bool required)
{
    int const fd = ::open(path.c_str(), flags);
    if (fd < 0 || ::fsync(fd) != 0) {
        int const err = errno;
        if (fd >= 0) ::close(fd);
        if (required) throw IoError(fmt::format("cannot sync '{}' to disk: {}", path, std::strerror(err)));
        return;
    }
    ::close(fd);
}

}  // namespace

void set_signal_stop_hook(SignalStopHook hook) { g_stop_hook.store(hook); }

void remove_output_temporaries() noexcept
{
    for (auto& slot : g_slots)
        if (slot.state.load(std::memory_order_acquire) == k_live) ::unlink(slot.path);
}

std::string temporary_path_for(std::string const& final_path)
{
    return fmt::format("{}.tmp-{}", final_path, static_cast<long>(::getpid()));
}

OutputFile::OutputFile(std::string final_path)
    : final_path_(std::move(final_path)), temp_path_(temporary_path_for(final_path_))
{
    h5::silence_hdf5_errors();
    if (final_path_.empty()) throw IoError("cannot write output: the file name is empty");
    std::string const dir = directory_of(final_path_);
    struct stat st {};
    if (::stat(dir.c_str(), &st) != 0)
        throw IoError(fmt::format("cannot write output '{}': directory '{}': {}", final_path_, dir,
                                  std::strerror(errno)));
    if (!S_ISDIR(st.st_mode))
        throw IoError(fmt::format("cannot write output '{}': '{}' is not a directory", final_path_, dir));
    if (::access(dir.c_str(), W_OK | X_OK) != 0)
        throw IoError(fmt::format("cannot write output '{}': directory '{}' is not writable: {}", final_path_,
                                  dir, std::strerror(errno)));
    if (::stat(final_path_.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
        throw IoError(fmt::format("cannot write output '{}': it is a directory", final_path_));
    if (::lstat(temp_path_.c_str(), &st) == 0)
        throw IoError(
            fmt::format("cannot write output '{}': the temporary '{}' already exists (another output "
                        "to the same file is open in this process, or a killed run left it: remove it)",
                        final_path_, temp_path_));

    install_signal_handlers();
    // Registered before the file exists, so no signal can fall between creating and registering it;
    // the absolute path keeps working if the process changes directory.
    signal_slot_ = register_temporary(std::filesystem::absolute(temp_path_).string());
    try {
        std::string const object = fmt::format("'{}'", temp_path_);
        h5::PropertyList fapl(h5::check_path(H5Pcreate(H5P_FILE_ACCESS), "H5Pcreate", object));
        // The 1.8 file format: large attributes (a long deck text) and creation-order tracking,
        // still readable by every HDF5 1.8+ tool; nothing newer, so old h5py installations read it.
        h5::check_path(H5Pset_libver_bounds(fapl, H5F_LIBVER_V18, H5F_LIBVER_V18), "H5Pset_libver_bounds",
                       object);
        // Closing the file closes every object still open in it: commit() never depends on callers
        // having released their handles, and nothing written through them is lost.
        h5::check_path(H5Pset_fclose_degree(fapl, H5F_CLOSE_STRONG), "H5Pset_fclose_degree", object);
        file_ = h5::File(h5::check_path(H5Fcreate(temp_path_.c_str(), H5F_ACC_EXCL, H5P_DEFAULT, fapl),
                                        "H5Fcreate", object));
    } catch (...) {
        ::unlink(temp_path_.c_str());  // it did not exist before (checked above): whatever is there is ours
        unregister_temporary(signal_slot_);
        throw;
    }
}

OutputFile::~OutputFile()
{
    if (committed_) return;
    file_.reset();
    ::unlink(temp_path_.c_str());
    unregister_temporary(signal_slot_);
}

hid_t OutputFile::id() const
{
    if (!file_.valid())
        throw std::logic_error(fmt::format("output file '{}' is no longer open (committed)", final_path_));
    return file_.get();
}

void OutputFile::commit()
{
    if (committed_) throw std::logic_error(fmt::format("output file '{}' committed twice", final_path_));
    std::string const object = fmt::format("'{}'", temp_path_);
    h5::check_path(H5Fflush(id(), H5F_SCOPE_GLOBAL), "H5Fflush", object);
    file_.close("H5Fclose", object);
    sync_path(temp_path_, O_RDONLY, true);
    if (::rename(temp_path_.c_str(), final_path_.c_str()) != 0)
        throw IoError(
            fmt::format("cannot rename '{}' to '{}': {}", temp_path_, final_path_, std::strerror(errno)));
    committed_ = true;
    // Unregistered only after the rename: a signal before it still removes the temporary.
    unregister_temporary(signal_slot_);
    signal_slot_ = -1;
    // Persist the directory entry too; a failure here loses nothing already visible, so it is not fatal.
    sync_path(directory_of(final_path_), O_RDONLY | O_DIRECTORY, false);
}

// ---- helpers by path -----------------------------------------------------------------------------

h5::Group OutputFile::create_group(std::string const& path) { return h5::create_groups(id(), path); }

std::pair<h5::Group, std::string> OutputFile::parent_of(std::string const& path)
{
    std::size_t const slash = path.find_last_of('/');
    if (slash == std::string::npos) return {h5::create_groups(id(), "/"), path};
    return {h5::create_groups(id(), path.substr(0, slash)), path.substr(slash + 1)};
}

template <class T>
void OutputFile::write_1d(std::string const& path, std::span<T const> values)
{
    auto [group, name] = parent_of(path);
    h5::write_dataset(group, name, values);
}

void OutputFile::write_dataset(std::string const& path, std::span<double const> values)
{
    write_1d(path, values);
}
void OutputFile::write_dataset(std::string const& path, std::span<std::int32_t const> values)
{
    write_1d(path, values);
}
void OutputFile::write_dataset(std::string const& path, std::span<std::int64_t const> values)
{
    write_1d(path, values);
}
void OutputFile::write_dataset(std::string const& path, std::span<std::uint64_t const> values)
{
    write_1d(path, values);
}

void OutputFile::write_dataset_2d(std::string const& path, std::span<double const> values, std::size_t rows,
                                  std::size_t cols)
{
    auto [group, name] = parent_of(path);
    h5::write_dataset_2d(group, name, values, rows, cols);
}

template <class T>
void OutputFile::set_attr(std::string const& object, std::string const& name, T const& value)
{
    h5::Object obj = h5::open_object(id(), object.empty() ? "/" : object);
    h5::write_attribute(obj, name, value);
}

void OutputFile::mark_measurement(std::string const& object, std::string_view kind)
{
    h5::Object obj = h5::open_object(id(), object.empty() ? "/" : object);
    gt::mark_measurement(obj, kind);
}

void OutputFile::mark_measured_attribute(std::string const& object, std::string const& attribute,
                                         std::string_view kind)
{
    h5::Object obj = h5::open_object(id(), object.empty() ? "/" : object);
    gt::mark_measured_attribute(obj, attribute, kind);
}

void OutputFile::set_attribute(std::string const& object, std::string const& name, std::string_view value)
{
    set_attr(object, name, value);
}
void OutputFile::set_attribute(std::string const& object, std::string const& name, char const* value)
{
    set_attr(object, name, std::string_view(value));
}
void OutputFile::set_attribute(std::string const& object, std::string const& name, double value)
{
    set_attr(object, name, value);
}
void OutputFile::set_attribute(std::string const& object, std::string const& name, std::int32_t value)
{
    set_attr(object, name, value);
}
void OutputFile::set_attribute(std::string const& object, std::string const& name, std::uint32_t value)
{
    set_attr(object, name, value);
}
void OutputFile::set_attribute(std::string const& object, std::string const& name, std::int64_t value)
{
    set_attr(object, name, value);
}
void OutputFile::set_attribute(std::string const& object, std::string const& name, std::uint64_t value)
{
    set_attr(object, name, value);
}
void OutputFile::set_attribute(std::string const& object, std::string const& name,
                               std::span<double const> values)
{
    set_attr(object, name, values);
}
void OutputFile::set_attribute(std::string const& object, std::string const& name,
                               std::span<std::int64_t const> values)
{
    set_attr(object, name, values);
}
void OutputFile::set_attribute(std::string const& object, std::string const& name,
                               std::span<std::uint64_t const> values)
{
    set_attr(object, name, values);
}
void OutputFile::set_attribute(std::string const& object, std::string const& name,
                               std::span<std::string const> values)
{
    set_attr(object, name, values);
}

}  // namespace gt
