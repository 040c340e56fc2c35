/* libFuzzer target: one access log line, as Logpush JSON and as combined. */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "accesslog.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct accesslog_options	 o = { ACCESSLOG_AUTO, "www.example",
					    NULL };
	struct accesslog_record		 r;
	char				*line, why[192];
	size_t				 i;

	/* The parser writes into the line, which ends in a NUL. */
	line = malloc(size + 1);
	for (i = 0; i < 2; i++) {
		memcpy(line, data, size);
		line[size] = '\0';
		if (accesslog_parse_line(i == 0 ? ACCESSLOG_LOGPUSH :
		    ACCESSLOG_COMBINED, &o, line, size, &r, why,
		    sizeof why) == 0 && (r.time_ns < 0 ||
		    r.nheaders > ACCESSLOG_PAIRS_MAX ||
		    (r.ip != NULL && strlen(r.ip) > size)))
			abort();
	}
	free(line);
	return (0);
}
