/*
 * edgetui's arguments: the options every command shares, then either the
 * console (tui.c) or one command run by ui/cli/.
 */
#include "config.h"

#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <sys/resource.h>

#include <errno.h>
#include <getopt.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <curl/curl.h>

#include "cli.h"
#include "configfile.h"
#include "http.h"
#include "keymap.h"
#include "log.h"
#include "signals.h"
#include "tui.h"

enum {
	OPT_BASE_URL = 256,
	OPT_ACCOUNT,
	OPT_ZONE,
	OPT_VIDEO,
	OPT_READONLY,
	OPT_DEMO,
	OPT_CONFIG,
	OPT_THEME,
	OPT_VERSION,
	OPT_HELP,
	OPT_HELP_KEYS,
	OPT_LIMIT,
	OPT_FILTER,
	OPT_NAME,
	OPT_OPACITY,
	OPT_PADDING,
	OPT_SCALE,
	OPT_POSITION,
	OPT_VALIDATION,
	OPT_ENABLE,
	OPT_ACTION,
	OPT_YES,
	OPT_CREATOR,
	OPT_SIGNED,
	OPT_CHUNK,
	OPT_WAIT,
	OPT_PLAN,
	OPT_APPLY,
	OPT_DISABLE_LEGACY,
	OPT_COUNTING,
	OPT_REQUEST,
	OPT_IP,
	OPT_COUNTRY,
	OPT_STATUS,
	OPT_EXPLAIN,
	OPT_SIM_LOG, OPT_SIM_FORMAT, OPT_SIM_RULES, OPT_SIM_HOST, OPT_SIM_SCHEME,
	OPT_FROM_URL, OPT_CLIP_START, OPT_CLIP_END, OPT_DL_TYPE, OPT_DL_DELETE,
	OPT_KEY_ID, OPT_PEM, OPT_EXPIRES, OPT_DOWNLOADABLE, OPT_ALLOW_IP,
	OPT_BLOCK_COUNTRY, OPT_AGAIN
};

