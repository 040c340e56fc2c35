/*
 * Unit tests for streamsign.c and jwt.c: a token signed locally verifies
 * with the key's public half and carries exactly the claims asked for; the
 * API's base64 PEM is decoded; a bad key is a clear error; the access
 * rules, durations and URLs of the options; remembered keys are 0600,
 * kept per server and account, and those kept by id alone still read.
 */
#include "config.h"

#include <sys/stat.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/pem.h>

#include "common.h"
#include "encode.h"
#include "jwt.h"
#include "streamsign.h"
#include "testdir.h"
#include "xmalloc.h"

#define KID	"0123456789abcdef0123456789abcdef"
#define UID	"fedcba9876543210fedcba9876543210"

struct keys {
	char	*pem;		/* PKCS#1 private */
	char	*pub;		/* SubjectPublicKeyInfo */
};

static int
keys_setup(void **state)
{
	struct keys	*k = xcalloc(1, sizeof *k);
	EVP_PKEY	*pk = EVP_RSA_gen(2048);
	BIO		*bio;
	char		*data;
	long		 n;

	assert_non_null(pk);
	bio = BIO_new(BIO_s_mem());
	/* The traditional form: "BEGIN RSA PRIVATE KEY", as the API's. */
	PEM_write_bio_PrivateKey_traditional(bio, pk, NULL, NULL, 0, NULL,
	    NULL);
	n = BIO_get_mem_data(bio, &data);
	k->pem = xstrndup(data, (size_t)n);
	BIO_free(bio);
	assert_non_null(strstr(k->pem, "BEGIN RSA PRIVATE KEY"));
	k->pub = jwt_key_public_pem(pk);
	EVP_PKEY_free(pk);
	*state = k;
	return (0);
}

static int
keys_teardown(void **state)
{
	struct keys	*k = *state;

	free(k->pem);
	free(k->pub);
	free(k);
	return (0);
}

static void
sign_opts(struct streamsign *s, const cJSON *rules)
{
	memset(s, 0, sizeof *s);
	s->video = UID;
	s->key_id = KID;
	s->exp = 1800000000;
	s->nbf = 1799990000;
	s->downloadable = 1;
	s->access_rules = rules;
}

static void
test_token_verifies(void **state)
{
	struct keys		*k = *state;
	struct streamsign	 s;
	struct evp_pkey_st	*pub;
	char			*token, *b64, *cause = NULL, *tampered;
	cJSON			*h, *c, *want;

	sign_opts(&s, NULL);
	token = streamsign_token(k->pem, strlen(k->pem), &s, &cause);
	assert_non_null(token);
	/* base64url without padding, three parts. */
	assert_null(strpbrk(token, "+/="));
	pub = jwt_key_public(k->pub, strlen(k->pub), &cause);
	assert_non_null(pub);
	assert_int_equal(jwt_verify(pub, token, &cause), 0);

	/* The header and claims, exactly. */
	assert_int_equal(jwt_decode(token, &h, &c, &cause), 0);
	want = cJSON_Parse("{\"alg\":\"RS256\",\"kid\":\"" KID "\"}");
	assert_true(cJSON_Compare(h, want, 1));
	cJSON_Delete(want);
	want = cJSON_Parse("{\"sub\":\"" UID "\",\"kid\":\"" KID "\","
	    "\"exp\":1800000000,\"nbf\":1799990000,\"downloadable\":true}");
	assert_true(cJSON_Compare(c, want, 1));
	cJSON_Delete(want);
	cJSON_Delete(h);
	cJSON_Delete(c);

	/* One changed character of the claims breaks the signature. */
	tampered = xstrdup(token);
	tampered[strchr(tampered, '.') - tampered + 5] ^= 1;
	assert_int_equal(jwt_verify(pub, tampered, &cause), -1);
	assert_non_null(strstr(cause, "signature"));
	free(cause);
	cause = NULL;
	free(tampered);
	free(token);

	/* The API's form of the key (base64 of the PEM) signs the same. */
	b64 = encode_base64(k->pem, strlen(k->pem));
	token = streamsign_token(b64, strlen(b64), &s, &cause);
	assert_non_null(token);
	assert_int_equal(jwt_verify(pub, token, &cause), 0);
	free(token);
	free(b64);
	jwt_key_free(pub);
}

