// Struct-of-arrays beam state (6D phase space, ids, loss records) in host or device memory.
//
// Coordinates follow ImpactX (docs/physics.md): x, y [m]; px, py = P_x,y / p_ref; t = c (t - t_ref)
// [m]; pt = -(E - E_ref) / (p_ref c). A particle is alive while lost_element < 0.
#pragma once

#include <cstdint>

#include "kernels/core/Buffer.hh"
#include "kernels/core/Macros.hh"
#include "kernels/core/Types.hh"

namespace gt {

//! One particle in registers while a kernel pushes it through a segment of elements.
struct Particle {
    double x, px, y, py, t, pt;
};

//! Trivially copyable view of a ParticleState: what functors receive.
struct ParticleView {
    double* x = nullptr;
    double* px = nullptr;
    double* y = nullptr;
    double* py = nullptr;
    double* t = nullptr;
    double* pt = nullptr;
    std::uint64_t* id = nullptr;
    std::int32_t* lost_element = nullptr;  //!< global element index where lost, -1 while alive
    std::int32_t* lost_turn = nullptr;     //!< turn in which it was lost
    size_type size = 0;

    GT_HOST_DEVICE GT_FORCEINLINE bool alive(size_type i) const { return lost_element[i] < 0; }
    GT_HOST_DEVICE GT_FORCEINLINE Particle load(size_type i) const
    {
        return Particle{x[i], px[i], y[i], py[i], t[i], pt[i]};
    }
    GT_HOST_DEVICE GT_FORCEINLINE void store(size_type i, Particle const& p) const
    {
        x[i] = p.x;
        px[i] = p.px;
        y[i] = p.y;
        py[i] = p.py;
        t[i] = p.t;
        pt[i] = p.pt;
    }
};

class ParticleState {
  public:
    ParticleState() = default;
    ParticleState(size_type n, MemSpace space)
        : x_(n, space), px_(n, space), y_(n, space), py_(n, space), t_(n, space), pt_(n, space),
          id_(n, space), lost_element_(n, space), lost_turn_(n, space)
    {
    }

    //! A state in `space` holding a copy of `other`.
    ParticleState(ParticleState const& other, MemSpace space) : ParticleState(other.size(), space)
    {
        copy_from(other);
    }

    void copy_from(ParticleState const& o)
    {
        x_.copy_from(o.x_);
        px_.copy_from(o.px_);
        y_.copy_from(o.y_);
        py_.copy_from(o.py_);
        t_.copy_from(o.t_);
        pt_.copy_from(o.pt_);
        id_.copy_from(o.id_);
        lost_element_.copy_from(o.lost_element_);
        lost_turn_.copy_from(o.lost_turn_);
    }

    ParticleView view()
    {
        return ParticleView{x_.data(),  px_.data(), y_.data(),           py_.data(),
                            t_.data(),  pt_.data(), id_.data(),          lost_element_.data(),
                            lost_turn_.data(),      x_.size()};
    }
    size_type size() const { return x_.size(); }
    MemSpace space() const { return x_.space(); }

  private:
    Buffer<double> x_, px_, y_, py_, t_, pt_;
    Buffer<std::uint64_t> id_;
    Buffer<std::int32_t> lost_element_, lost_turn_;
};

}  // namespace gt
