/*
 * The console's row store on 100 000 API Shield operations: load time,
 * memory, the filter per keystroke (typing a word, then deleting it),
 * sorting by each column and a refresh. Prints numbers; asserts nothing.
 */
#include "config.h"

#include <sys/resource.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common.h"
#include "kind.h"
#include "rows.h"
#include "text.h"
#include "xmalloc.h"

#define BENCH_RECORDS	100000
#define BENCH_PAGE	1000
#define BENCH_ROUNDS	20

static const char *const bench_hosts[] = {
	"api.example.com", "shop.example.com", "Partners.Example.net"
};
static const char *const bench_methods[] = {
	"GET", "POST", "PUT", "PATCH", "DELETE", "GET", "GET"
};
static const char *const bench_res[] = {
	"users", "orders", "products", "carts", "payments", "invoices",
	"sessions", "accounts", "reviews", "shipments", "inventory", "coupons"
};
/* Six characters each, typed one at a time. */
static const char *const bench_filters[] = {
	"orders", "users/", "PATCH", "shop.e", "v2/inv", "zzqqxx", "{id}/c",
	"9a0b1c", "2026-0", "review"
};

static double
bench_now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (ts.tv_sec * 1e3 + ts.tv_nsec / 1e6);
}

static uint32_t
bench_mix(uint32_t x)
{
	x ^= x >> 16;
	x *= 0x7feb352d;
	x ^= x >> 15;
	x *= 0x846ca68b;
	x ^= x >> 16;
	return (x);
}

static long
bench_rss_mb(void)
{
	struct rusage	ru;

	getrusage(RUSAGE_SELF, &ru);
	return (ru.ru_maxrss / 1024);	/* kilobytes on Linux */
}

/* Operation i, shaped as the API sends it with feature=thresholds. */
static cJSON *
bench_op(uint32_t i)
{
	cJSON		*op, *f, *t;
	char		 id[40], ep[128], when[40];
	uint32_t	 h = bench_mix(i), h2 = bench_mix(i ^ 0x9e3779b9);

	snprintf(id, sizeof id, "%08x-%04x-4%03x-8%03x-%08x%04x", h,
	    h2 & 0xffff, (h >> 4) & 0xfff, (h2 >> 8) & 0xfff, h2 ^ i,
	    i & 0xffff);
	snprintf(ep, sizeof ep, "/api/v%u/%s/{id}/%s/%u", 1 + h % 3,
	    bench_res[(h >> 3) % nitems(bench_res)],
	    bench_res[(h >> 9) % nitems(bench_res)], i / 37);
	snprintf(when, sizeof when, "2026-%02u-%02uT%02u:%02u:%02u.%06uZ",
	    1 + h % 12, 1 + (h >> 4) % 28, (h >> 9) % 24, (h >> 14) % 60,
	    (h >> 20) % 60, h2 % 1000000);

	op = cJSON_CreateObject();
	cJSON_AddStringToObject(op, "operation_id", id);
	cJSON_AddStringToObject(op, "method",
	    bench_methods[h2 % nitems(bench_methods)]);
	cJSON_AddStringToObject(op, "host", bench_hosts[i % 3]);
	cJSON_AddStringToObject(op, "endpoint", ep);
	cJSON_AddStringToObject(op, "last_updated", when);
	f = cJSON_AddObjectToObject(op, "features");
	t = cJSON_AddObjectToObject(f, "thresholds");
	cJSON_AddNumberToObject(t, "period_seconds", 3600);
	cJSON_AddNumberToObject(t, "suggested_threshold", h % 500);
	cJSON_AddNumberToObject(t, "p50", h % 7);
	cJSON_AddNumberToObject(t, "p90", h % 50);
	cJSON_AddNumberToObject(t, "p99", h % 500);
	cJSON_AddNumberToObject(t, "requests", h2 % 5000000);
	cJSON_AddNumberToObject(t, "auth_id_tokens", h % 20000);
	cJSON_AddNumberToObject(t, "data_points", h2 % 1000);
	cJSON_AddStringToObject(t, "last_updated", when);
	return (op);
}

/* Put every record, a page at a time as the pager hands them over. */
static double
bench_load(struct rows *r, size_t *json_bytes)
{
	cJSON		*page[BENCH_PAGE];
	double		 t, ms = 0;
	uint32_t	 i, j;
	char		*s;

	for (i = 0; i < BENCH_RECORDS; i += BENCH_PAGE) {
		for (j = 0; j < BENCH_PAGE; j++)
			page[j] = bench_op(i + j);
		if (json_bytes != NULL) {
			for (j = 0; j < BENCH_PAGE; j++) {
				s = cJSON_PrintUnformatted(page[j]);
				*json_bytes += strlen(s);
				free(s);
			}
		}
		t = bench_now();
		for (j = 0; j < BENCH_PAGE; j++)
			rows_put(r, page[j]);
		ms += bench_now() - t;
		for (j = 0; j < BENCH_PAGE; j++)
			cJSON_Delete(page[j]);
	}
	return (ms);
}

static int
bench_cmp(const void *a, const void *b)
{
	double	x = *(const double *)a, y = *(const double *)b;

	return ((x > y) - (x < y));
}

