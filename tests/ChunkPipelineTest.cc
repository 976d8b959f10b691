// The chunk pipeline (io/ChunkPipeline.hh) both ways: each chunk reaches the other side once, in its
// buffer, in order; a failed chunk is reported; one chunk starts no thread.
#include <doctest/doctest.h>

#include <cstddef>
#include <cstring>
#include <vector>

#include "io/ChunkPipeline.hh"

using gt::h5::ChunkPipeline;

namespace {

void put(std::byte* buffer, std::size_t value) { std::memcpy(buffer, &value, sizeof value); }

std::size_t get(std::byte const* buffer)
{
    std::size_t value = 0;
    std::memcpy(&value, buffer, sizeof value);
    return value;
}

}  // namespace

TEST_CASE("workers fill, the caller takes the chunks in order")
{
    for (std::size_t const chunks : {1, 2, 3, 17}) {
        CAPTURE(chunks);
        ChunkPipeline pipeline(chunks, sizeof(std::size_t), ChunkPipeline::Filler::workers,
                               [](std::size_t i, std::byte* buffer) {
                                   put(buffer, 1000 + i);
                                   return true;
                               });
        CHECK(pipeline.workers() <= chunks - 1);  // one chunk: none
        for (std::size_t i = 0; i < chunks; ++i) {
            std::byte* const buffer = pipeline.acquire(i);
            REQUIRE(buffer != nullptr);
            CHECK(get(buffer) == 1000 + i);
            pipeline.release(i);
        }
        pipeline.finish();
        CHECK(!pipeline.failed());
    }
}

TEST_CASE("the caller fills, the workers see each chunk once; the first failed chunk is reported")
{
    for (std::size_t const chunks : {1, 2, 5, 17}) {
        for (std::size_t const bad : {chunks, chunks - 1, std::size_t(0)}) {  // chunks: none fails
            CAPTURE(chunks);
            CAPTURE(bad);
            std::vector<int> seen(chunks, 0);  // each chunk's worker writes only its own entries
            ChunkPipeline pipeline(chunks, sizeof(std::size_t), ChunkPipeline::Filler::caller,
                                   [&](std::size_t i, std::byte* buffer) {
                                       seen[i] += get(buffer) == 1000 + i ? 1 : 100;
                                       return i != bad;
                                   });
            std::size_t given = 0;
            for (std::size_t i = 0; i < chunks; ++i) {
                std::byte* const buffer = pipeline.acquire(i);
                if (buffer == nullptr) break;  // a chunk failed: the caller stops
                put(buffer, 1000 + i);
                pipeline.release(i);
                ++given;
            }
            pipeline.wait_returned();
            pipeline.finish();
            if (bad == chunks) {
                CHECK(!pipeline.failed());
                CHECK(given == chunks);
                CHECK(seen == std::vector<int>(chunks, 1));
            } else {
                REQUIRE(pipeline.failed());
                CHECK(*pipeline.failed() == bad);
                for (std::size_t i = 0; i < given; ++i) CHECK(seen[i] <= 1);  // never a wrong chunk
            }
        }
    }
}
