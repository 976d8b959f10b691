// Checksummed chunks: a few threads fill and checksum chunk buffers, the caller writes them in order.
#include "io/ChecksummedChunks.hh"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string_view>

#include <fmt/format.h>

#include "io/ChunkPipeline.hh"
#include "io/Fletcher32.hh"

namespace gt::h5 {
namespace {

constexpr std::size_t k_checksum_bytes = 4;

bool filter_path_forced()
{
    char const* v = std::getenv(k_filter_checksums_variable);
    return v != nullptr && *v != '\0' && std::string_view(v) != "0";
}

//! Chunk `index` (from `first`) of `values` into `out`, ready to store (chunk_bytes + k_checksum_bytes).
void fill_chunk(ChecksummedLayout const& layout, std::span<std::byte const> values, std::size_t index,
                std::byte* out)
{
    std::size_t const chunk_bytes = layout.chunk_values * layout.value_bytes;
    std::size_t const begin = index * chunk_bytes;
    std::size_t const n = std::min(chunk_bytes, values.size() - begin);
    std::memcpy(out, values.data() + begin, n);
    // The dataset's last chunk is stored whole, as the filter stores it: the fill value (0) past the end.
    if (n < chunk_bytes) std::memset(out + n, 0, chunk_bytes - n);
    store_fletcher32(fletcher32(std::span<std::byte const>(out, chunk_bytes)), out + chunk_bytes);
}

}  // namespace

ChecksummedLayout::Range ChecksummedLayout::whole_chunks(std::size_t offset, std::size_t count) const
{
    std::size_t const end = offset + count;
    std::size_t const first = (offset + chunk_values - 1) / chunk_values * chunk_values;
    std::size_t const last = end == length ? end : end / chunk_values * chunk_values;
    if (first >= last) return {offset, offset};
    return {first, last};
}

std::optional<ChecksummedLayout> checksummed_layout(hid_t dataset, hid_t memory_type)
{
    if (filter_path_forced()) return std::nullopt;
    PropertyList const dcpl(check(H5Dget_create_plist(dataset), "H5Dget_create_plist", dataset));
    if (H5Pget_layout(dcpl) != H5D_CHUNKED) return std::nullopt;
    if (check(H5Pget_nfilters(dcpl), "H5Pget_nfilters", dataset) != 1) return std::nullopt;
    unsigned flags = 0;
    std::size_t values = 0;
    if (H5Pget_filter2(dcpl, 0, &flags, &values, nullptr, 0, nullptr, nullptr) != H5Z_FILTER_FLETCHER32)
        return std::nullopt;
    hsize_t chunk[1] = {0};
    if (H5Pget_chunk(dcpl, 1, chunk) != 1) return std::nullopt;
    Datatype const stored(check(H5Dget_type(dataset), "H5Dget_type", dataset));
    if (check(H5Tequal(stored, memory_type), "H5Tequal", dataset) <= 0) return std::nullopt;
    Dataspace const space(check(H5Dget_space(dataset), "H5Dget_space", dataset));
    hsize_t dims[1] = {0};
    if (H5Sget_simple_extent_ndims(space) != 1) return std::nullopt;
    check(H5Sget_simple_extent_dims(space, dims, nullptr), "H5Sget_simple_extent_dims", dataset);
    ChecksummedLayout layout;
    layout.length = static_cast<std::size_t>(dims[0]);
    layout.chunk_values = static_cast<std::size_t>(chunk[0]);
    layout.value_bytes = H5Tget_size(stored);
    if (layout.chunk_values == 0 || layout.value_bytes == 0) return std::nullopt;
    return layout;
}

void write_checksummed_chunks(hid_t dataset, ChecksummedLayout const& layout, std::size_t first,
                              std::span<std::byte const> bytes)
{
    std::size_t const chunk_bytes = layout.chunk_values * layout.value_bytes;
    std::size_t const chunks = (bytes.size() + chunk_bytes - 1) / chunk_bytes;
    if (chunks == 0) return;
    auto const store = [&](std::size_t index, std::byte const* chunk, std::size_t size) {
        hsize_t const origin[1] = {static_cast<hsize_t>(first + index * layout.chunk_values)};
        check(H5Dwrite_chunk(dataset, H5P_DEFAULT, 0, origin, size, chunk), "H5Dwrite_chunk", dataset);
    };
    // The workers fill and checksum chunks into their buffers; this thread stores them in order.
    ChunkPipeline pipeline(chunks, chunk_bytes + k_checksum_bytes, ChunkPipeline::Filler::workers,
                           [&](std::size_t i, std::byte* chunk) {
                               fill_chunk(layout, bytes, i, chunk);
                               return true;
                           });
    for (std::size_t i = 0; i < chunks; ++i) {
        store(i, pipeline.acquire(i), chunk_bytes + k_checksum_bytes);
        pipeline.release(i);
    }
}

namespace {

//! Whether `stored` (the four bytes after a chunk) is the chunk's Fletcher-32, or the same with the bytes
//! of each 16-bit half swapped (HDF5 before 1.6.3 on little-endian machines; HDF5 accepts both).
bool checksum_matches(std::byte const* stored, std::uint32_t sum)
{
    std::uint32_t value = 0;
    for (int i = 0; i < 4; ++i) value |= std::uint32_t(std::to_integer<unsigned>(stored[i])) << (8 * i);
    std::uint32_t const swapped = ((sum & 0x00ff00ffu) << 8) | ((sum >> 8) & 0x00ff00ffu);
    return value == sum || value == swapped;
}

}  // namespace

bool read_checksummed_chunks(hid_t dataset, ChecksummedLayout const& layout, std::size_t first,
                             std::span<std::byte> out, std::string const& object)
{
    std::size_t const value_bytes = layout.value_bytes, chunk_bytes = layout.chunk_values * value_bytes;
    std::size_t const count = out.size() / value_bytes;
    if (count == 0) return true;
    std::size_t const first_chunk = first / layout.chunk_values;
    std::size_t const chunks = (first + count - 1) / layout.chunk_values - first_chunk + 1;
    auto const origin_of = [&](std::size_t i) { return hsize_t((first_chunk + i) * layout.chunk_values); };
    // Every chunk of the range stored whole with its checksum, or HDF5 reads the range.
    for (std::size_t i = 0; i < chunks; ++i) {
        hsize_t const origin[1] = {origin_of(i)};
        hsize_t size = 0;
        if (H5Dget_chunk_storage_size(dataset, origin, &size) < 0) {
            H5Eclear2(H5E_DEFAULT);
            return false;
        }
        if (size != chunk_bytes + k_checksum_bytes) return false;
    }
    // Verifies chunk i (in `bytes`) and copies its values of the range to `out`; false when damaged.
    auto const take = [&](std::size_t i, std::byte const* bytes) {
        if (!checksum_matches(bytes + chunk_bytes,
                              fletcher32(std::span<std::byte const>(bytes, chunk_bytes))))
            return false;
        std::size_t const begin = std::max<std::size_t>(origin_of(i), first);
        std::size_t const end = std::min<std::size_t>(origin_of(i) + layout.chunk_values, first + count);
        std::memcpy(out.data() + (begin - first) * value_bytes, bytes + (begin - origin_of(i)) * value_bytes,
                    (end - begin) * value_bytes);
        return true;
    };
    // Reads chunk i into `bytes`; false when a filter was skipped for it (then it holds no checksum).
    auto const load = [&](std::size_t i, std::byte* bytes) {
        hsize_t const origin[1] = {origin_of(i)};
        std::uint32_t mask = 0;
        check(H5Dread_chunk(dataset, H5P_DEFAULT, origin, &mask, bytes), "H5Dread_chunk", dataset);
        return mask == 0;
    };
    auto const damaged = [&](std::size_t i) {
        return ChecksumError(
            fmt::format("the data of {} do not match their checksum (HDF5's Fletcher-32): the "
                        "file is damaged (the chunk of values {} to {})",
                        object, origin_of(i), origin_of(i) + layout.chunk_values - 1));
    };
    // The writer's pipeline run backwards: this thread reads the chunks in order into the buffers, the
    // workers verify them and copy their values out.
    ChunkPipeline pipeline(chunks, chunk_bytes + k_checksum_bytes, ChunkPipeline::Filler::caller, take);
    bool whole = true;  // every chunk with its checksum
    for (std::size_t i = 0; i < chunks && whole; ++i) {
        std::byte* const bytes = pipeline.acquire(i);
        if (bytes == nullptr) break;  // a chunk is damaged
        whole = load(i, bytes);
        if (whole) pipeline.release(i);
    }
    if (whole) pipeline.wait_returned();  // the last chunks verified (or one found damaged)
    pipeline.finish();
    if (auto const bad = pipeline.failed()) throw damaged(*bad);
    return whole;
}

}  // namespace gt::h5
