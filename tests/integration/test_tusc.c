/*
 * The TUS client against edgemu: a whole upload in 5 MiB chunks, resuming
 * from the journal, a stored URL the server forgot, and edgemu killed in
 * the middle of a PATCH and started again. Stored bytes are compared with
 * the file's, byte for byte.
 */
#include "config.h"

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <netinet/in.h>
#include <arpa/inet.h>

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <openssl/evp.h>

#include "buf.h"
#include "http.h"
#include "itest.h"
#include "tusc.h"
#include "testdir.h"
#include "testmp4.h"
#include "xmalloc.h"

#define MIB		(1024LL * 1024)
#define MDAT_LEN	((size_t)(12 * MIB + 12345))

struct rig {
	struct edgemu		 e;
	struct http_client	*c;
	char			*state;		/* journal directory */
	char			*file;
	struct tusc_options	 o;
	/* What the callbacks do. */
	long long		 stop_at;	/* cancel once done reaches it */
	long long		 kill_at;	/* SIGKILL edgemu past it */
	int			 killed;
	int			 sleeps;
	long long		 trunc_at;	/* truncate the file past it */
	int			 odd;		/* progress off the chunks */
	struct buf		 notices;
};

/* A valid small MP4 whose mdat never repeats, so misplaced bytes show. */
static void
make_mp4(const char *path)
{
	testmp4_write(path, 10000, MDAT_LEN, 0x9e3779b97f4a7c15ULL);
}

static void
assert_same_file(const char *a, const char *b)
{
	unsigned char	 x[65536], y[65536];
	size_t		 n, m;
	FILE		*fa, *fb;

	assert_non_null(fa = fopen(a, "r"));
	if ((fb = fopen(b, "r")) == NULL)
		fail_msg("%s: %s", b, strerror(errno));
	do {
		n = fread(x, 1, sizeof x, fa);
		m = fread(y, 1, sizeof y, fb);
		assert_int_equal(n, m);
		assert_memory_equal(x, y, n);
	} while (n > 0);
	fclose(fa);
	fclose(fb);
}

static void
assert_stored(struct rig *r, const char *uid)
{
	char	*path = itest_printf("%s/videos/%s/%s", r->e.dir, r->e.account,
	    uid);

	assert_same_file(r->file, path);
	free(path);
}

static size_t
journal_count(struct rig *r)
{
	struct tusc_entry	*list;
	size_t			 n;
	char			*cause = NULL;

	if (tusc_journal_list(r->state, &list, &n, &cause) != 0)
		fail_msg("journal: %s", cause);
	tusc_entries_free(list, n);
	return (n);
}

static int
on_progress(long long done, long long total, void *arg)
{
	struct rig	*r = arg;

	assert_true(done <= total);
	/* Only acknowledged offsets: chunk ends (or the size). */
	if (done % (5 * MIB) != 0 && done != total)
		r->odd++;
	if (r->trunc_at > 0 && done >= r->trunc_at) {
		assert_int_equal(truncate(r->file, r->trunc_at + MIB), 0);
		r->trunc_at = 0;
	}
	if (r->kill_at > 0 && !r->killed && done > r->kill_at) {
		edgemu_kill(&r->e, SIGKILL);
		r->killed = 1;
	}
	return (r->stop_at > 0 && done >= r->stop_at);
}

/* No real waiting; after a kill, the first wait brings edgemu back. */
static void
on_sleep(long seconds, void *arg)
{
	struct rig	*r = arg;

	assert_true(seconds > 0 && seconds <= 5);
	r->sleeps++;
	if (r->killed && r->e.pid == 0) {
		edgemu_restart(&r->e);
		/* The restart re-reads (and reallocates) the account. */
		r->o.account = r->e.account;
		r->o.base_url = r->e.url;
	}
}

static void
on_notice(const char *msg, void *arg)
{
	struct rig	*r = arg;

	buf_addf(&r->notices, "%s\n", msg);
}

