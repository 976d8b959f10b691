// Shared helpers for tests that run commands (the gtrack executable, scripts) as a user would.
#pragma once

#include <sys/wait.h>

#include <cstdio>
#include <string>

#include <doctest/doctest.h>

namespace gt::test {

struct CommandResult {
    int status = -1;     //!< exit status; -1 when the command did not exit normally
    std::string output;  //!< stdout and stderr together
};

//! Runs `command` with /bin/sh, capturing stdout and stderr together.
inline CommandResult run_shell(std::string const& command)
{
    CommandResult r;
    FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
    REQUIRE(pipe != nullptr);
    char buffer[4096];
    while (std::size_t n = std::fread(buffer, 1, sizeof buffer, pipe)) r.output.append(buffer, n);
    int const status = ::pclose(pipe);
    r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return r;
}

#ifdef GTRACK_BINARY
//! Runs the gtrack executable under test with `args` (shell words).
inline CommandResult run_gtrack(std::string const& args)
{
    return run_shell(std::string(GTRACK_BINARY) + " " + args);
}
#endif

}  // namespace gt::test