static const struct option main_options[] = {
	{ "profile",		required_argument, NULL, 'p' },
	{ "base-url",		required_argument, NULL, OPT_BASE_URL },
	{ "account",		required_argument, NULL, OPT_ACCOUNT },
	{ "zone",		required_argument, NULL, OPT_ZONE },
	{ "video",		required_argument, NULL, OPT_VIDEO },
	/* A live input's outputs: its id goes where a video's would. */
	{ "live-input",		required_argument, NULL, OPT_VIDEO },
	{ "readonly",		no_argument,	   NULL, OPT_READONLY },
	{ "demo",		no_argument,	   NULL, OPT_DEMO },
	{ "output",		required_argument, NULL, 'o' },
	{ "config",		required_argument, NULL, OPT_CONFIG },
	{ "theme",		required_argument, NULL, OPT_THEME },
	{ "verbose",		no_argument,	   NULL, 'v' },
	{ "version",		no_argument,	   NULL, OPT_VERSION },
	{ "help",		no_argument,	   NULL, OPT_HELP },
	{ "help-keys",		no_argument,	   NULL, OPT_HELP_KEYS },
	{ "file",		required_argument, NULL, 'f' },
	{ "limit",		required_argument, NULL, OPT_LIMIT },
	{ "filter",		required_argument, NULL, OPT_FILTER },
	{ "name",		required_argument, NULL, OPT_NAME },
	{ "opacity",		required_argument, NULL, OPT_OPACITY },
	{ "padding",		required_argument, NULL, OPT_PADDING },
	{ "scale",		required_argument, NULL, OPT_SCALE },
	{ "position",		required_argument, NULL, OPT_POSITION },
	{ "validation",		no_argument,	   NULL, OPT_VALIDATION },
	{ "enable",		no_argument,	   NULL, OPT_ENABLE },
	{ "action",		required_argument, NULL, OPT_ACTION },
	{ "yes",		no_argument,	   NULL, OPT_YES },
	{ "creator",		required_argument, NULL, OPT_CREATOR },
	{ "require-signed-urls", no_argument,	   NULL, OPT_SIGNED },
	{ "chunk-size",		required_argument, NULL, OPT_CHUNK },
	{ "again",		no_argument,	   NULL, OPT_AGAIN },
	{ "wait",		no_argument,	   NULL, OPT_WAIT },
	{ "plan",		required_argument, NULL, OPT_PLAN },
	{ "apply",		no_argument,	   NULL, OPT_APPLY },
	{ "disable-legacy",	no_argument,	   NULL, OPT_DISABLE_LEGACY },
	{ "counting",		no_argument,	   NULL, OPT_COUNTING },
	{ "request",		required_argument, NULL, OPT_REQUEST },
	{ "ip",			required_argument, NULL, OPT_IP },
	{ "header",		required_argument, NULL, 'H' },
	{ "country",		required_argument, NULL, OPT_COUNTRY },
	{ "status",		required_argument, NULL, OPT_STATUS },
	{ "explain",		no_argument,	   NULL, OPT_EXPLAIN },
	{ "log",		required_argument, NULL, OPT_SIM_LOG },
	{ "format",		required_argument, NULL, OPT_SIM_FORMAT },
	{ "rules",		required_argument, NULL, OPT_SIM_RULES },
	{ "host",		required_argument, NULL, OPT_SIM_HOST },
	{ "scheme",		required_argument, NULL, OPT_SIM_SCHEME },
	{ "from-url",		required_argument, NULL, OPT_FROM_URL },
	{ "start",		required_argument, NULL, OPT_CLIP_START },
	{ "end",		required_argument, NULL, OPT_CLIP_END },
	{ "type",		required_argument, NULL, OPT_DL_TYPE },
	{ "delete",		no_argument,	   NULL, OPT_DL_DELETE },
	{ "key-id",		required_argument, NULL, OPT_KEY_ID },
	{ "pem",		required_argument, NULL, OPT_PEM },
	{ "expires",		required_argument, NULL, OPT_EXPIRES },
	{ "downloadable",	no_argument,	   NULL, OPT_DOWNLOADABLE },
	{ "allow-ip",		required_argument, NULL, OPT_ALLOW_IP },
	{ "block-country",	required_argument, NULL, OPT_BLOCK_COUNTRY },
	{ NULL, 0, NULL, 0 }
};

static const char main_usage_head[] =
"usage: edgetui [OPTIONS]                      the console\n"
"       edgetui [OPTIONS] COMMAND [ARGS]       one command, then exit\n"
"\n";

/* The commands part comes from their table (ui/cli/table.c). */
static const char main_usage_options[] =
"\n"
"Options:\n"
"  -p, --profile NAME     profile from the config file\n"
"      --base-url URL     API base (default " CONFIG_DEFAULT_BASE_URL ")\n"
"      --account ID       account id (32 hex digits)\n"
"      --zone ID          zone id (32 hex digits)\n"
"      --video ID         the video of video-scoped kinds\n"
"      --live-input ID    the live input of live-outputs\n"
"      --readonly         refuse every change before it is sent\n"
"      --demo             the console on a local edgemu with demo data\n"
"  -o, --output FORMAT    table, json or yaml\n"
"      --config FILE      config file instead of the default\n"
"      --theme NAME       console theme (ignored by commands)\n"
"  -v, --verbose          log requests and answers on stderr (secrets hidden)\n"
"      --version          print the version\n"
"      --help             this help\n"
"      --help-keys        the console's keys and what they do\n"
"\n"
"Environment: CLOUDFLARE_API_TOKEN, CLOUDFLARE_ACCOUNT_ID, CLOUDFLARE_ZONE_ID,\n"
"  CLOUDFLARE_BASE_URL, EDITOR.\n"
"Exit status: 0 done; 1 the server refused; 2 usage or invalid input (nothing\n"
"  sent); 3 transport failure.\n";

