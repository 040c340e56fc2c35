/*
 * What the pieces of API Shield (emulator/shield/) share: limits, the
 * columns and filters of operation lists, bindings built at run time, and
 * the functions one piece calls in another.
 */
#ifndef EDGEMU_SHIELD_INTERNAL_H
#define EDGEMU_SHIELD_INTERNAL_H

#include <stddef.h>

#include <sqlite3.h>

#include <cjson/cJSON.h>

#include "buf.h"
#include "query.h"
#include "server.h"
#include "shield.h"
#include "shieldrules.h"
#include "store.h"
#include "util.h"
#include "xmalloc.h"

#define ZONE "/zones/{zone:hex32}/api_gateway"

#define SHIELD_PER_PAGE		20
/*
 * The spec gives operation lists a minimum of 5 and no maximum; this bound
 * only keeps one answer's size sane and is far above any client's page.
 */
#define SHIELD_OPS_PER_PAGE_MAX	10000
#define SHIELD_MAX_FILTERS	64	/* host[] or method[] values */
#define SHIELD_RANK_SLOTS	8	/* zones whose page ranks are cached */

#define SHIELD_F_THRESHOLDS	0x1
#define SHIELD_F_PARAMS		0x2
#define SHIELD_F_SCHEMA_INFO	0x4

#define SHIELD_OP_COLS							\
	"id, method, host, endpoint, last_updated, th_period_seconds,"	\
	" th_suggested_threshold, th_p50, th_p90, th_p99, th_requests,"	\
	" th_auth_id_tokens, th_data_points, th_last_updated, params,"	\
	" params_updated, mitigation"

enum shield_op_col {
	OPC_ID,
	OPC_METHOD,
	OPC_HOST,
	OPC_ENDPOINT,
	OPC_UPDATED,
	OPC_THRESHOLDS,		/* nine columns, shield_threshold_keys */
	OPC_PARAMS = OPC_THRESHOLDS + 9,
	OPC_PARAMS_UPDATED,
	OPC_MITIGATION
};

struct shield_op_ctx {
	const char	*zone;
	int		 features;
};

/* host[], method[] and endpoint, shared by the lists of operations. */
struct shield_filter {
	char		*hosts[SHIELD_MAX_FILTERS];
	size_t		 nhosts;
	char		*methods[SHIELD_MAX_FILTERS];
	size_t		 nmethods;
	const char	*endpoint;
};

/* Values bound to a statement built at run time: text or integer. */
struct shield_binds {
	struct {
		const char	*text;
		sqlite3_int64	 num;
	}		 v[8 + 2 * SHIELD_MAX_FILTERS];
	int		 n;
};

typedef cJSON *(*shield_row_cb)(struct req *, sqlite3_stmt *, void *);

/*
 * One OpenAPI 3.0 document per host, filled from rows sorted by host: each
 * operation gets its path variables as parameters, plus what the caller
 * adds (thresholds, ids).
 */
struct shield_oa_builder {
	cJSON	*schemas;	/* the array of documents */
	cJSON	*paths;		/* of the current host's document */
	char	*host;
};

#define SHIELD_ORIGIN_ML	0x1
#define SHIELD_ORIGIN_SESSION	0x2

#define SHIELD_SV_KEY	"api_gateway.schema_validation"

/* normalize.c */
const char	*shield_type_name(const cJSON *);

/* openapi.c */
void		 shield_oa_begin(struct shield_oa_builder *);
cJSON		*shield_oa_end(struct shield_oa_builder *);
cJSON		*shield_oa_parameters(const char *);
cJSON		*shield_oa_add(struct shield_oa_builder *, const char *,
		     const char *, const char *);
cJSON		*shield_oa_result(cJSON *, const char *);
void		 shield_schemas_get(struct req *, struct reply *);

/* sql.c */
void		 shield_bad(struct reply *, char *);
void		 shield_lower_id(const char *, char [UUID_LEN + 1]);
int		 shield_map_ids_once(const cJSON *, char **);
const char	*shield_col_text(sqlite3_stmt *, int);
int		 shield_bind_text(struct shield_binds *, const char *);
int		 shield_bind_num(struct shield_binds *, sqlite3_int64);
void		 shield_bind_all(sqlite3_stmt *, const struct shield_binds *);
void		 shield_where_in(struct buf *, struct shield_binds *,
		     const char *, const char *const *, size_t);
int		 shield_run_page(struct req *, const char *, const char *,
		     const char *, struct shield_binds *,
		     const struct paging *, shield_row_cb, void *, cJSON **,
		     long *);
