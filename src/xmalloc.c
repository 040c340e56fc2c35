/* Allocation wrappers that never return NULL: out of memory is fatal. */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "xmalloc.h"

void *
xmalloc(size_t size)
{
	void	*ptr;

	if (size == 0)
		fatalx("xmalloc: zero size");
	if ((ptr = malloc(size)) == NULL)
		fatalx("xmalloc: allocating %zu bytes: out of memory", size);
	return (ptr);
}

void *
xcalloc(size_t nmemb, size_t size)
{
	void	*ptr;

	if (size == 0 || nmemb == 0)
		fatalx("xcalloc: zero size");
	if ((ptr = calloc(nmemb, size)) == NULL)
		fatalx("xcalloc: allocating %zu * %zu bytes: out of memory",
		    nmemb, size);
	return (ptr);
}

void *
xrealloc(void *ptr, size_t size)
{
	return (xreallocarray(ptr, 1, size));
}

void *
xreallocarray(void *ptr, size_t nmemb, size_t size)
{
	void	*new_ptr;

	if (nmemb == 0 || size == 0)
		fatalx("xreallocarray: zero size");
	if (SIZE_MAX / nmemb < size)
		fatalx("xreallocarray: %zu * %zu overflows", nmemb, size);
	if ((new_ptr = realloc(ptr, nmemb * size)) == NULL)
		fatalx("xreallocarray: allocating %zu * %zu bytes: out of memory",
		    nmemb, size);
	return (new_ptr);
}

char *
xstrdup(const char *str)
{
	char	*cp;

	if ((cp = strdup(str)) == NULL)
		fatalx("xstrdup: out of memory");
	return (cp);
}

char *
xstrndup(const char *str, size_t maxlen)
{
	char	*cp;

	if ((cp = strndup(str, maxlen)) == NULL)
		fatalx("xstrndup: out of memory");
	return (cp);
}

int
xasprintf(char **ret, const char *fmt, ...)
{
	va_list	 ap;
	int	 i;

	va_start(ap, fmt);
	i = xvasprintf(ret, fmt, ap);
	va_end(ap);
	return (i);
}

int
xvasprintf(char **ret, const char *fmt, va_list ap)
{
	int	 i;

	i = vasprintf(ret, fmt, ap);
	if (i < 0 || *ret == NULL)
		fatalx("xvasprintf: out of memory");
	return (i);
}

char *
xprintf(const char *fmt, ...)
{
	va_list	 ap;
	char	*s;

	va_start(ap, fmt);
	xvasprintf(&s, fmt, ap);
	va_end(ap);
	return (s);
}
