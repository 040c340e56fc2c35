/* Messages and names for the status codes declared in status.h. */
#include "config.h"

#include "common.h"
#include "status.h"

#define STATUS_MESSAGE(id, msg) msg,
static const char *status_messages[] = {
	STATUS_CODE_INFO(STATUS_MESSAGE)
};
#undef STATUS_MESSAGE

#define STATUS_NAME(id, msg) #id,
static const char *status_names[] = {
	STATUS_CODE_INFO(STATUS_NAME)
};
#undef STATUS_NAME

const char *
status_message(enum status s)
{
	if ((unsigned)s >= nitems(status_messages))
		return ("unknown status");
	return (status_messages[s]);
}

const char *
status_name(enum status s)
{
	if ((unsigned)s >= nitems(status_names))
		return ("UNKNOWN");
	return (status_names[s]);
}
