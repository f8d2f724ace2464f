/* st_vsort.h -- the AVX-512 quicksort of sort_simd.c, as sort.c calls it:
 * ascending in-place sorts of unsigned keys; st_vsort_ready() is 0 below
 * CPU level 4 (sort.c then keeps its radix sort); the _team ones
 * are called by every thread of an OpenMP team, which shares the work. */
#ifndef ST_VSORT_H
#define ST_VSORT_H
#include <stdint.h>
int st_vsort_ready(void);
void st_vsort_u32(uint32_t *a, int64_t n);
void st_vsort_u64(uint64_t *a, int64_t n);
void st_vsort_team_u32(uint32_t *a, int64_t n);
void st_vsort_team_u64(uint64_t *a, int64_t n);
#endif
