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
#include "store.h"
#include "util.h"
#include "xmalloc.h"

#define ZONE "/zones/{zone:hex32}/api_gateway"

#define SHIELD_PER_PAGE		20
#define SHIELD_PER_PAGE_MIN	5
#define SHIELD_PER_PAGE_MAX	50
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
const char	*shield_type_name(const cJSON *v);

/* openapi.c */
void	shield_oa_begin(struct shield_oa_builder *ob);
cJSON	*shield_oa_end(struct shield_oa_builder *ob);
cJSON	*shield_oa_parameters(const char *endpoint);
cJSON	*shield_oa_add(struct shield_oa_builder *ob, const char *method,
	    const char *host, const char *endpoint);
cJSON	*shield_oa_result(cJSON *schemas, const char *newest);
void	shield_schemas_get(struct req *req, struct reply *rep);

/* sql.c */
void	shield_bad(struct reply *rep, char *cause);
void	shield_lower_id(const char *in, char out[UUID_LEN + 1]);
const char	*shield_col_text(sqlite3_stmt *st, int col);
int	shield_bind_text(struct shield_binds *b, const char *s);
int	shield_bind_num(struct shield_binds *b, sqlite3_int64 num);
void	shield_bind_all(sqlite3_stmt *st, const struct shield_binds *b);
void	shield_where_in(struct buf *w, struct shield_binds *b, const char *col,
	    const char *const *values, size_t n);
int	shield_run_page(struct req *req, const char *cols, const char *from_where,
	    const char *order, struct shield_binds *b, const struct paging *p,
	    shield_row_cb row, void *arg, cJSON **listp, long *totalp);
int	shield_rank_get(const struct store *store, const char *zone,
	    sqlite3_int64 gen, size_t lo, size_t hi, sqlite3_int64 *slo,
	    sqlite3_int64 *shi);
void	shield_rank_put(const struct store *store, const char *zone,
	    sqlite3_int64 gen, sqlite3_int64 *seq, size_t n);
void	shield_rank_clear(const struct store *store);
int	shield_rank_build(struct store *store, const char *zone,
	    sqlite3_int64 **seqp, size_t *np);

/* operations.c */
void	shield_not_found(struct reply *rep, const char *what, const char *id);
int	shield_parse_features(const struct query *q, int *features, char **cause);
void	shield_op_features(struct store *store, const char *zone, sqlite3_stmt *st,
	    int features, cJSON *op);
cJSON	*shield_op_json(struct store *store, const char *zone, sqlite3_stmt *st,
	    int features);
void	shield_filter_free(struct shield_filter *f);
int	shield_filter_parse(const struct query *q, struct shield_filter *f,
	    char **cause);
void	shield_filter_where(const struct shield_filter *f, const char *prefix,
	    struct buf *w, struct shield_binds *b);
int	shield_parse_direction(const struct query *q, int *desc, char **cause);
void	shield_op_list(struct req *req, struct reply *rep);
void	shield_op_get(struct req *req, struct reply *rep);
void	shield_op_create_one(struct req *req, struct reply *rep);
void	shield_op_create_bulk(struct req *req, struct reply *rep);
void	shield_op_delete_one(struct req *req, struct reply *rep);
void	shield_op_delete_bulk(struct req *req, struct reply *rep);

/* validation.c */
void	shield_op_sv_get(struct req *req, struct reply *rep);
void	shield_op_sv_put(struct req *req, struct reply *rep);
void	shield_op_sv_bulk(struct req *req, struct reply *rep);

/* discovery.c */
void	shield_disc_list(struct req *req, struct reply *rep);
void	shield_disc_patch_one(struct req *req, struct reply *rep);
void	shield_disc_patch_bulk(struct req *req, struct reply *rep);
void	shield_disc_openapi(struct req *req, struct reply *rep);

/* user_schemas.c */
int	shield_us_insert(struct store *store, const char *zone, const char *id,
	    const char *name, const char *source, const char *created,
	    int enabled, const cJSON *ops);
void	shield_us_create(struct req *req, struct reply *rep);
void	shield_us_list(struct req *req, struct reply *rep);
void	shield_us_get(struct req *req, struct reply *rep);
void	shield_us_patch(struct req *req, struct reply *rep);
void	shield_us_delete(struct req *req, struct reply *rep);
void	shield_us_ops(struct req *req, struct reply *rep);

/* settings.c */
void	shield_settings_get(struct req *req, struct reply *rep);
void	shield_settings_put(struct req *req, struct reply *rep);
void	shield_settings_patch(struct req *req, struct reply *rep);
void	shield_config_get(struct req *req, struct reply *rep);
void	shield_config_put(struct req *req, struct reply *rep);

/* demo.c */
int	shield_demo(struct store *store, const char *account, const char *zone,
	    char **cause);

#endif
