// Fletcher-32 in HDF5's convention, by blocks (the definition is in Fletcher32.hh).
#include "io/Fletcher32.hh"

#include <algorithm>
#include <bit>
#include <cstring>

namespace gt::h5 {
namespace {

constexpr std::uint64_t k_modulus = 65535;
//! Words a group (32 bytes, two vectors) and groups a block. Over a block of N groups each word position k of
//! a group (a vector lane) holds L_k = the sum of its words (<= N * 65535) and P_k = the sum over groups of
//! L_k after the group (<= N (N + 1) / 2 * 65535): N = 256 keeps P_k below 2^32.
constexpr std::size_t k_group_words = 16;
constexpr std::size_t k_groups = 256;

//! Four 32-bit lanes (GCC and Clang vector extensions: SSE2 on x86-64, NEON on ARM; no ABI use).
using Lanes = std::uint32_t __attribute__((vector_size(16)));

//! The big-endian 16-bit word at `p`.
inline std::uint32_t word_at(unsigned char const* p) { return (std::uint32_t(p[0]) << 8) | p[1]; }

}  // namespace

std::uint32_t fletcher32(std::span<std::byte const> data)
{
    auto const* p = reinterpret_cast<unsigned char const*>(data.data());
    std::size_t const words = data.size() / 2;
    // s1, s2: HDF5's sums as residues; whether they are positive (some word is not 0) is kept apart.
    std::uint64_t s1 = 0, s2 = 0;
    bool positive = false;
    std::size_t i = 0;
    while (words - i >= k_group_words) {
        std::size_t const groups = std::min(k_groups, (words - i) / k_group_words);
        // Two vectors a group, of four 4-byte lanes: lane m of vector v holds words 8 v + 2 m (even)
        // and 8 v + 2 m + 1 (odd).
        Lanes sum[2][2] = {}, prefix[2][2] = {};
        unsigned char const* q = p + 2 * i;
        for (std::size_t g = 0; g < groups; ++g, q += 2 * k_group_words) {
            for (int v = 0; v < 2; ++v) {
                Lanes u;
                std::memcpy(&u, q + 16 * v, sizeof u);
                Lanes even, odd;
                if constexpr (std::endian::native == std::endian::little) {  // u = b0 + b1 2^8 + ...
                    even = ((u & 0xffu) << 8) | ((u >> 8) & 0xffu);
                    odd = ((u >> 8) & 0xff00u) | (u >> 24);
                } else {
                    even = u >> 16;
                    odd = u & 0xffffu;
                }
                sum[v][0] += even;
                sum[v][1] += odd;
                prefix[v][0] += sum[v][0];
                prefix[v][1] += sum[v][1];
            }
        }
        // The block's n words w_j (j from 0): S = sum w_j and T = sum (n - j) w_j, what the block adds
        // to sum1 and (besides n * sum1 before it) to sum2. Word j = 16 g + k has weight
        // 16 (N - g) - k: T = 16 sum_k P_k - sum_k k L_k (each lane's term is >= 0).
        std::uint64_t block_sum = 0, block_weighted = 0;
        for (std::size_t k = 0; k < k_group_words; ++k) {
            std::size_t const v = k / 8, m = (k % 8) / 2, parity = k % 2;
            std::uint64_t const l = sum[v][parity][m], pre = prefix[v][parity][m];
            block_sum += l;
            block_weighted += k_group_words * pre - k * l;
        }
        std::size_t const n = groups * k_group_words;
        s2 = (s2 + (n % k_modulus) * s1 + block_weighted) % k_modulus;
        s1 = (s1 + block_sum) % k_modulus;
        positive = positive || block_sum != 0;
        i += n;
    }
    auto const add = [&](std::uint32_t w) {
        positive = positive || w != 0;
        s1 = (s1 + w) % k_modulus;
        s2 = (s2 + s1) % k_modulus;
    };
    for (; i < words; ++i) add(word_at(p + 2 * i));
    if (data.size() % 2 != 0) add(std::uint32_t(p[data.size() - 1]) << 8);  // the odd last byte
    // HDF5's sums are 0 only while every word is 0; a positive sum with a residue of 0 is 65535.
    if (!positive) return 0;
    std::uint32_t const sum1 = s1 == 0 ? 0xffffu : std::uint32_t(s1);
    std::uint32_t const sum2 = s2 == 0 ? 0xffffu : std::uint32_t(s2);
    return (sum2 << 16) | sum1;
}

}  // namespace gt::h5