static void
rig_client(struct rig *r)
{
	struct http_options	 ho;
	char			*cause = NULL;

	if (r->c != NULL)
		http_client_free(r->c);
	memset(&ho, 0, sizeof ho);
	ho.base_url = r->e.url;
	ho.token = r->e.token;
	ho.max_retries = -1;
	if ((r->c = http_client_new(&ho, &cause)) == NULL)
		fail_msg("http_client_new: %s", cause);
	r->o.base_url = r->e.url;
	r->o.account = r->e.account;
}

static int
setup(void **state)
{
	struct rig	*r = xcalloc(1, sizeof *r);

	edgemu_start(&r->e, NULL, 1, NULL);
	assert_non_null(r->e.account);
	assert_non_null(r->state = testdir_new("tusc"));
	r->file = xprintf("%s/clip.mp4", r->state);
	make_mp4(r->file);
	rig_client(r);
	r->o.file = r->file;
	r->o.chunk_size = 5 * MIB;
	r->o.state_dir = r->state;
	r->o.meta.name = "clip.mp4";
	r->o.creator = "itest";
	r->o.progress = on_progress;
	r->o.progress_arg = r;
	r->o.sleep = on_sleep;
	r->o.sleep_arg = r;
	r->o.notice = on_notice;
	r->o.notice_arg = r;
	*state = r;
	return (0);
}

static int
teardown(void **state)
{
	struct rig	*r = *state;

	http_client_free(r->c);
	edgemu_finish(&r->e);
	testdir_remove(r->state);
	free(r->state);
	free(r->file);
	buf_free(&r->notices);
	free(r);
	return (0);
}

static void
upload_ok(struct rig *r, struct tusc_result *res)
{
	char	*cause = NULL;

	if (tusc_upload(r->c, &r->o, res, &cause) != STATUS_OK)
		fail_msg("tusc_upload: %s", cause);
	assert_null(cause);
	assert_int_equal(strlen(res->uid), 32);
}

static void
test_upload_whole(void **state)
{
	struct rig		*r = *state;
	struct tusc_result	 res;
	struct http_resp	 h;
	char			*path;

	upload_ok(r, &res);
	assert_int_equal(res.resumed_from, -1);
	assert_int_equal(res.patches, 3);	/* 5 + 5 + the rest */
	assert_int_equal(r->odd, 0);
	assert_int_equal(res.retries, 0);
	assert_stored(r, res.uid);
	assert_int_equal(journal_count(r), 0);
	/* Metadata and creator arrived. */
	path = itest_printf("/accounts/%s/stream/%s", r->e.account, res.uid);
	http_json(&r->e, "GET", path, NULL, &h);
	assert_int_equal(h.status, 200);
	assert_non_null(strstr(h.body, "\"clip.mp4\""));
	assert_non_null(strstr(h.body, "\"itest\""));
	http_resp_free(&h);
	free(path);
	tusc_result_free(&res);
}

static void
test_bad_chunk_refused(void **state)
{
	struct rig		*r = *state;
	struct tusc_result	 res;
	char			*cause = NULL;

	r->o.chunk_size = 5 * MIB + 1;
	assert_int_equal(tusc_upload(r->c, &r->o, &res, &cause),
	    STATUS_INVALID);
	assert_non_null(strstr(cause, "256 KiB"));
	assert_int_equal(http_exit_status(res.status, res.http_status),
	    HTTP_EXIT_USAGE);
	assert_null(res.uid);
	free(cause);
	assert_int_equal(journal_count(r), 0);
}

/* Stop after the first chunk; the journal remembers where. */
static void
upload_first_chunk(struct rig *r, struct tusc_result *res)
{
	struct tusc_entry	*list;
	size_t			 n;
	char			*cause = NULL;

	r->stop_at = 5 * MIB;
	assert_int_equal(tusc_upload(r->c, &r->o, res, &cause),
	    STATUS_CANCELLED);
	assert_non_null(cause);
	free(cause);
	assert_int_equal(res->patches, 1);
	r->stop_at = 0;
	assert_int_equal(tusc_journal_list(r->state, &list, &n, &cause), 0);
	assert_int_equal(n, 1);
	assert_string_equal(list[0].uid, res->uid);
	assert_string_equal(list[0].url, res->url);
	assert_int_equal(list[0].offset, 5 * MIB);
	assert_int_equal(list[0].size, res->size);
	tusc_entries_free(list, n);
}

