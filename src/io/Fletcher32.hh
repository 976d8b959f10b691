// The Fletcher-32 checksum as HDF5's fletcher32 filter stores it after each chunk (ChecksummedChunks.hh).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace gt::h5 {

//! Fletcher-32 of `data` in HDF5's convention (HDF5 User's Guide, "Fletcher32 checksum" filter; the
//! algorithm is Fletcher's, J. G. Fletcher, IEEE Trans. Commun. 30 (1982) 247, in the 16-bit-word form
//! of Wikipedia's "Fletcher's checksum"):
//! - the bytes are read as 16-bit words, each pair big-endian (w = b[2i] * 256 + b[2i+1]); an odd
//!   last byte b is one more word, b * 256;
//! - sum1 = the sum of the words, sum2 = the sum over words of sum1 after that word, both modulo
//!   65535 as HDF5 keeps them: it folds its 32-bit sums every 360 words (the most that cannot
//!   overflow), and 2^16 = 1 mod 65535, so a folded sum keeps its residue and stays positive once
//!   positive: 0 when every word is 0, else in 1..65535 (65535 for a residue of 0);
//! - the checksum is sum2 * 65536 + sum1, stored after the chunk's bytes as a little-endian uint32.
//! This computes the residues by blocks (a block's word sum and its sum weighted by the number of
//! words from each word to the block's end, in 32-bit lanes the compiler vectorises), not word by
//! word; the value is the same (tests/Fletcher32Test.cc checks it against chunks HDF5 wrote).
std::uint32_t fletcher32(std::span<std::byte const> data);

//! `value` as the four bytes HDF5 stores after a chunk (little-endian).
inline void store_fletcher32(std::uint32_t value, std::byte* out)
{
    for (int i = 0; i < 4; ++i) out[i] = static_cast<std::byte>((value >> (8 * i)) & 0xffu);
}

}  // namespace gt::h5
