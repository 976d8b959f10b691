// HDF5 error reporting (one IoError per failed call, HDF5's own printing off) and opening files to read.
#include "io/H5Handle.hh"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

namespace gt::h5 {
namespace {

//! The innermost (most specific) description on HDF5's error stack, e.g. "file signature not found".
std::string take_error_message()
{
    std::string message;
    auto const visit = [](unsigned, H5E_error2_t const* err, void* data) -> herr_t {
        auto& out = *static_cast<std::string*>(data);
        // Walking upward, the first entry is where the error was detected: the most specific reason.
        if (out.empty() && err->desc != nullptr) out = err->desc;
        return 0;
    };
    H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, visit, &message);
    H5Eclear2(H5E_DEFAULT);
    return message;
}

std::string name_of(hid_t id, ssize_t (*get)(hid_t, char*, size_t))
{
    ssize_t const n = get(id, nullptr, 0);
    if (n <= 0) return {};
    std::string s(static_cast<std::size_t>(n) + 1, '\0');
    get(id, s.data(), s.size());
    s.resize(static_cast<std::size_t>(n));
    return s;
}

[[noreturn]] void raise(std::string_view call, std::string const& object, std::string const& reason)
{
    // HDF5's Fletcher-32 filter reports "data error detected by Fletcher32 checksum" (H5Zfletcher32.c).
    if (reason.find("Fletcher32") != std::string::npos || reason.find("checksum") != std::string::npos)
        throw ChecksumError(
            fmt::format("the data of {} do not match their checksum (HDF5's Fletcher-32): the "
                        "file is damaged (HDF5 {}: {})",
                        object, call, reason));
    std::string text = fmt::format("HDF5 {} failed for {}", call, object);
    if (!reason.empty()) text += ": " + reason;
    throw IoError(text);
}

}  // namespace

void silence_hdf5_errors() { H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr); }

std::string describe(hid_t loc, std::string_view name)
{
    if (loc < 0) return fmt::format("'{}'", name);
    // Names are looked up after the failing call's message was taken: these calls may add their own.
    std::string path = name_of(loc, H5Iget_name);
    std::string const file = name_of(loc, H5Fget_name);
    H5Eclear2(H5E_DEFAULT);
    if (!name.empty()) {
        if (path.empty() || path.back() != '/') path += '/';
        path += name;
    }
    if (path.empty()) path = "/";
    return file.empty() ? fmt::format("'{}'", path) : fmt::format("'{}' in file '{}'", path, file);
}

void throw_error(std::string_view call, hid_t loc, std::string_view name)
{
    std::string const reason = take_error_message();
    raise(call, describe(loc, name), reason);
}

void throw_error(std::string_view call, std::string const& object)
{
    std::string const reason = take_error_message();
    raise(call, object, reason);
}

File open_file_readonly(std::string const& path)
{
    silence_hdf5_errors();
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0)
        throw IoError(fmt::format("cannot open '{}': {}", path, std::strerror(errno)));
    if (S_ISDIR(st.st_mode)) throw IoError(fmt::format("cannot open '{}': it is a directory", path));
    htri_t const is_hdf5 = H5Fis_hdf5(path.c_str());
    if (is_hdf5 == 0) throw IoError(fmt::format("'{}' is not an HDF5 file", path));
    check_path(is_hdf5, "H5Fis_hdf5", fmt::format("'{}'", path));
    return File(
        check_path(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), "H5Fopen", fmt::format("'{}'", path)));
}

}  // namespace gt::h5
