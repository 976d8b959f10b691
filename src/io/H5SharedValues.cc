// Uniform datasets (H5SharedValues.hh).
#include "io/H5SharedValues.hh"

namespace gt::h5 {

Dataset create_uniform_dataset_1d(hid_t loc, std::string const& name, std::size_t size, double value)
{
    hsize_t const dims[1] = {static_cast<hsize_t>(size)};
    Dataspace space(check(H5Screate_simple(1, dims, nullptr), "H5Screate_simple", loc, name));
    PropertyList dcpl(check(H5Pcreate(H5P_DATASET_CREATE), "H5Pcreate", loc, name));
    // Contiguous with late allocation: storage is allocated at the first write, and there is none, so
    // every read returns the fill value.
    check(H5Pset_fill_value(dcpl, H5T_NATIVE_DOUBLE, &value), "H5Pset_fill_value", loc, name);
    check(H5Pset_alloc_time(dcpl, H5D_ALLOC_TIME_LATE), "H5Pset_alloc_time", loc, name);
    check(H5Pset_fill_time(dcpl, H5D_FILL_TIME_IFSET), "H5Pset_fill_time", loc, name);
    return Dataset(check(H5Dcreate2(loc, name.c_str(), H5T_IEEE_F64LE, space, H5P_DEFAULT, dcpl, H5P_DEFAULT),
                         "H5Dcreate2", loc, name));
}

}  // namespace gt::h5