static void
test_resume(void **state)
{
	struct rig		*r = *state;
	struct tusc_result	 first, res;

	upload_first_chunk(r, &first);
	upload_ok(r, &res);
	assert_string_equal(res.uid, first.uid);
	assert_int_equal(res.resumed_from, 5 * MIB);
	assert_int_equal(res.patches, 2);
	assert_stored(r, res.uid);
	assert_int_equal(journal_count(r), 0);
	tusc_result_free(&first);
	tusc_result_free(&res);
}

static void
test_gone_starts_anew(void **state)
{
	struct rig		*r = *state;
	struct tusc_result	 first, res;
	struct http_resp	 h;
	const char		*hdr[] = { "Tus-Resumable: 1.0.0", NULL };

	upload_first_chunk(r, &first);
	http_request_with(&r->e, "DELETE", first.url, hdr, NULL, 0, NULL, &h);
	assert_int_equal(h.status, 204);
	http_resp_free(&h);
	upload_ok(r, &res);
	assert_string_not_equal(res.uid, first.uid);
	assert_int_equal(res.resumed_from, -1);
	assert_int_equal(res.patches, 3);
	assert_stored(r, res.uid);
	assert_int_equal(journal_count(r), 0);
	tusc_result_free(&first);
	tusc_result_free(&res);
}

/*
 * A free loopback port below the kernel's ephemeral range (from which the
 * other tests' servers, all on port 0, and every outgoing connection get
 * theirs), so a restart after a kill finds it free again; the port edgemu
 * got for port 0 could be taken by another test meanwhile.
 */
static int
fixed_port(void)
{
	struct sockaddr_in	sin;
	int			fd, port, i, lo = 32768;
	FILE			*f;

	if ((f = fopen("/proc/sys/net/ipv4/ip_local_port_range", "r")) !=
	    NULL) {
		if (fscanf(f, "%d", &lo) != 1)
			lo = 32768;
		fclose(f);
	}
	assert_true(lo > 2048);
	for (i = 0; i < 1000; i++) {
		port = 1024 + (int)((getpid() + i * 7919) % (lo - 1024));
		assert_true((fd = socket(AF_INET, SOCK_STREAM, 0)) >= 0);
		memset(&sin, 0, sizeof sin);
		sin.sin_family = AF_INET;
		sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		sin.sin_port = htons((uint16_t)port);
		if (bind(fd, (struct sockaddr *)&sin, sizeof sin) == 0) {
			close(fd);
			return (port);
		}
		close(fd);
	}
	fail_msg("no free port below %d", lo);
	return (-1);
}

/* edgemu on a fixed port, so a restart keeps the upload URLs valid. */
static void
pin_port(struct rig *r)
{
	edgemu_kill(&r->e, SIGTERM);
	r->e.extra[r->e.nextra++] = xstrdup("--listen");
	r->e.extra[r->e.nextra++] = itest_printf("127.0.0.1:%d",
	    fixed_port());
	edgemu_restart(&r->e);
	rig_client(r);
}

static void
test_killed_mid_patch(void **state)
{
	struct rig		*r = *state;
	struct tusc_result	 res;

	pin_port(r);
	r->kill_at = 6 * MIB;		/* inside the second chunk */
	upload_ok(r, &res);
	assert_true(r->killed);
	assert_true(r->sleeps >= 1);
	assert_true(res.retries >= 1);
	/* Chunk 1, the cut chunk 2, then at most two more from HEAD. */
	assert_true(res.patches <= 4);
	assert_stored(r, res.uid);
	assert_int_equal(journal_count(r), 0);
	tusc_result_free(&res);
}