static int
main_filter(struct cli_opts *o, const char *arg)
{
	if (o->nfilters == CLI_MAX_FILTERS)
		return (cli_usage_error("--filter: at most %d", CLI_MAX_FILTERS));
	o->filters[o->nfilters++] = arg;
	return (0);
}

static int
main_limit(struct cli_opts *o, const char *arg)
{
	char	*end;
	long	 n;

	n = strtol(arg, &end, 10);
	if (*arg == '\0' || *end != '\0' || n <= 0)
		return (cli_usage_error("--limit: '%s' is not a positive "
		    "number", arg));
	o->limit = n;
	return (0);
}

/* A form field of a multipart create, given as --OPTION [VALUE]. */
static int
main_field(struct cli_opts *o, const char *option, const char *value)
{
	if (o->nfields == CLI_MAX_FIELDS)
		return (cli_usage_error("--%s: at most %d form fields", option,
		    CLI_MAX_FIELDS));
	o->fields[o->nfields].option = option;
	o->fields[o->nfields++].value = value;
	o->seen |= CLI_OPT_FIELD;
	return (0);
}

static int
main_chunk(struct cli_opts *o, const char *arg)
{
	char		*end;
	long long	 n;

	errno = 0;
	n = strtoll(arg, &end, 10);
	if (*arg == '\0' || *end != '\0' || n <= 0 || errno != 0)
		return (cli_usage_error("--chunk-size: '%s' is not a positive "
		    "number of bytes", arg));
	o->chunk_size = n;
	return (0);
}

static int
main_header(struct cli_opts *o, const char *arg)
{
	if (o->nheaders == CLI_MAX_HEADERS)
		return (cli_usage_error("-H: at most %d", CLI_MAX_HEADERS));
	o->headers[o->nheaders++] = arg;
	o->seen |= CLI_OPT_REQUEST;
	return (0);
}

static int
main_status(struct cli_opts *o, const char *arg)
{
	char	*end;
	long	 n;

	n = strtol(arg, &end, 10);
	if (*arg == '\0' || *end != '\0' || n < 100 || n > 599)
		return (cli_usage_error("--status: '%s' is not an HTTP status "
		    "(100 to 599)", arg));
	o->status = (int)n;
	o->seen |= CLI_OPT_STATUS;
	return (0);
}

/* One option of expr and rules into o; -1 (after the message). */
static int
main_rules_option(struct cli_opts *o, int ch, const char *arg)
{
	switch (ch) {
	case OPT_PLAN:
		o->plan = arg;
		o->seen |= CLI_OPT_PLAN;
		break;
	case OPT_COUNTING:
		o->counting = 1;
		o->seen |= CLI_OPT_PLAN;
		break;
	case OPT_REQUEST:
		o->request = arg;
		o->seen |= CLI_OPT_REQUEST;
		break;
	case OPT_IP:
		o->ip = arg;
		o->seen |= CLI_OPT_REQUEST;
		break;
	case OPT_COUNTRY:
		o->country = arg;
		o->seen |= CLI_OPT_REQUEST;
		break;
	case 'H':
		return (main_header(o, arg) == 0 ? 0 : -1);
	case OPT_STATUS:
		return (main_status(o, arg) == 0 ? 0 : -1);
	case OPT_EXPLAIN:
		o->explain = 1;
		o->seen |= CLI_OPT_EXPLAIN;
		break;
	}
	return (0);
}

/* The options of upload --from-url, clip and download. */
static void
main_stream_option(struct cli_opts *o, int ch, const char *arg)
{
	switch (ch) {
	case OPT_FROM_URL:
		o->from_url = arg;
		o->seen |= CLI_OPT_UPLOAD;
		break;
	case OPT_CLIP_START:
		o->clip_start = arg;
		o->seen |= CLI_OPT_CLIP;
		break;
	case OPT_CLIP_END:
		o->clip_end = arg;
		o->seen |= CLI_OPT_CLIP;
		break;
	case OPT_DL_TYPE:
		o->dl_type = arg;
		o->seen |= CLI_OPT_DOWNLOAD;
		break;
	case OPT_DL_DELETE:
		o->dl_delete = 1;
		o->seen |= CLI_OPT_DOWNLOAD;
		break;
	}
}