static void
test_token_rules(void **state)
{
	struct keys		*k = *state;
	struct streamsign	 s;
	const char		*ips[] = { "192.0.2.0/24", "2001:db8::/32" };
	const char		*cc[] = { "de", "FR" };
	char			*token, *cause = NULL;
	cJSON			*rules, *h, *c, *want;

	rules = streamsign_rules(ips, 2, cc, 2, &cause);
	assert_non_null(rules);
	want = cJSON_Parse("[{\"type\":\"ip.geoip.country\",\"action\":"
	    "\"block\",\"country\":[\"DE\",\"FR\"]},{\"type\":\"ip.src\","
	    "\"action\":\"allow\",\"ip\":[\"192.0.2.0/24\",\"2001:db8::/32\"]},"
	    "{\"type\":\"any\",\"action\":\"block\"}]");
	assert_true(cJSON_Compare(rules, want, 1));
	cJSON_Delete(want);
	sign_opts(&s, rules);
	s.nbf = 0;
	s.downloadable = 0;
	token = streamsign_token(k->pem, strlen(k->pem), &s, &cause);
	assert_non_null(token);
	assert_int_equal(jwt_decode(token, &h, &c, &cause), 0);
	assert_null(cJSON_GetObjectItem(c, "nbf"));
	assert_true(cJSON_IsFalse(cJSON_GetObjectItem(c, "downloadable")));
	assert_true(cJSON_Compare(cJSON_GetObjectItem(c, "accessRules"),
	    rules, 1));
	cJSON_Delete(h);
	cJSON_Delete(c);
	cJSON_Delete(rules);
	free(token);

	assert_null(streamsign_rules(NULL, 0, NULL, 0, &cause));
	assert_null(cause);
	ips[0] = "10.0.0.0/33";
	assert_null(streamsign_rules(ips, 1, NULL, 0, &cause));
	assert_non_null(strstr(cause, "10.0.0.0/33"));
	free(cause);
	cc[0] = "DEU";
	assert_null(streamsign_rules(NULL, 0, cc, 1, &cause));
	assert_non_null(strstr(cause, "two-letter"));
	free(cause);
}

static void
test_bad_pem(void **state)
{
	struct keys		*k = *state;
	struct streamsign	 s;
	char			*cause = NULL, *cut;

	(void)k;
	sign_opts(&s, NULL);
	assert_null(streamsign_token("hello", 5, &s, &cause));
	assert_non_null(strstr(cause, "neither a PEM nor the base64"));
	free(cause);
	cause = NULL;
	/* A PEM cut in the middle: OpenSSL's reason, named as the key's. */
	cut = xstrndup(k->pem, strlen(k->pem) / 2);
	assert_null(streamsign_token(cut, strlen(cut), &s, &cause));
	assert_non_null(strstr(cause, "the signing key: not a usable PEM "
	    "private key"));
	free(cause);
	cause = NULL;
	free(cut);
	/* A public key cannot sign. */
	assert_null(streamsign_token(k->pub, strlen(k->pub), &s, &cause));
	assert_non_null(strstr(cause, "the signing key"));
	free(cause);
}