int		 shield_rank_get(const struct store *, const char *,
		     sqlite3_int64, size_t, size_t, sqlite3_int64 *,
		     sqlite3_int64 *);
void		 shield_rank_put(const struct store *, const char *,
		     sqlite3_int64, sqlite3_int64 *, size_t);
void		 shield_rank_clear(const struct store *);
int		 shield_rank_build(struct store *, const char *,
		     sqlite3_int64 **, size_t *);

/* operations.c */
void		 shield_not_found(struct reply *, const char *, const char *);
int		 shield_parse_features(const struct query *, int *, char **);
void		 shield_op_features(struct store *, const char *,
		     sqlite3_stmt *, int, cJSON *);
cJSON		*shield_op_json(struct store *, const char *, sqlite3_stmt *,
		     int);
void		 shield_filter_free(struct shield_filter *);
int		 shield_filter_parse(const struct query *,
		     struct shield_filter *, char **);
void		 shield_filter_where(const struct shield_filter *, const char *,
		     struct buf *, struct shield_binds *);
int		 shield_parse_direction(const struct query *, int *, char **);
void		 shield_op_list(struct req *, struct reply *);
void		 shield_op_get(struct req *, struct reply *);
void		 shield_op_create_one(struct req *, struct reply *);
void		 shield_op_create_bulk(struct req *, struct reply *);
void		 shield_op_delete_one(struct req *, struct reply *);
void		 shield_op_delete_bulk(struct req *, struct reply *);

/* validation.c */
int		 shield_parse_mitigation(const cJSON *, const char *, int,
		     const char **, char **);
int		 shield_op_set_mitigation(struct store *, const char *,
		     const char *, const char *);
void		 shield_op_sv_get(struct req *, struct reply *);
void		 shield_op_sv_put(struct req *, struct reply *);
void		 shield_op_sv_bulk(struct req *, struct reply *);

/* discovery.c */
void		 shield_disc_list(struct req *, struct reply *);
void		 shield_disc_patch_one(struct req *, struct reply *);
void		 shield_disc_patch_bulk(struct req *, struct reply *);
void		 shield_disc_openapi(struct req *, struct reply *);

/* user_schemas.c */
int		 shield_us_insert(struct store *, const char *, const char *,
		     const char *, const char *, const char *, int,
		     const cJSON *);
void		 shield_upload_refused(struct reply *, cJSON *);
cJSON		*shield_us_object(const char *, const char *, const char *,
		     const char *, int);
cJSON		*shield_us_find(struct req *, struct reply *, int);
void		 shield_us_create(struct req *, struct reply *);
void		 shield_us_list(struct req *, struct reply *);
void		 shield_us_get(struct req *, struct reply *);
void		 shield_us_enable(struct req *, struct reply *, const cJSON *);
void		 shield_us_patch(struct req *, struct reply *);
void		 shield_us_delete(struct req *, struct reply *);
void		 shield_us_ops(struct req *, struct reply *);

/* settings.c */
cJSON		*shield_settings_load(struct store *, const char *);
void		 shield_settings_get(struct req *, struct reply *);
/* The body read into the settings s, or -1 with *cause (allocated). */
typedef int	(*shield_settings_apply_fn)(const cJSON *, int, cJSON *,
		    char **);
void		 shield_settings_write(struct req *, struct reply *, int,
		     shield_settings_apply_fn);
void		 shield_settings_put(struct req *, struct reply *);
void		 shield_settings_patch(struct req *, struct reply *);
void		 shield_config_get(struct req *, struct reply *);
void		 shield_config_put(struct req *, struct reply *);

/* schema_validation.c: the current API, /zones/{zone}/schema_validation */
void		 shield_sv_schema_list(struct req *, struct reply *);
void		 shield_sv_schema_create(struct req *, struct reply *);
void		 shield_sv_schema_get(struct req *, struct reply *);
void		 shield_sv_schema_patch(struct req *, struct reply *);
void		 shield_sv_schema_delete(struct req *, struct reply *);
void		 shield_sv_settings_get(struct req *, struct reply *);
void		 shield_sv_settings_put(struct req *, struct reply *);
void		 shield_sv_settings_patch(struct req *, struct reply *);
void		 shield_sv_ops_list(struct req *, struct reply *);
void		 shield_sv_ops_bulk(struct req *, struct reply *);
void		 shield_sv_op_get(struct req *, struct reply *);
void		 shield_sv_op_put(struct req *, struct reply *);
void		 shield_sv_op_delete(struct req *, struct reply *);

/* demo.c */
int		 shield_demo(struct store *, const char *, const char *,
		     char **);

#endif