static void
test_restart_after_stop(void **state)
{
	struct rig		*r = *state;
	struct tusc_result	 first, res;

	pin_port(r);
	upload_first_chunk(r, &first);
	edgemu_kill(&r->e, SIGKILL);
	edgemu_restart(&r->e);
	rig_client(r);
	upload_ok(r, &res);
	assert_string_equal(res.uid, first.uid);
	assert_int_equal(res.resumed_from, 5 * MIB);
	assert_int_equal(res.patches, 2);
	assert_stored(r, res.uid);
	tusc_result_free(&first);
	tusc_result_free(&res);
}

static void
test_empty_file(void **state)
{
	struct rig		*r = *state;
	struct tusc_result	 res;
	FILE			*f;

	assert_non_null(f = fopen(r->file, "w"));
	fclose(f);
	upload_ok(r, &res);
	assert_int_equal(res.patches, 0);
	assert_int_equal(journal_count(r), 0);
	tusc_result_free(&res);
}

/* The video uid's HTTP status on the API: 200 there, 404 deleted. */
static long
video_status(struct rig *r, const char *uid)
{
	struct http_resp	 h;
	char			*path;
	long			 st;

	path = itest_printf("/accounts/%s/stream/%s", r->e.account, uid);
	http_json(&r->e, "GET", path, NULL, &h);
	st = h.status;
	http_resp_free(&h);
	free(path);
	return (st);
}

/* New bytes (the same length), then the old times set back. */
static void
rewrite_keep_times(const char *file)
{
	struct stat	 sb;
	struct timespec	 ts[2];
	unsigned char	 blk[4096];
	size_t		 i;
	int		 fd;

	assert_int_equal(stat(file, &sb), 0);
	assert_true((fd = open(file, O_RDWR)) >= 0);
	assert_int_equal(pread(fd, blk, sizeof blk, 100000), sizeof blk);
	for (i = 0; i < sizeof blk; i++)
		blk[i] ^= 0x5a;
	assert_int_equal(pwrite(fd, blk, sizeof blk, 100000), sizeof blk);
	ts[0] = sb.st_atim;
	ts[1] = sb.st_mtim;
	assert_int_equal(futimens(fd, ts), 0);
	assert_int_equal(close(fd), 0);
	assert_int_equal(stat(file, &sb), 0);
	assert_int_equal(sb.st_mtim.tv_sec, ts[1].tv_sec);
	assert_int_equal(sb.st_mtim.tv_nsec, ts[1].tv_nsec);
}

static void
test_rewritten_not_resumed(void **state)
{
	struct rig		*r = *state;
	struct tusc_result	 first, res;

	upload_first_chunk(r, &first);
	rewrite_keep_times(r->file);
	upload_ok(r, &res);
	assert_string_not_equal(res.uid, first.uid);
	assert_int_equal(res.resumed_from, -1);
	assert_int_equal(res.patches, 3);
	assert_stored(r, res.uid);
	assert_non_null(strstr(r->notices.data, "clip.mp4 changed since the "
	    "upload began (its first 5.0 MiB differ from the bytes sent): "
	    "starting afresh"));
	assert_int_equal(video_status(r, first.uid), 404);
	assert_int_equal(journal_count(r), 0);
	tusc_result_free(&first);
	tusc_result_free(&res);
}

/* A stale entry's upload (its file changed, another gone) is ended. */
static void
test_stale_swept(void **state)
{
	struct rig		*r = *state;
	struct tusc_result	 first, other, res;
	struct timespec		 ts[2] = { { 0, UTIME_OMIT }, { 1000000, 0 } };
	char			*file = r->file, *copy;

	copy = xprintf("%s/other.mp4", r->state);
	make_mp4(copy);
	r->o.file = copy;
	upload_first_chunk(r, &other);
	assert_int_equal(unlink(copy), 0);
	r->o.file = file;
	upload_first_chunk(r, &first);
	assert_int_equal(utimensat(AT_FDCWD, file, ts, 0), 0);
	upload_ok(r, &res);
	assert_int_equal(res.resumed_from, -1);
	assert_stored(r, res.uid);
	assert_int_equal(video_status(r, first.uid), 404);
	assert_int_equal(video_status(r, other.uid), 404);
	assert_non_null(strstr(r->notices.data, "other.mp4 is gone"));
	assert_non_null(strstr(r->notices.data, "clip.mp4 changed"));
	assert_int_equal(journal_count(r), 0);
	free(copy);
	tusc_result_free(&first);
	tusc_result_free(&other);
	tusc_result_free(&res);
}

