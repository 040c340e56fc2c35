/* Attributes, small macros and portability glue shared by every module. */
#ifndef EDGE_COMMON_H
#define EDGE_COMMON_H

#include <stddef.h>

#ifndef __dead
#define __dead __attribute__((__noreturn__))
#endif
#define printflike(a, b) __attribute__((__format__(__printf__, a, b)))
#define unused __attribute__((__unused__))

#ifndef nitems
#define nitems(a) (sizeof (a) / sizeof (a)[0])
#endif

#define MINIMUM(a, b) ((a) < (b) ? (a) : (b))
#define MAXIMUM(a, b) ((a) > (b) ? (a) : (b))

#endif