static void
bench_filter(struct rows *r, const char *how)
{
	double		 s[BENCH_ROUNDS * 12], t, worst_ms = 0;
	char		 text[8];
	const char	*word;
	size_t		 n = 0, round, k, len;

	for (round = 0; round < BENCH_ROUNDS; round++) {
		word = bench_filters[round % nitems(bench_filters)];
		len = strlen(word);
		for (k = 1; k <= 2 * len; k++) {
			/* Up to len characters, then back down to none. */
			memcpy(text, word, len);
			text[k <= len ? k : 2 * len - k] = '\0';
			t = bench_now();
			rows_filter(r, text);
			s[n] = bench_now() - t;
			if (s[n] > worst_ms)
				worst_ms = s[n];
			n++;
		}
	}
	qsort(s, n, sizeof s[0], bench_cmp);
	printf("rows-bench: filter p50 %.2f ms p99 %.2f ms max %.2f ms "
	    "(%zu keystrokes%s)\n", s[n / 2], s[n * 99 / 100], worst_ms, n,
	    how);
	if (*how != '\0') {
		rows_filter(r, NULL);
		return;
	}

	t = bench_now();
	rows_filter(r, "zzqqxx");
	printf("rows-bench: filter from scratch, no match: %.2f ms\n",
	    bench_now() - t);
	t = bench_now();
	rows_filter(r, "!api");
	printf("rows-bench: filter from scratch, \"!api\" (%zu rows): "
	    "%.2f ms\n", rows_count(r), bench_now() - t);
	rows_filter(r, NULL);
}

static void
bench_sort(struct rows *r, const struct kind *k, size_t ncols)
{
	double	t, asc;
	size_t	i;

	for (i = 0; i < ncols; i++) {
		t = bench_now();
		rows_sort(r, (int)i, 0);
		asc = bench_now() - t;
		t = bench_now();
		rows_sort(r, (int)i, 1);
		printf("rows-bench: sort by %s %.1f ms, descending %.1f ms\n",
		    k->columns[i].header, asc, bench_now() - t);
	}
	t = bench_now();
	rows_sort(r, -1, 0);
	printf("rows-bench: back to the server's order %.1f ms\n",
	    bench_now() - t);
}

/*
 * The search the filter runs over the cells as stored, against strstr on
 * a lowercase copy of them (what a separate haystack per row would hold).
 */
static void
bench_scan(struct rows *r, size_t ncols)
{
	struct text_needle	  nd;
	char			**copy, *p;
	size_t			  i, c, n = rows_count(r), hits = 0, *lens;
	double			  t;
	const char		 *cell;

	copy = xcalloc(n, sizeof *copy);
	lens = xcalloc(n, sizeof *lens);
	for (i = 0; i < n; i++) {
		lens[i] = 0;
		for (c = 0; c < ncols; c++)
			lens[i] += strlen(rows_cell(r, i, c)) + 1;
		p = copy[i] = xmalloc(lens[i]);
		for (c = 0; c < ncols; c++) {
			for (cell = rows_cell(r, i, c); *cell != '\0'; cell++)
				*p++ = *cell >= 'A' && *cell <= 'Z' ?
				    *cell | 0x20 : *cell;
			*p++ = c + 1 < ncols ? '\n' : '\0';
		}
	}
	text_needle_init(&nd, "zzqqxx", 6);
	t = bench_now();
	for (i = 0; i < n; i++)
		hits += text_needle_find(&nd, copy[i], lens[i]) != NULL;
	printf("rows-bench: scan %zu rows for a 6-byte miss: text_needle_find "
	    "%.2f ms, ", n, bench_now() - t);
	t = bench_now();
	for (i = 0; i < n; i++)
		hits += strstr(copy[i], "zzqqxx") != NULL;
	printf("strstr on a lowercase copy %.2f ms\n", bench_now() - t);
	for (i = 0; i < n; i++)
		free(copy[i]);
	free(copy);
	free(lens);
	if (hits != 0)
		printf("rows-bench: unexpected hits\n");
}

int
main(void)
{
	const struct kind		*k = &kind_operations;
	const struct kind_column	*cols[ROWS_MAX_COLUMNS];
	struct rows			*r;
	size_t				 ncols = 0, json = 0, n;
	long				 rss0;
	double				 ms, t;

	setenv("TZ", "UTC", 1);
	while (k->columns[ncols].header != NULL) {
		cols[ncols] = &k->columns[ncols];
		ncols++;
	}
	rss0 = bench_rss_mb();
	r = rows_new(k, cols, ncols);
	ms = bench_load(r, &json);
	printf("rows-bench: %zu operations, %zu columns, JSON %zu bytes "
	    "each on average\n", rows_total(r), ncols, json / BENCH_RECORDS);
	printf("rows-bench: load %.0f ms (%.2f us a record)\n", ms,
	    ms * 1e3 / BENCH_RECORDS);
	printf("rows-bench: rows_memory %.1f MB (%zu bytes a row)\n",
	    rows_memory(r) / 1048576.0, rows_memory(r) / rows_total(r));
	printf("rows-bench: peak RSS %ld MB (%ld MB before loading)\n",
	    bench_rss_mb(), rss0);
	n = (rows_memory(r) - json) / BENCH_RECORDS;
	printf("rows-bench: beyond the JSON text %zu bytes a row; with "
	    "350 bytes of JSON a record: %.1f MB\n", n,
	    (n + 351.0) * BENCH_RECORDS / 1048576);

	bench_filter(r, "");
	bench_sort(r, k, ncols);
	/* Sorted, the rows are read in an order unlike the memory's. */
	rows_sort(r, 4, 0);
	bench_filter(r, ", sorted by ID");

	rows_sort(r, 6, 1);
	rows_begin(r);
	ms = bench_load(r, NULL);
	t = bench_now();
	n = rows_end(r);
	printf("rows-bench: refresh of all, sorted by %s: puts %.0f ms, "
	    "end %.1f ms, %zu removed\n", k->columns[6].header, ms,
	    bench_now() - t, n);
	rows_sort(r, -1, 0);

	bench_scan(r, ncols);
	printf("rows-bench: peak RSS %ld MB at the end, the scan's copies "
	    "included\n", bench_rss_mb());
	rows_free(r);
	return (0);
}
