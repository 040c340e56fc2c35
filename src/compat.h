/* Fallbacks for what the C library may lack (configure checks for each). */
#ifndef EDGE_COMPAT_H
#define EDGE_COMPAT_H

#include <stddef.h>
#include <string.h>

#ifndef HAVE_EXPLICIT_BZERO
/* Zeroes n bytes at p in a way the compiler may not drop. */
void		 explicit_bzero(void *, size_t);
#endif

#endif
