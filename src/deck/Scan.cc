// Scan points <-> value indices, output-name templates, and the job-array index from the environment.
#include "deck/Scan.hh"

#include <charconv>
#include <cstdlib>
#include <limits>

#include <fmt/format.h>

#include "deck/Suggest.hh"

namespace gt {

std::uint64_t ScanConfig::size() const
{
    if (parameters.empty()) return 0;
    if (mode == ScanMode::zip) return parameters.front().labels.size();
    std::uint64_t n = 1;
    for (auto const& p : parameters) {
        auto const count = static_cast<std::uint64_t>(p.labels.size());
        if (count != 0 && n > std::numeric_limits<std::uint64_t>::max() / count)
            throw ScanError("the scan has more than 2^64 points");
        n *= count;
    }
    return n;
}

std::vector<std::size_t> ScanConfig::value_indices(std::uint64_t point) const
{
    std::uint64_t const n = size();
    if (point >= n)
        throw std::out_of_range(
            n == 0 ? fmt::format("scan point {} does not exist: the deck has no [scan]", point)
                   : fmt::format("scan point {} does not exist: the scan has {} point{} "
                                 "(0 to {})",
                                 point, n, n == 1 ? "" : "s", n - 1));
    std::vector<std::size_t> idx(parameters.size());
    if (mode == ScanMode::zip) {
        for (auto& i : idx) i = static_cast<std::size_t>(point);
        return idx;
    }
    // Mixed radix, the last parameter the fastest digit.
    for (std::size_t k = parameters.size(); k-- > 0;) {
        auto const count = static_cast<std::uint64_t>(parameters[k].labels.size());
        idx[k] = static_cast<std::size_t>(point % count);
        point /= count;
    }
    return idx;
}

std::uint64_t ScanConfig::point_of(std::vector<std::size_t> const& value_indices) const
{
    if (value_indices.size() != parameters.size())
        throw std::invalid_argument(fmt::format("point_of: {} value indices for {} parameters",
                                                value_indices.size(), parameters.size()));
    for (std::size_t k = 0; k < parameters.size(); ++k)
        if (value_indices[k] >= parameters[k].labels.size())
            throw std::out_of_range(fmt::format("{} has {} values; no value {}", parameters[k].key,
                                                parameters[k].labels.size(), value_indices[k]));
    if (mode == ScanMode::zip) {
        for (auto i : value_indices)
            if (i != value_indices.front())
                throw std::invalid_argument("a zipped scan takes the same value index for every parameter");
        return value_indices.empty() ? 0 : value_indices.front();
    }
    std::uint64_t point = 0;
    for (std::size_t k = 0; k < parameters.size(); ++k)
        point = point * parameters[k].labels.size() + value_indices[k];
    return point;
}

std::vector<std::string> ScanConfig::labels_at(std::uint64_t point) const
{
    auto const idx = value_indices(point);
    std::vector<std::string> labels;
    for (std::size_t k = 0; k < parameters.size(); ++k) labels.push_back(parameters[k].labels[idx[k]]);
    return labels;
}

std::string ScanConfig::describe_point(std::uint64_t point) const
{
    auto const labels = labels_at(point);
    std::string text;
    for (std::size_t k = 0; k < parameters.size(); ++k)
        text += fmt::format("{}{} = {}", k ? ", " : "", parameters[k].key, labels[k]);
    return text;
}

namespace {

//! A value label made safe for a file name: "50 MeV" -> "50_MeV".
std::string file_safe(std::string_view label)
{
    std::string out;
    for (char c : label) {
        bool const ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                        c == '.' || c == '+' || c == '-' || c == '_';
        if (ok)
            out += c;
        else if (out.empty() || out.back() != '_')
            out += '_';
    }
    return out;
}

//! The parameter a template field names: the whole key path, or its last segment if only one
//! parameter has it. -1 if none; -2 if the last segment is ambiguous.
int find_parameter(ScanConfig const& scan, std::string_view field)
{
    int by_last = -1;
    for (std::size_t k = 0; k < scan.parameters.size(); ++k) {
        std::string const& key = scan.parameters[k].key;
        if (key == field) return static_cast<int>(k);
        auto const dot = key.rfind('.');
        std::string_view const last =
            dot == std::string::npos ? std::string_view(key) : std::string_view(key).substr(dot + 1);
        if (last == field) by_last = by_last == -1 ? static_cast<int>(k) : -2;
    }
    return by_last;
}

}  // namespace

std::string expand_output_name(std::string_view pattern, std::string const& run_name, ScanConfig const& scan,
                               std::optional<std::uint64_t> point)
{
    std::string out;
    std::vector<std::string> labels;
    if (point) labels = scan.labels_at(*point);
    for (std::size_t i = 0; i < pattern.size(); ++i) {
        char const c = pattern[i];
        if (c == '}') {
            if (i + 1 < pattern.size() && pattern[i + 1] == '}')
                ++i;
            else
                throw ScanError(fmt::format("'{}': a lone '}}' (write '}}}}' for a brace)", pattern));
            out += '}';
            continue;
        }
        if (c != '{') {
            out += c;
            continue;
        }
        if (i + 1 < pattern.size() && pattern[i + 1] == '{') {
            out += '{';
            ++i;
            continue;
        }
        auto const close = pattern.find('}', i);
        if (close == std::string_view::npos)
            throw ScanError(fmt::format("'{}': '{{' without a closing '}}'", pattern));
        std::string_view field = pattern.substr(i + 1, close - i - 1);
        i = close;
        std::string_view spec;
        if (auto const colon = field.find(':'); colon != std::string_view::npos) {
            spec = field.substr(colon + 1);
            field = field.substr(0, colon);
        }
        if (field == "index") {
            if (scan.empty()) throw ScanError(fmt::format("'{}': {{index}} needs a [scan] table", pattern));
            if (!point) throw ScanError(fmt::format("'{}': {{index}} needs a scan point", pattern));
            try {
                out += fmt::format(fmt::runtime(fmt::format("{{:{}}}", spec)), *point);
            } catch (fmt::format_error const& e) {
                throw ScanError(fmt::format("'{}': bad format '{}' for {{index}} ({}); e.g. {{index:04}}",
                                            pattern, spec, e.what()));
            }
            continue;
        }
        if (!spec.empty())
            throw ScanError(fmt::format("'{}': only {{index}} takes a format, not {{{}}}", pattern, field));
        if (field == "name") {
            out += run_name;
            continue;
        }
        int const k = find_parameter(scan, field);
        if (k == -2)
            throw ScanError(
                fmt::format("'{}': {{{}}} is the last part of more than one scanned key; write the "
                            "whole key path",
                            pattern, field));
        if (k < 0) {
            std::vector<std::string> known = {"index", "name"};
            for (auto const& p : scan.parameters) known.push_back(p.key);
            throw ScanError(
                fmt::format("'{}': unknown field {{{}}}: use {{index}}, {{name}} or a scanned key "
                            "path{}",
                            pattern, field, did_you_mean(field, known)));
        }
        if (!point) throw ScanError(fmt::format("'{}': {{{}}} needs a scan point", pattern, field));
        out += file_safe(labels[static_cast<std::size_t>(k)]);
    }
    return out;
}

bool output_name_uses_scan(std::string_view pattern)
{
    for (std::size_t i = 0; i < pattern.size(); ++i) {
        if (pattern[i] != '{') continue;
        if (i + 1 < pattern.size() && pattern[i + 1] == '{') {
            ++i;
            continue;
        }
        auto const close = pattern.find('}', i);
        if (close == std::string_view::npos) return false;
        std::string_view field = pattern.substr(i + 1, close - i - 1);
        field = field.substr(0, field.find(':'));
        if (field != "name") return true;
        i = close;
    }
    return false;
}

namespace {

std::optional<std::uint64_t> whole_number(std::string_view text)
{
    std::uint64_t v = 0;
    auto const [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return v;
}

}  // namespace

std::uint64_t parse_scan_index(std::string const& text)
{
    if (text == "env") return scan_index_from_environment().point;
    if (auto v = whole_number(text)) return *v;
    throw ScanError(fmt::format("--scan-index: expected a whole number >= 0 or 'env', got '{}'", text));
}

ArrayTask scan_index_from_environment(std::function<char const*(char const*)> const& getenv)
{
    struct Source {
        char const* variable;
        std::uint64_t first;  //!< the scheduler's first task number
    };
    // Torque/PBS and Slurm arrays may start at 0; LSF and Grid Engine task numbers start at 1.
    static constexpr Source sources[] = {{"SLURM_ARRAY_TASK_ID", 0},
                                         {"PBS_ARRAYID", 0},
                                         {"PBS_ARRAY_INDEX", 0},
                                         {"LSB_JOBINDEX", 1},
                                         {"SGE_TASK_ID", 1}};
    std::string names;
    for (auto const& s : sources) {
        names += fmt::format("{}{}", names.empty() ? "" : ", ", s.variable);
        char const* value = getenv ? getenv(s.variable) : std::getenv(s.variable);
        if (!value || !*value) continue;
        std::string_view const v(value);
        // Outside an array job Grid Engine sets SGE_TASK_ID=undefined and LSF sets LSB_JOBINDEX=0.
        if (v == "undefined" || (s.first == 1 && v == "0")) continue;
        auto const n = whole_number(v);
        if (!n || *n < s.first)
            throw ScanError(
                fmt::format("--scan-index env: {}={} is not a job-array task number (a whole number "
                            ">= {})",
                            s.variable, v, s.first));
        return ArrayTask{s.variable, std::string(v), *n - s.first};
    }
    throw ScanError(
        fmt::format("--scan-index env: no job-array task index in the environment (none of {} is "
                    "set; is this a task of a job array?). Give the point as --scan-index N",
                    names));
}

}  // namespace gt
