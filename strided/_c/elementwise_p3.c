/* elementwise_p3.c -- the bool and complex kernels of elementwise.c, compiled as an object of
 * their own so that the build runs the parts in parallel (ST_PART,
 * st_internal.h). */
#define ST_PART 3
#include "elementwise.c"
