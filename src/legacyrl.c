/* Legacy zone rate limits' values, limits and action rule (legacyrl.h). */
#include "config.h"

#include <string.h>

#include "legacyrl.h"

const char *const legacyrl_modes[] = {
	"simulate", "ban", "challenge", "js_challenge", "managed_challenge",
	NULL
};
const char *const legacyrl_methods[] = {
	"GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "_ALL_", NULL
};
const char *const legacyrl_schemes[] = {
	"HTTP", "HTTPS", "_ALL_", NULL
};
const char *const legacyrl_ops[] = { "eq", "ne", NULL };
const char *const legacyrl_content_types[] = {
	"text/plain", "text/xml", "application/json", NULL
};
const char *const legacyrl_bypass_names[] = { "url", NULL };

int
legacyrl_mode_lasts(const char *mode)
{
	return (strcmp(mode, "ban") == 0 || strcmp(mode, "simulate") == 0);
}

int
legacyrl_timeout_ok(double timeout, double period)
{
	return (timeout >= period);
}
