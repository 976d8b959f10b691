// A host array in page-locked memory, grown on demand and kept: the staging area for data that
// goes between the GPU and another process every step (the cross-rank charge-grid sum), so that
// neither a fresh allocation nor a pageable copy is paid per step.
#pragma once

#include <cstddef>
#include <span>
#include <type_traits>

#include "kernels/core/Device.hh"

namespace gt {

template<class T>
class PinnedHostArray {
    static_assert(std::is_trivially_copyable_v<T>, "pinned arrays hold plain data");

  public:
    PinnedHostArray() = default;
    PinnedHostArray(PinnedHostArray const&) = delete;
    PinnedHostArray& operator=(PinnedHostArray const&) = delete;
    ~PinnedHostArray() { device::release_pinned(data_); }

    //! The first n elements, reallocated (contents not kept) when the array is smaller.
    std::span<T> first(std::size_t n)
    {
        if (n > capacity_) {
            device::release_pinned(data_);
            data_ = nullptr;
            capacity_ = 0;
            data_ = static_cast<T*>(device::allocate_pinned(n * sizeof(T)));
            capacity_ = n;
        }
        return {data_, n};
    }

  private:
    T* data_ = nullptr;
    std::size_t capacity_ = 0;
};

}  // namespace gt
