/* Query strings: decoding, list keys (host=a&host[]=b), typed reads. */
#ifndef EDGEMU_QUERY_H
#define EDGEMU_QUERY_H

#include <stddef.h>

struct query_param {
	char	*key;
	char	*value;
};

struct query {
	struct query_param	*v;
	size_t			 n;
};

struct paging {
	long	page;
	long	per_page;
};

int	 query_parse(struct query *, const char *, char **);
void	 query_free(struct query *);
const char *query_get(const struct query *, const char *);
size_t	 query_values(const struct query *, const char *, const char **, size_t);
int	 query_long(const struct query *, const char *, long, long, long,
	     long *, char **);
int	 query_bool(const struct query *, const char *, int, int *, char **);
int	 query_enum(const struct query *, const char *, const char *const *,
	     const char **, char **);
int	 query_enums(const struct query *, const char *, const char *const *,
	     const char **, size_t, size_t *, char **);
int	 query_paging(const struct query *, long, long, long, long,
	     struct paging *, char **);

#endif
