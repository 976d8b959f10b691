// A one-dimensional dataset that stores less than it holds: a uniform dataset, one value for every
// element, is HDF5's fill value of a dataset never written (no storage is allocated for it). Every
// reader (HDF5's C library, h5py, openpmd-beamphysics, openPMD-viewer, gtrack's own) reads it as an
// ordinary float64 array of its length, with its own attributes, so a file's layout does not change
// when a record uses one (openPMD `weighting`, equal for every macroparticle). The 1.8 file format.
#pragma once

#include <cstddef>
#include <string>

#include "io/H5Handle.hh"

namespace gt::h5 {

//! A float64 dataset of `size` elements, each `value`, storing none of them.
Dataset create_uniform_dataset_1d(hid_t loc, std::string const& name, std::size_t size, double value);

}  // namespace gt::h5
