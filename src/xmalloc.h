/* Allocation wrappers that never return NULL: out of memory is fatal. */
#ifndef EDGE_XMALLOC_H
#define EDGE_XMALLOC_H

#include <stdarg.h>
#include <stddef.h>

#include "common.h"

void	*xmalloc(size_t);
void	*xcalloc(size_t, size_t);
void	*xrealloc(void *, size_t);
void	*xreallocarray(void *, size_t, size_t);
char	*xstrdup(const char *);
char	*xstrndup(const char *, size_t);
int	 xasprintf(char **, const char *, ...) printflike(2, 3);
int	 xvasprintf(char **, const char *, va_list) printflike(2, 0);
char	*xprintf(const char *, ...) printflike(1, 2);

#endif
