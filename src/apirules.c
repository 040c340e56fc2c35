/* Rules of the API both edgetui and edgemu check (see apirules.h). */
#include "config.h"

#include <ctype.h>
#include <string.h>

#include "apirules.h"

int
apirules_jwt_claim_ok(const char *name)
{
	const char	*colon = strchr(name, ':');
	size_t		 n, i;

	if (colon == NULL)
		return (0);
	n = (size_t)(colon - name);
	if (n < 32 || n > 36)
		return (0);
	for (i = 0; i < n; i++) {
		if (!islower((unsigned char)name[i]) &&
		    !isdigit((unsigned char)name[i]) && name[i] != '-')
			return (0);
	}
	return (colon[1] == '$');
}
