// RAII ownership of HDF5 identifiers, and the one exception type every I/O failure becomes.
//
// Every HDF5 call in gtrack goes through check(): a negative return value becomes an IoError naming
// the call, the object path and file, and HDF5's own innermost reason. HDF5's automatic printing of
// its error stack is switched off (silence_hdf5_errors) so a user sees one message, from main.
#pragma once

#include <hdf5.h>

#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

namespace gt {

//! A file could not be created, written, read or understood. The message names the path.
class IoError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

//! Data read back do not match the checksum stored with them (HDF5's Fletcher-32 filter): the file is
//! damaged. The message names the dataset and the file.
class ChecksumError : public IoError {
  public:
    using IoError::IoError;
};

namespace h5 {

//! Turns HDF5's automatic error-stack printing off for the calling thread (idempotent, cheap).
void silence_hdf5_errors();

//! "'/data/0/particles/x' in file 'run.h5'": the object `name` below `loc`, for error messages.
std::string describe(hid_t loc, std::string_view name = {});

//! Throws IoError "<call> failed for <object below loc>: <HDF5's reason>"; clears HDF5's error stack.
[[noreturn]] void throw_error(std::string_view call, hid_t loc, std::string_view name);
//! The same, for calls that have no location yet (creating or opening a file).
[[noreturn]] void throw_error(std::string_view call, std::string const& object);

//! Returns `result` unless it is negative (HDF5's failure value for hid_t, herr_t, htri_t, ssize_t).
template <class R>
R check(R result, std::string_view call, hid_t loc, std::string_view name = {})
{
    if (result < 0) throw_error(call, loc, name);
    return result;
}

template <class R>
R check_path(R result, std::string_view call, std::string const& object)
{
    if (result < 0) throw_error(call, object);
    return result;
}

//! Owns one HDF5 identifier and closes it with `Close` on destruction. Movable, not copyable.
//! Converts implicitly to hid_t so that a handle passes straight into the C API.
template <herr_t (*Close)(hid_t)>
class Handle {
  public:
    Handle() = default;
    explicit Handle(hid_t id) : id_(id) {}
    ~Handle() { reset(); }
    Handle(Handle&& other) noexcept : id_(std::exchange(other.id_, H5I_INVALID_HID)) {}
    Handle& operator=(Handle&& other) noexcept
    {
        if (this != &other) {
            reset();
            id_ = std::exchange(other.id_, H5I_INVALID_HID);
        }
        return *this;
    }
    Handle(Handle const&) = delete;
    Handle& operator=(Handle const&) = delete;

    hid_t get() const { return id_; }
    operator hid_t() const { return id_; }
    bool valid() const { return id_ >= 0; }

    //! Closes now, ignoring failure: for destructors and unwinding, where nothing can be reported.
    void reset()
    {
        if (id_ >= 0) Close(id_);
        id_ = H5I_INVALID_HID;
    }
    //! Closes now and throws if closing fails (closing a file writes its metadata).
    void close(std::string_view call, std::string const& object)
    {
        hid_t const id = std::exchange(id_, H5I_INVALID_HID);
        if (id >= 0) check_path(Close(id), call, object);
    }

  private:
    hid_t id_ = H5I_INVALID_HID;
};

using File = Handle<H5Fclose>;
using Group = Handle<H5Gclose>;
using Dataset = Handle<H5Dclose>;
using Dataspace = Handle<H5Sclose>;
using Datatype = Handle<H5Tclose>;
using Attribute = Handle<H5Aclose>;
using PropertyList = Handle<H5Pclose>;
using Object = Handle<H5Oclose>;  //!< a group or dataset opened by path (H5Oopen)

//! Opens an existing HDF5 file read-only. Errors say plainly when the file is missing, unreadable
//! (with strerror) or not HDF5 at all.
File open_file_readonly(std::string const& path);

}  // namespace h5
}  // namespace gt