static void
test_options(void **state)
{
	char	*cause = NULL, *u;

	(void)state;
	assert_int_equal(streamsign_duration("90", &cause), 90);
	assert_int_equal(streamsign_duration("30m", &cause), 1800);
	assert_int_equal(streamsign_duration("1h", &cause), 3600);
	assert_int_equal(streamsign_duration("24h", &cause), 86400);
	assert_int_equal(streamsign_duration("1d", &cause), 86400);
	assert_int_equal(streamsign_duration("25h", &cause), -1);
	assert_non_null(strstr(cause, "1s to 24h"));
	free(cause);
	assert_int_equal(streamsign_duration("h", &cause), -1);
	free(cause);
	assert_int_equal(streamsign_duration("-5", &cause), -1);
	free(cause);

	u = streamsign_url("https://customer-x.cloudflarestream.com/" UID
	    "/manifest/video.m3u8", UID, "TOK");
	assert_string_equal(u, "https://customer-x.cloudflarestream.com/TOK"
	    "/manifest/video.m3u8");
	free(u);
	u = streamsign_url("http://127.0.0.1:8787/media/" UID "/watch", UID,
	    "TOK");
	assert_string_equal(u, "http://127.0.0.1:8787/media/TOK/watch");
	free(u);
	assert_null(streamsign_url("https://h/other/x", UID, "TOK"));
	u = streamsign_download_url("https://h/TOK/manifest/video.m3u8");
	assert_string_equal(u, "https://h/TOK/downloads/default.mp4");
	free(u);
	assert_null(streamsign_download_url("https://h/TOK/manifest/video.mpd"));
	u = streamsign_token_short("eyJhbGciOiJSUzI1NiJ9.abc.def");
	assert_string_equal(u, "eyJhbGciOiJS...");
	free(u);
}

/* A whole small file, allocated. */
static char *
slurp_file(const char *path)
{
	char	 buf[4096];
	FILE	*f = fopen(path, "r");
	size_t	 n;

	assert_non_null(f);
	n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	return (xstrdup(buf));
}