/* The options of rules simulate. */
static void
main_simulate(struct cli_opts *o, int ch, const char *arg)
{
	switch (ch) {
	case OPT_SIM_LOG:	o->sim_log = arg; break;
	case OPT_SIM_FORMAT:	o->sim_format = arg; break;
	case OPT_SIM_RULES:	o->sim_rules = arg; break;
	case OPT_SIM_HOST:	o->sim_host = arg; break;
	default:		o->sim_scheme = arg; break;
	}
	o->seen |= CLI_OPT_SIMULATE;
}

/* One option into o; -1 (after the message) for a bad one. */
static int
main_option(struct cli_opts *o, int ch, int idx, const char *arg)
{
	switch (ch) {
	case 'p':		o->profile = arg; break;
	case OPT_BASE_URL:	o->base_url = arg; break;
	case OPT_ACCOUNT:	o->account = arg; break;
	case OPT_ZONE:		o->zone = arg; break;
	case OPT_VIDEO:		o->video = arg; break;
	case OPT_READONLY:	o->readonly = 1; break;
	case 'o':		o->output = arg; break;
	case OPT_CONFIG:	o->config = arg; break;
	case OPT_THEME:		o->theme = arg; break;	/* the console's */
	case 'v':		o->verbose = 1; break;
	case 'f':
		o->file = arg;
		o->seen |= CLI_OPT_FILE;
		break;
	case OPT_LIMIT:
		o->seen |= CLI_OPT_LIMIT;
		return (main_limit(o, arg) == 0 ? 0 : -1);
	case OPT_FILTER:
		o->seen |= CLI_OPT_FILTER;
		return (main_filter(o, arg) == 0 ? 0 : -1);
	case OPT_NAME:
		o->name = arg;
		o->seen |= CLI_OPT_NAME;
		break;
	case OPT_OPACITY:
	case OPT_PADDING:
	case OPT_SCALE:
	case OPT_POSITION:
	case OPT_VALIDATION:
	case OPT_ENABLE:
	case OPT_ACTION:
		return (main_field(o, main_options[idx].name,
		    arg != NULL ? arg : "true") == 0 ? 0 : -1);
	case OPT_YES:
		o->yes = 1;
		o->seen |= CLI_OPT_YES;
		break;
	case OPT_CREATOR:
		o->creator = arg;
		o->seen |= CLI_OPT_UPLOAD;
		break;
	case OPT_SIGNED:
		o->require_signed = 1;
		o->seen |= CLI_OPT_UPLOAD;
		break;
	case OPT_CHUNK:
		o->seen |= CLI_OPT_UPLOAD;
		return (main_chunk(o, arg) == 0 ? 0 : -1);
	case OPT_AGAIN:
		o->again = 1;
		o->seen |= CLI_OPT_UPLOAD;
		break;
	case OPT_WAIT:
		o->seen |= CLI_OPT_WAIT;
		break;
	case OPT_APPLY:
		o->apply = 1;
		o->seen |= CLI_OPT_MIGRATE;
		break;
	case OPT_DISABLE_LEGACY:
		o->disable_legacy = 1;
		o->seen |= CLI_OPT_MIGRATE;
		break;
	case OPT_PLAN:
	case OPT_COUNTING:
	case OPT_REQUEST:
	case OPT_IP:
	case OPT_COUNTRY:
	case 'H':
	case OPT_STATUS:
	case OPT_EXPLAIN:
		return (main_rules_option(o, ch, arg));
	case OPT_SIM_LOG:
	case OPT_SIM_FORMAT:
	case OPT_SIM_RULES:
	case OPT_SIM_HOST:
	case OPT_SIM_SCHEME:
		main_simulate(o, ch, arg);
		break;
	case OPT_FROM_URL:
	case OPT_CLIP_START:
	case OPT_CLIP_END:
	case OPT_DL_TYPE:
	case OPT_DL_DELETE:
		main_stream_option(o, ch, arg);
		break;
	case OPT_KEY_ID: case OPT_PEM: case OPT_EXPIRES:
	case OPT_DOWNLOADABLE: case OPT_ALLOW_IP: case OPT_BLOCK_COUNTRY:
		return (cli_token_option(o, main_options[idx].name, arg));
	default:
		return (cli_usage_error("unknown option"));
	}
	return (0);
}

