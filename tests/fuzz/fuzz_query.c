/* libFuzzer target: query-string parsing and every typed read of it. */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "query.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const dirs[] = { "asc", "desc", NULL };
	struct query	 q;
	struct paging	 p;
	const char	*v[8], *e;
	char		*raw, *cause = NULL;
	long		 n;
	size_t		 count;
	int		 b;

	raw = malloc(size + 1);
	memcpy(raw, data, size);
	raw[size] = '\0';
	if (query_parse(&q, raw, &cause) != 0) {
		free(cause);
		free(raw);
		return (0);
	}
	if (query_paging(&q, 20, 5, 50, 0, &p, &cause) != 0)
		free(cause);
	if (query_paging(&q, 20, 1, 1000, 5, &p, &cause) != 0)
		free(cause);
	if (query_long(&q, "page", -5, 5, 0, &n, &cause) != 0)
		free(cause);
	if (query_bool(&q, "omit_source", 0, &b, &cause) != 0)
		free(cause);
	if (query_enum(&q, "direction", dirs, &e, &cause) != 0)
		free(cause);
	if (query_enums(&q, "host", NULL, v, 8, &count, &cause) != 0)
		free(cause);
	(void)query_get(&q, "endpoint");
	query_free(&q);
	free(raw);
	return (0);
}
