/* Fallbacks for what the C library may lack (configure checks for each). */
#include "config.h"

#include "compat.h"

#ifndef HAVE_EXPLICIT_BZERO
void
explicit_bzero(void *p, size_t n)
{
	volatile unsigned char	*v = p;

	while (n-- > 0)
		*v++ = 0;
}
#else
/* ISO C wants something in each translation unit. */
typedef int	compat_empty;
#endif
