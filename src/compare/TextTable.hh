// Aligned plain-text and markdown tables for the reports of `validate`, `compare` and `regress`.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

namespace gt {

class TextTable {
  public:
    explicit TextTable(std::vector<std::string> header) : header_(std::move(header)) {}
    void add_row(std::vector<std::string> row)
    {
        row.resize(header_.size());
        rows_.push_back(std::move(row));
    }
    std::size_t rows() const { return rows_.size(); }
    std::vector<std::string> const& header() const { return header_; }
    std::vector<std::vector<std::string>> const& row_cells() const { return rows_; }

    //! Columns padded to their widest cell, two spaces apart, each line prefixed by `indent`.
    std::string text(std::string const& indent = "  ") const
    {
        std::vector<std::size_t> width(header_.size());
        for (std::size_t c = 0; c < header_.size(); ++c) width[c] = header_[c].size();
        for (auto const& r : rows_)
            for (std::size_t c = 0; c < r.size(); ++c) width[c] = std::max(width[c], r[c].size());
        std::string out;
        auto const line = [&](std::vector<std::string> const& r) {
            std::string l = indent;
            for (std::size_t c = 0; c < r.size(); ++c) {
                l += r[c];
                if (c + 1 < r.size()) l += std::string(width[c] - r[c].size() + 2, ' ');
            }
            out += l + "\n";
        };
        line(header_);
        for (auto const& r : rows_) line(r);
        return out;
    }

    //! A GitHub-flavoured markdown table.
    std::string markdown() const
    {
        auto const cell = [](std::string const& c) {  // a '|' inside a cell would end it
            std::string e;
            for (char ch : c) e += ch == '|' ? std::string("\\|") : std::string(1, ch);
            return e;
        };
        std::string out = "|";
        for (auto const& h : header_) out += " " + cell(h) + " |";
        out += "\n|";
        for (std::size_t c = 0; c < header_.size(); ++c) out += "---|";
        out += "\n";
        for (auto const& r : rows_) {
            out += "|";
            for (auto const& c : r) out += " " + cell(c) + " |";
            out += "\n";
        }
        return out;
    }

  private:
    std::vector<std::string> header_;
    std::vector<std::vector<std::string>> rows_;
};

}  // namespace gt
