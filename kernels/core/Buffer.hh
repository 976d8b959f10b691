// An owning, move-only array in host or device memory: the storage behind every SoA state.
#pragma once

#include <algorithm>
#include <cstddef>
#include <new>
#include <stdexcept>
#include <type_traits>
#include <utility>

#include "kernels/core/Device.hh"

namespace gt {

enum class MemSpace { host, device };

template<class T>
class Buffer {
    static_assert(std::is_trivially_copyable_v<T>, "buffers hold plain data");

  public:
    Buffer() = default;
    Buffer(std::size_t size, MemSpace space) : size_(size), space_(space)
    {
        if (size_ == 0) return;
        if (space_ == MemSpace::host) {
            data_ = static_cast<T*>(::operator new(size_ * sizeof(T), std::align_val_t{64}));
            std::fill_n(data_, size_, T{});
        } else {
            data_ = static_cast<T*>(device::allocate(size_ * sizeof(T)));
            device::fill_zero(data_, size_ * sizeof(T));
        }
    }
    Buffer(Buffer const&) = delete;
    Buffer& operator=(Buffer const&) = delete;
    Buffer(Buffer&& other) noexcept { swap(other); }
    Buffer& operator=(Buffer&& other) noexcept
    {
        Buffer tmp(std::move(other));
        swap(tmp);
        return *this;
    }
    ~Buffer() { reset(); }

    void swap(Buffer& other) noexcept
    {
        std::swap(data_, other.data_);
        std::swap(size_, other.size_);
        std::swap(space_, other.space_);
    }

    //! Copies `other` (any memory space) into this buffer, which must have the same size.
    void copy_from(Buffer const& other)
    {
        if (other.size_ != size_) throw std::logic_error("Buffer::copy_from: size mismatch");
        copy_raw(other.data_, other.space_);
    }

    //! Copies `size()` elements from `src` in memory space `src_space`.
    void copy_raw(T const* src, MemSpace src_space)
    {
        std::size_t const bytes = size_ * sizeof(T);
        if (bytes == 0) return;
        if (space_ == MemSpace::host && src_space == MemSpace::host) {
            std::copy_n(src, size_, data_);
        } else if (space_ == MemSpace::device && src_space == MemSpace::host) {
            device::copy_to_device(data_, src, bytes);
        } else if (space_ == MemSpace::host && src_space == MemSpace::device) {
            device::copy_to_host(data_, src, bytes);
        } else {
            device::copy_on_device(data_, src, bytes);
        }
    }

    T* data() { return data_; }
    T const* data() const { return data_; }
    std::size_t size() const { return size_; }
    MemSpace space() const { return space_; }
    //! Host-side element access (host buffers only).
    T& operator[](std::size_t i) { return data_[i]; }
    T const& operator[](std::size_t i) const { return data_[i]; }

  private:
    void reset() noexcept
    {
        if (!data_) return;
        if (space_ == MemSpace::host) {
            ::operator delete(data_, std::align_val_t{64});
        } else {
            device::release(data_);
        }
        data_ = nullptr;
        size_ = 0;
    }

    T* data_ = nullptr;
    std::size_t size_ = 0;
    MemSpace space_ = MemSpace::host;
};

}  // namespace gt
