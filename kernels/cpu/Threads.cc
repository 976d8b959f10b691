// Thread control of the CPU executor.
#include "kernels/cpu/Executor.hh"

#ifdef _OPENMP
#include <omp.h>
#endif

namespace gt::cpu {

int thread_count()
{
#ifdef _OPENMP
    return omp_get_max_threads();
#else
    return 1;
#endif
}

void set_thread_count(int n)
{
#ifdef _OPENMP
    if (n > 0) omp_set_num_threads(n);
#else
    (void)n;
#endif
}

}  // namespace gt::cpu
