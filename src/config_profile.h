/*
 * Choosing a profile (config_profile and config_settings are declared in
 * configfile.h); what the token's reader shares.
 */
#ifndef EDGE_CONFIG_PROFILE_H
#define EDGE_CONFIG_PROFILE_H

struct config;
struct config_profile;

/* The profile called name (NULL: the default), or NULL with *cause. */
const struct config_profile *config_profile_or_cause(const struct config *,
		     const char *, char **);

#endif
