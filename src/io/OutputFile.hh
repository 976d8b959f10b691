// The HDF5 file a run writes: built under a temporary name, renamed into place only by commit().
//
// A failed or interrupted run must never leave a file that looks complete (DESIGN.md section 4):
// - the file is created as "<final>.tmp-<pid>" in the final file's directory (same file system, so
//   the rename is atomic), and an existing final file stays untouched until commit();
// - destroying an OutputFile that was not committed (an exception unwinding, an early return)
//   closes and deletes the temporary;
// - SIGINT, SIGTERM and SIGHUP delete every live temporary, then the signal takes its previous
//   course: the default action ends the process with that signal, and a handler found in place
//   when an OutputFile is created runs after ours (each OutputFile re-installs ours if something
//   replaced it). An ignored signal stays ignored and deletes nothing. SIGKILL cannot be caught:
//   a "*.tmp-<pid>" file left behind is such a run.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "io/H5Access.hh"
#include "io/H5Handle.hh"

namespace gt {

class OutputFile {
  public:
    //! Creates the temporary file. Throws IoError naming the path (with strerror where the system
    //! said why) when the directory is missing, not a directory or not writable.
    explicit OutputFile(std::string final_path);
    ~OutputFile();
    OutputFile(OutputFile const&) = delete;
    OutputFile& operator=(OutputFile const&) = delete;
    OutputFile(OutputFile&&) = delete;
    OutputFile& operator=(OutputFile&&) = delete;

    std::string const& path() const { return final_path_; }
    std::string const& temp_path() const { return temp_path_; }
    bool committed() const { return committed_; }
    //! The open file, for the h5:: helpers; throws after commit().
    hid_t id() const;

    //! Flushes, closes, syncs and renames the temporary to the final name (replacing an existing
    //! file). Handles still open on this file are closed by it (the file is opened with
    //! H5F_CLOSE_STRONG), so nothing written through them is lost; they are invalid afterwards.
    void commit();

    // ---- helpers addressed by path from the root ("a/b/c"; parents are created as needed) --------
    h5::Group create_group(std::string const& path);
    void write_dataset(std::string const& path, std::span<double const> values);
    void write_dataset(std::string const& path, std::span<std::int32_t const> values);
    void write_dataset(std::string const& path, std::span<std::int64_t const> values);
    void write_dataset(std::string const& path, std::span<std::uint64_t const> values);
    //! `values` row after row, rows * cols of them.
    void write_dataset_2d(std::string const& path, std::span<double const> values, std::size_t rows,
                          std::size_t cols);

    //! Attributes on the group or dataset at `object` ("/" or "" for the root); replaces an existing one.
    void set_attribute(std::string const& object, std::string const& name, std::string_view value);
    void set_attribute(std::string const& object, std::string const& name, char const* value);
    void set_attribute(std::string const& object, std::string const& name, double value);
    void set_attribute(std::string const& object, std::string const& name, std::int32_t value);
    void set_attribute(std::string const& object, std::string const& name, std::uint32_t value);
    void set_attribute(std::string const& object, std::string const& name, std::int64_t value);
    void set_attribute(std::string const& object, std::string const& name, std::uint64_t value);
    void set_attribute(std::string const& object, std::string const& name, std::span<double const> values);
    void set_attribute(std::string const& object, std::string const& name,
                       std::span<std::int64_t const> values);
    void set_attribute(std::string const& object, std::string const& name,
                       std::span<std::uint64_t const> values);
    void set_attribute(std::string const& object, std::string const& name,
                       std::span<std::string const> values);

    //! Marks the group or dataset at `object` as a measurement of the run of kind `kind`
    //! (io/Measurement.hh: timings, schedule figures, provenance; compare reports them apart).
    void mark_measurement(std::string const& object, std::string_view kind);
    //! Marks the attribute `attribute` of the group or dataset at `object` as a measurement.
    void mark_measured_attribute(std::string const& object, std::string const& attribute, std::string_view kind);

  private:
    //! The parent group of a dataset path (created), and the dataset's own name.
    std::pair<h5::Group, std::string> parent_of(std::string const& path);
    template <class T>
    void write_1d(std::string const& path, std::span<T const> values);
    template <class T>
    void set_attr(std::string const& object, std::string const& name, T const& value);

    std::string final_path_;
    std::string temp_path_;
    h5::File file_;
    int signal_slot_ = -1;  //!< index in the signal-cleanup registry, -1 if not registered
    bool committed_ = false;
};

//! "<final>.tmp-<pid>": where an OutputFile for `final_path` is written by this process.
std::string temporary_path_for(std::string const& final_path);

//! A graceful stop (run/StopRequest.hh) takes a SIGINT or SIGTERM before the cleanup above: while a
//! hook is set, the handler offers it the signal first; when it returns true (the run will stop at a
//! safe point, write its checkpoint and remove its own temporaries) nothing is deleted and the signal
//! goes no further. Called from the signal handler: the hook must be async-signal-safe. nullptr: none.
using SignalStopHook = bool (*)(int signal);
void set_signal_stop_hook(SignalStopHook hook);

//! Deletes every live temporary now. Async-signal-safe: for a handler about to end the process.
void remove_output_temporaries() noexcept;

}  // namespace gt