static void
spill_file(const char *path, const char *text)
{
	FILE	*f = fopen(path, "w");

	assert_non_null(f);
	assert_int_equal(fputs(text, f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
}

static const struct streamsign_owner owner_a = {
	"https://api.example.com/client/v4", "acct-a"
};

static void
test_remembered(void **state)
{
	struct keys	*k = *state;
	struct stat	 sb;
	char		*dir, *path = NULL, *cause = NULL, *text, **ids;

	dir = testdir_new("streamsign");
	assert_int_equal(streamsign_key_save(dir, &owner_a, KID, k->pem,
	    &path, &cause), 0);
	assert_int_equal(stat(path, &sb), 0);
	assert_int_equal(sb.st_mode & 0777, 0600);
	free(path);
	assert_true(streamsign_key_known(dir, &owner_a, KID));
	assert_false(streamsign_key_known(dir, &owner_a, UID));
	text = streamsign_key_load(dir, &owner_a, KID, &cause);
	assert_string_equal(text, k->pem);
	free(text);
	assert_null(streamsign_key_load(dir, &owner_a, UID, &cause));
	assert_non_null(strstr(cause, "no signing key " UID));
	free(cause);
	assert_int_equal(streamsign_key_save(dir, &owner_a, "../x", k->pem,
	    NULL, &cause), -1);
	free(cause);
	assert_int_equal(streamsign_key_save(dir, &owner_a, UID, "not a key",
	    NULL, &cause), -1);
	free(cause);
	ids = streamsign_key_list(dir, &owner_a);
	assert_string_equal(ids[0], KID);
	assert_null(ids[1]);
	streamsign_key_list_free(ids);
	testdir_remove(dir);
	free(dir);
}

/* Another account or server never finds the key; the same one does. */
static void
test_remembered_owner(void **state)
{
	static const struct streamsign_owner same = {
		"https://api.example.com/client/v4//", "acct-a"
	}, other_account = {
		"https://api.example.com/client/v4", "acct-b"
	}, other_server = {
		"http://127.0.0.1:8787/client/v4", "acct-a"
	}, no_account = {
		"https://api.example.com/client/v4", NULL
	};
	const struct streamsign_owner *const others[] = {
		&other_account, &other_server, &no_account
	};
	struct keys	*k = *state;
	char		*dir, *path = NULL, *cause = NULL, *text, **ids;
	char		*owner, *slash;
	size_t		 i;

	dir = testdir_new("streamsign");
	assert_int_equal(streamsign_key_save(dir, &owner_a, KID, k->pem,
	    &path, &cause), 0);
	/* Beside the key, whose it is in words. */
	slash = strrchr(path, '/');
	*slash = '\0';
	owner = xprintf("%s/owner", path);
	text = slurp_file(owner);
	assert_string_equal(text, "base_url https://api.example.com/client/v4"
	    "\naccount acct-a\n");
	free(text);
	free(owner);
	free(path);
	/* A trailing '/' is the same server. */
	assert_true(streamsign_key_known(dir, &same, KID));
	text = streamsign_key_load(dir, &same, KID, &cause);
	assert_string_equal(text, k->pem);
	free(text);
	for (i = 0; i < nitems(others); i++) {
		assert_false(streamsign_key_known(dir, others[i], KID));
		assert_null(streamsign_key_load(dir, others[i], KID, &cause));
		assert_non_null(strstr(cause, "for this server and account"));
		free(cause);
		ids = streamsign_key_list(dir, others[i]);
		assert_null(ids[0]);
		streamsign_key_list_free(ids);
	}
	/* Each has its own. */
	assert_int_equal(streamsign_key_save(dir, &other_account, UID, k->pem,
	    NULL, &cause), 0);
	ids = streamsign_key_list(dir, &other_account);
	assert_string_equal(ids[0], UID);
	assert_null(ids[1]);
	streamsign_key_list_free(ids);
	ids = streamsign_key_list(dir, &owner_a);
	assert_string_equal(ids[0], KID);
	assert_null(ids[1]);
	streamsign_key_list_free(ids);
	assert_false(streamsign_key_known(dir, &owner_a, UID));
	testdir_remove(dir);
	free(dir);
}

/*
 * A key remembered the old way, by id alone (signing-keys/ID.pem): read
 * when its id is asked for, whoever asks; never listed as an owner's.
 */
static void
test_remembered_old(void **state)
{
	struct keys	*k = *state;
	char		*dir, *sub, *file, *cause = NULL, *text, **ids;

	dir = testdir_new("streamsign");
	sub = xprintf("%s/signing-keys", dir);
	assert_int_equal(mkdir(sub, 0700), 0);
	file = xprintf("%s/" UID ".pem", sub);
	spill_file(file, k->pem);
	assert_true(streamsign_key_known(dir, &owner_a, UID));
	text = streamsign_key_load(dir, &owner_a, UID, &cause);
	assert_non_null(text);
	assert_string_equal(text, k->pem);
	free(text);
	ids = streamsign_key_list(dir, &owner_a);
	assert_null(ids[0]);
	streamsign_key_list_free(ids);
	ids = streamsign_key_list_old(dir);
	assert_string_equal(ids[0], UID);
	assert_null(ids[1]);
	streamsign_key_list_free(ids);
	/* The owner's key of that id comes first. */
	assert_int_equal(streamsign_key_save(dir, &owner_a, UID, k->pub,
	    NULL, &cause), 0);
	text = streamsign_key_load(dir, &owner_a, UID, &cause);
	assert_string_equal(text, k->pub);
	free(text);
	ids = streamsign_key_list_old(dir);
	assert_string_equal(ids[0], UID);
	assert_null(ids[1]);
	streamsign_key_list_free(ids);
	free(file);
	free(sub);
	testdir_remove(dir);
	free(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_token_verifies),
		cmocka_unit_test(test_token_rules),
		cmocka_unit_test(test_bad_pem),
		cmocka_unit_test(test_options),
		cmocka_unit_test(test_remembered),
		cmocka_unit_test(test_remembered_owner),
		cmocka_unit_test(test_remembered_old),
	};

	return (cmocka_run_group_tests(tests, keys_setup, keys_teardown));
}
