/*
 * Record checks before anything is sent: the field table of a kind (types,
 * required, enums, ranges, lengths, hosts, endpoints, origins, URLs) and
 * then its cross-field hook. Every problem is collected, not only the
 * first; fields the table does not know are left alone.
 */
#ifndef EDGE_VALIDATE_H
#define EDGE_VALIDATE_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "common.h"
#include "kind.h"

enum validate_mode {
	VALIDATE_CREATE,
	/* Required fields apply only when the kind updates by PUT. */
	VALIDATE_UPDATE
};

/* field is a concrete path ("bypass[1].value"), or "" for the body. */
struct validate_error {
	char	*field;
	char	*message;	/* "5 is out of range (10 to 86400)" */
};

/*
 * Check a create or update body. Returns 0 when it is clean (*errs NULL,
 * *n 0), or -1 with every problem in *errs (free with
 * validate_errors_free). A kind that creates in bulk also takes an array
 * of bodies on create; their problems are named "[2].host".
 */
int	 validate_record(const struct kind *, const cJSON *,
	     enum validate_mode, struct validate_error **, size_t *);
/*
 * validate_record on an edit of orig, keeping only the problems where
 * body differs from orig: a value the server sent and the user left as it
 * was is not checked against the local rules (the server's own record may
 * break them, as a video's maxDurationSeconds -1). Problems of the whole
 * ("") are kept. orig NULL: validate_record.
 */
int	 validate_changes(const struct kind *, const cJSON *, const cJSON *,
	     enum validate_mode, struct validate_error **, size_t *);
void	 validate_errors_free(struct validate_error *, size_t);
/* "field: message" for each, joined by sep (allocated). */
char	*validate_errors_text(const struct validate_error *, size_t,
	     const char *);

/*
 * One field's value on its own, for a form: NULL (absent) or null passes
 * unless the field is required (or NOTNULL). Returns 0, or -1 with *cause
 * as "field: message" (the first problem; "; " between several).
 */
int	 validate_field(const struct kind_field *, const cJSON *, char **);

/* For the kinds' hooks (struct kind check). */
const cJSON		*validate_body(const struct validate_ctx *);
enum validate_mode	 validate_mode(const struct validate_ctx *);
void			 validate_add(struct validate_ctx *, const char *,
			     const char *, ...) printflike(3, 4);
/* Whether a problem was found at field (or under it) already. */
int			 validate_failed(const struct validate_ctx *,
			     const char *);
/* The member at a dotted path, NULL when absent or null. */
const cJSON		*validate_get(const cJSON *, const char *);

#endif
