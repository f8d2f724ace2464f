/* elementwise_p2.c -- the unsigned integer kernels of elementwise.c, compiled as an object of
 * their own so that the build runs the parts in parallel (ST_PART,
 * st_internal.h). */
#define ST_PART 2
#include "elementwise.c"
