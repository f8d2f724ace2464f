/* elementwise_p1.c -- the signed integer kernels of elementwise.c, compiled as an object of
 * their own so that the build runs the parts in parallel (ST_PART,
 * st_internal.h). */
#define ST_PART 1
#include "elementwise.c"
