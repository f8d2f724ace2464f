/* reduce_tree_p1.c -- the complex trees of reduce_tree.c, compiled as an
 * object of their own so that the build runs the parts in parallel
 * (ST_PART, st_internal.h). */
#define ST_PART 1
#include "reduce_tree.c"
