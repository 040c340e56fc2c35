/*
 * Fuzz the config parser: any bytes as a config file. Whatever the input,
 * the result is usable (a default profile that exists, values within their
 * ranges), every problem names the file, and its line when it has one,
 * and no message holds a control character.
 */
#include "config.h"

#include <ctype.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "configfile.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static char *fuzz_env[] = { "HOME=/home/fuzz", NULL };

static void
broken(const char *what, const char *detail)
{
	fprintf(stderr, "fuzz_config: %s: %s\n", what,
	    detail != NULL ? detail : "");
	abort();
}

static void
check_hex32(const char *id)
{
	size_t	i;

	if (id == NULL)
		return;
	if (strlen(id) != 32)
		broken("an id is not 32 characters", id);
	for (i = 0; i < 32; i++) {
		if (!isxdigit((unsigned char)id[i]) ||
		    isupper((unsigned char)id[i]))
			broken("an id is not lowercase hex", id);
	}
}

static void
check_profile(const struct config *cfg, const struct config_profile *prof)
{
	struct config_settings	 s;
	char			*cause = NULL;

	if (prof->name == NULL || *prof->name == '\0')
		broken("a profile has no name", NULL);
	if (prof->base_url == NULL || strncasecmp(prof->base_url, "http", 4))
		broken("a profile's base_url is not a URL", prof->base_url);
	if (prof->budget < 1 || prof->budget > 100000)
		broken("a budget is out of range", prof->name);
	check_hex32(prof->account);
	check_hex32(prof->zone);
	if ((prof->token != NULL) + (prof->token_file != NULL) +
	    (prof->token_command != NULL) > 1)
		broken("more than one token source", prof->name);
	if (prof->token_file != NULL && prof->token_file[0] != '/')
		broken("a token_file is not absolute", prof->token_file);
	if (config_settings(cfg, prof->name, fuzz_env, &s, &cause) != 0)
		broken("no settings for a profile", cause);
	config_settings_free(&s);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct config			*cfg;
	const struct config_problem	*pr;
	char				 prefix[64];
	size_t				 i, j;

	/* Odd sizes read as a group-writable file: the refusals run too. */
	cfg = config_parse_text("/etc/edgetui/config.yaml", (const char *)data,
	    size, (size & 1) ? 0664 : 0600, fuzz_env);
	if (cfg == NULL)
		broken("no config", NULL);

	if (cfg->nprofiles == 0 || cfg->default_profile == NULL ||
	    config_profile(cfg, NULL) == NULL)
		broken("no default profile", cfg->default_profile);
	for (i = 0; i < cfg->nprofiles; i++)
		check_profile(cfg, &cfg->profiles[i]);
	if (cfg->prefs.chunk_size % (256 * 1024) != 0 ||
	    cfg->prefs.chunk_size < 5 * 1024 * 1024 ||
	    cfg->prefs.chunk_size > 200 * 1024 * 1024)
		broken("chunk_size out of range", NULL);
	if (cfg->prefs.output < CONFIG_OUTPUT_TABLE ||
	    cfg->prefs.output > CONFIG_OUTPUT_YAML)
		broken("output out of range", NULL);
	if (cfg->prefs.theme == NULL)
		broken("no theme", NULL);

	if (cfg->nproblems > CONFIG_MAX_PROBLEMS)
		broken("too many problems kept", NULL);
	for (i = 0; i < cfg->nproblems; i++) {
		pr = &cfg->problems[i];
		if (pr->line < 0 || pr->column < 0)
			broken("a negative position", pr->message);
		if (i > 0 && pr->line < pr[-1].line &&
		    i + 1 != CONFIG_MAX_PROBLEMS)
			broken("problems out of the file's order", pr->message);
		if (pr->line == 0)
			snprintf(prefix, sizeof prefix, "%s: ", pr->file);
		else
			snprintf(prefix, sizeof prefix, "%s:%d:", pr->file,
			    pr->line);
		if (strncmp(pr->message, prefix, strlen(prefix)) != 0)
			broken("a problem does not name file and line",
			    pr->message);
		/* Messages reach the screen: nothing in them may control it. */
		for (j = 0; pr->message[j] != '\0'; j++) {
			if ((unsigned char)pr->message[j] < 0x20 ||
			    pr->message[j] == 0x7f)
				broken("a control character in a problem",
				    pr->message);
		}
	}
	config_free(cfg);
	return (0);
}