/*
 * A core file would hold the API token (and whatever else is in memory):
 * none is written, and the process cannot be read by ptrace, unless
 * EDGETUI_CORE=1 asks for cores to debug a crash. The limit passes to
 * the commands run (token_command, the editor).
 */
static void
main_no_core(void)
{
	const char	*v = getenv("EDGETUI_CORE");
	struct rlimit	 rl = { 0, 0 };

	if (v != NULL && strcmp(v, "1") == 0)
		return;
	if (setrlimit(RLIMIT_CORE, &rl) != 0)
		fprintf(stderr, "edgetui: core dumps stay on: setrlimit: %s\n",
		    strerror(errno));
#ifdef PR_SET_DUMPABLE
	if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0)
		fprintf(stderr, "edgetui: prctl(PR_SET_DUMPABLE): %s\n",
		    strerror(errno));
#endif
}

int
main(int argc, char **argv)
{
	struct cli_opts	 o;
	int		 ch, idx, status, demo = 0;

	main_no_core();
	memset(&o, 0, sizeof o);
	o.options = main_options;
	/* Character widths only: numbers keep the C locale's format. */
	setlocale(LC_CTYPE, "");
	log_set_sink(log_sink_stderr, (void *)"edgetui");
	opterr = 0;
	while ((ch = getopt_long(argc, argv, "p:o:vf:H:", main_options,
	    &idx)) != -1) {
		switch (ch) {
		case OPT_HELP:
			fputs(main_usage_head, stdout);
			cli_usage_commands(stdout);
			fputs(main_usage_options, stdout);
			return (0);
		case OPT_HELP_KEYS:
			keymap_print_defaults(stdout);
			fputs(KEYMAP_RULE_FORM_HELP, stdout);
			return (0);
		case OPT_VERSION:
			printf("edgetui %s\n", PACKAGE_VERSION);
			return (0);
		case OPT_DEMO:
			demo = 1;
			break;
		case '?':
			if (optopt != 0)
				return (cli_usage_error("option -%c: unknown, "
				    "or needs a value", optopt));
			return (cli_usage_error("unknown option '%s', or it "
			    "needs a value", argv[optind - 1]));
		default:
			if (main_option(&o, ch, idx, optarg) != 0)
				return (HTTP_EXIT_USAGE);
			break;
		}
	}
	if (o.verbose)
		log_set_level(LOG_LEVEL_DEBUG);
	if (optind == argc || demo) {
		if (optind != argc)
			return (cli_usage_error("--demo starts the console: it "
			    "takes no command"));
		if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
			fprintf(stderr, "edgetui: libcurl failed to start\n");
			return (HTTP_EXIT_TRANSPORT);
		}
		status = tui_main(&o, demo, o.theme);
		curl_global_cleanup();
		return (status);
	}
	if (!cli_is_command(argv[optind]))
		return (cli_unknown_command(argv[optind]));
	signals_init(0);

	if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
		fprintf(stderr, "edgetui: libcurl failed to start\n");
		return (HTTP_EXIT_TRANSPORT);
	}
	status = cli_run(&o, argc - optind, argv + optind);
	curl_global_cleanup();
	return (status);
}
