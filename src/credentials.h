/*
 * A profile's API token and the checks the config file's reader shares
 * (config_token and config_secret_free are declared in configfile.h).
 */
#ifndef EDGE_CREDENTIALS_H
#define EDGE_CREDENTIALS_H

#include <sys/types.h>

#include <stddef.h>

#include "compat.h"	/* explicit_bzero where libc has none */

/* Whether s is a usable token: not empty, no space or control character. */
int		 credentials_token_chars(const char *, size_t);
/* Who a mode lets in, for messages about files that should be private. */
const char	*credentials_exposure(mode_t);

#endif