/*
 * A run that died after the last chunk but before forgetting the upload:
 * its file gone, the stale entry is dropped but the video it made stays.
 */
static void
test_finished_kept(void **state)
{
	struct rig		*r = *state;
	struct tusc_result	 first, res;
	struct tusc_entry	 e;
	struct stat		 sb;
	char			*cause = NULL, *copy, *file = r->file;

	copy = xprintf("%s/done.mp4", r->state);
	make_mp4(copy);
	r->o.file = copy;
	upload_ok(r, &first);
	assert_int_equal(stat(copy, &sb), 0);
	memset(&e, 0, sizeof e);
	e.key = tusc_journal_key(copy, sb.st_size, sb.st_mtime, r->o.base_url,
	    r->o.account);
	e.file = realpath(copy, NULL);
	e.size = sb.st_size;
	e.mtime = sb.st_mtime;
	e.base_url = xstrdup(r->o.base_url);
	e.account = xstrdup(r->o.account);
	e.url = xstrdup(first.url);
	e.uid = xstrdup(first.uid);
	if (tusc_journal_put(r->state, &e, &cause) != 0)
		fail_msg("journal: %s", cause);
	tusc_entry_free(&e);
	assert_int_equal(unlink(copy), 0);
	r->o.file = file;
	upload_ok(r, &res);
	assert_non_null(strstr(r->notices.data, "done.mp4 is gone since its "
	    "upload began: its upload (video"));
	assert_non_null(strstr(r->notices.data, "had finished: the video is "
	    "kept"));
	assert_int_equal(video_status(r, first.uid), 200);
	assert_int_equal(journal_count(r), 0);
	free(copy);
	tusc_result_free(&first);
	tusc_result_free(&res);
}

/* The file shrinks between two chunks: exit 2, the file changed. */
static void
test_truncated_during(void **state)
{
	struct rig		*r = *state;
	struct tusc_result	 res;
	char			*cause = NULL;

	r->trunc_at = 5 * MIB;
	assert_int_equal(tusc_upload(r->c, &r->o, &res, &cause),
	    STATUS_CONFLICT);
	assert_non_null(strstr(cause, "changed during the upload"));
	assert_int_equal(http_exit_status(res.status, res.http_status),
	    HTTP_EXIT_USAGE);
	free(cause);
	tusc_result_free(&res);
}

/* A 404 on resume: one line saying so, no error. */
static void
test_gone_says_afresh(void **state)
{
	struct rig		*r = *state;
	struct tusc_result	 first, res;
	const char		*hdr[] = { "Tus-Resumable: 1.0.0", NULL };
	struct http_resp	 h;

	upload_first_chunk(r, &first);
	http_request_with(&r->e, "DELETE", first.url, hdr, NULL, 0, NULL, &h);
	http_resp_free(&h);
	upload_ok(r, &res);
	assert_non_null(strstr(r->notices.data, "clip.mp4: the server no "
	    "longer has the unfinished upload: starting afresh\n"));
	/* That line alone. */
	assert_non_null(strchr(r->notices.data, '\n'));
	assert_string_equal(strchr(r->notices.data, '\n'), "\n");
	tusc_result_free(&first);
	tusc_result_free(&res);
}

/*
 * The journal entry of the first chunk made as an earlier version wrote
 * it: the SHA-256 of the bytes sent (of the first len bytes of path, or
 * of other bytes when wrong), no XXH3.
 */
