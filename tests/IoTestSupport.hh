// Shared helpers for the HDF5 output tests: a scratch directory under /tmp and file checks.
#pragma once

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "io/H5Handle.hh"

namespace gt::test {

//! A fresh directory made by mkdtemp, removed with its contents when the test ends.
class TempDir {
  public:
    TempDir()
    {
        char templ[] = "/tmp/gtrack-io-XXXXXX";
        if (::mkdtemp(templ) == nullptr) throw std::runtime_error("mkdtemp failed");
        path_ = templ;
    }
    ~TempDir()
    {
        std::error_code ec;
        std::filesystem::permissions(path_, std::filesystem::perms::owner_all, ec);
        std::filesystem::remove_all(path_, ec);
    }
    TempDir(TempDir const&) = delete;
    TempDir& operator=(TempDir const&) = delete;

    std::string const& path() const { return path_; }
    std::string file(std::string const& name) const { return path_ + "/" + name; }
    //! Names of the entries in the directory (to prove nothing was left behind).
    std::vector<std::string> entries() const
    {
        std::vector<std::string> names;
        for (auto const& e : std::filesystem::directory_iterator(path_)) names.push_back(e.path().filename());
        return names;
    }

  private:
    std::string path_;
};

inline bool file_exists(std::string const& path)
{
    struct stat st {};
    return ::lstat(path.c_str(), &st) == 0;
}

//! The message of the IoError `f` throws ("" if it throws nothing).
template <class F>
std::string io_error_of(F&& f)
{
    try {
        f();
    } catch (IoError const& e) {
        return e.what();
    }
    return {};
}

}  // namespace gt::test
