/*
 * Status codes for everything the network, a server, a file or the user can
 * cause. Declared once: the enum and the messages come from one list.
 */
#ifndef EDGE_STATUS_H
#define EDGE_STATUS_H

#define STATUS_CODE_INFO(_)						\
	_(OK,		"success")					\
	_(INVALID,	"invalid input")				\
	_(USAGE,	"usage error")					\
	_(NOT_FOUND,	"not found")					\
	_(EXISTS,	"already exists")				\
	_(CONFLICT,	"conflict")					\
	_(TOO_LARGE,	"too large")					\
	_(IO,		"input/output error")				\
	_(PARSE,	"parse error")					\
	_(TRANSPORT,	"transport failure")				\
	_(TIMEOUT,	"timed out")					\
	_(SERVER,	"the server refused the request")		\
	_(AUTH,		"authentication failed")			\
	_(READONLY,	"refused in read-only mode")			\
	_(RATE_LIMITED,	"rate-limited")					\
	_(GONE,		"gone")						\
	_(CANCELLED,	"cancelled")					\
	_(UNSUPPORTED,	"not supported")				\
	_(INTERNAL,	"internal error")

#define STATUS_ENUM(id, msg) STATUS_##id,
enum status {
	STATUS_CODE_INFO(STATUS_ENUM)
	STATUS_MAX
};
#undef STATUS_ENUM

const char	*status_message(enum status);
const char	*status_name(enum status);

#endif