static void
journal_make_old(struct rig *r, const char *path, int wrong)
{
	struct tusc_entry	*list;
	unsigned char		 d[EVP_MAX_MD_SIZE], *data;
	unsigned int		 dlen, i;
	size_t			 n, len = (size_t)(5 * MIB);
	char			*cause = NULL, hex[2 * EVP_MAX_MD_SIZE + 1];
	FILE			*f;

	data = xmalloc(len);
	assert_non_null(f = fopen(path, "r"));
	assert_int_equal(fread(data, 1, len, f), len);
	fclose(f);
	if (wrong)
		data[len / 2] ^= 1;
	assert_int_equal(EVP_Digest(data, len, d, &dlen, EVP_sha256(), NULL),
	    1);
	free(data);
	for (i = 0; i < dlen; i++)
		snprintf(hex + 2 * i, 3, "%02x", d[i]);
	assert_int_equal(tusc_journal_list(r->state, &list, &n, &cause), 0);
	assert_int_equal(n, 1);
	assert_non_null(list[0].xxh3);
	assert_null(list[0].sha256);
	free(list[0].xxh3);
	list[0].xxh3 = NULL;
	list[0].sha256 = xstrdup(hex);
	if (tusc_journal_put(r->state, &list[0], &cause) != 0)
		fail_msg("journal: %s", cause);
	tusc_entries_free(list, n);
}

/*
 * A journal entry written before XXH3 (a SHA-256) still resumes: the
 * SHA-256 is checked once and the entry holds XXH3 from then on.
 */
static void
test_old_journal_resumes(void **state)
{
	struct rig		*r = *state;
	struct tusc_result	 first, second, res;
	struct tusc_entry	*list;
	size_t			 n;
	char			*cause = NULL;

	upload_first_chunk(r, &first);
	journal_make_old(r, r->file, 0);
	r->stop_at = 10 * MIB;
	assert_int_equal(tusc_upload(r->c, &r->o, &second, &cause),
	    STATUS_CANCELLED);
	free(cause);
	cause = NULL;
	r->stop_at = 0;
	assert_string_equal(second.uid, first.uid);
	assert_int_equal(second.resumed_from, 5 * MIB);
	assert_int_equal(tusc_journal_list(r->state, &list, &n, &cause), 0);
	assert_int_equal(n, 1);
	assert_int_equal(list[0].offset, 10 * MIB);
	assert_non_null(list[0].xxh3);
	assert_int_equal(strlen(list[0].xxh3), 32);
	assert_null(list[0].sha256);
	tusc_entries_free(list, n);
	upload_ok(r, &res);
	assert_string_equal(res.uid, first.uid);
	assert_int_equal(res.resumed_from, 10 * MIB);
	assert_stored(r, res.uid);
	assert_int_equal(journal_count(r), 0);
	tusc_result_free(&first);
	tusc_result_free(&second);
	tusc_result_free(&res);
}

/* An old entry whose SHA-256 is not the file's: afresh, saying why. */
static void
test_old_journal_differs(void **state)
{
	struct rig		*r = *state;
	struct tusc_result	 first, res;

	upload_first_chunk(r, &first);
	journal_make_old(r, r->file, 1);
	upload_ok(r, &res);
	assert_string_not_equal(res.uid, first.uid);
	assert_int_equal(res.resumed_from, -1);
	assert_non_null(strstr(r->notices.data, "first 5.0 MiB differ from "
	    "the bytes sent"));
	assert_stored(r, res.uid);
	assert_int_equal(journal_count(r), 0);
	tusc_result_free(&first);
	tusc_result_free(&res);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_upload_whole, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_bad_chunk_refused, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_resume, setup, teardown),
		cmocka_unit_test_setup_teardown(test_old_journal_resumes,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_old_journal_differs,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_gone_starts_anew, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_killed_mid_patch, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_restart_after_stop, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_empty_file, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_rewritten_not_resumed,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_stale_swept, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_truncated_during, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_finished_kept, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_gone_says_afresh, setup,
		    teardown),
	};

	signal(SIGPIPE, SIG_IGN);
	return (cmocka_run_group_tests(tests, NULL, NULL));
}
