/*
 * Tab completion of a file's path in a line of input, for the prompts that
 * ask for a file and the : commands that take one (:simulate FILE).
 */
#include "config.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "edit.h"
#include "widgets/line.h"
#include "xmalloc.h"

#define PATHCOMP_SHOWN	8	/* names listed in the hint */

void
line_complete_path(struct line *l, size_t from, char **hint)
{
	char		 dir[LINE_MAX_BYTES], full[LINE_MAX_BYTES * 2];
	char		*slash, *common = NULL, *head, *exp;
	const char	*typed, *base;
	struct dirent	*de;
	DIR		*dp, *sub;
	size_t		 n = 0, blen, i;
	struct buf	 names;

	*hint = NULL;
	if (from > l->len)
		return;
	head = xstrndup(l->buf, from);
	/* "~/" completes in the home directory, shown in full. */
	if (l->buf[from] == '~') {
		exp = edit_path_expand(l->buf + from);
		snprintf(full, sizeof full, "%s%s", head, exp);
		line_set(l, full);
		free(exp);
	}
	typed = l->buf + from;
	snprintf(dir, sizeof dir, "%s", typed);
	if ((slash = strrchr(dir, '/')) != NULL) {
		base = typed + (slash - dir) + 1;
		slash[1] = '\0';
	} else {
		base = typed;
		snprintf(dir, sizeof dir, "./");
	}
	blen = strlen(base);
	if ((dp = opendir(dir)) == NULL) {
		free(head);
		return;
	}
	buf_init(&names);
	while ((de = readdir(dp)) != NULL) {
		if (strncmp(de->d_name, base, blen) != 0 ||
		    (de->d_name[0] == '.' && blen == 0) ||
		    strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0)
			continue;
		if (common == NULL)
			common = xstrdup(de->d_name);
		else {
			for (i = 0; common[i] != '\0' &&
			    common[i] == de->d_name[i]; i++)
				;
			common[i] = '\0';
		}
		if (n++ < PATHCOMP_SHOWN)
			buf_addf(&names, "%s ", de->d_name);
	}
	closedir(dp);
	if (common != NULL) {
		snprintf(full, sizeof full, "%.*s%s", (int)(base - l->buf),
		    l->buf, common);
		/* A single directory: step into it. */
		if (n == 1 && (sub = opendir(full + from)) != NULL) {
			closedir(sub);
			strncat(full, "/", sizeof full - strlen(full) - 1);
		}
		line_set(l, full);
	}
	if (n > 1)
		*hint = xprintf("%zu matches: %s%s", n, buf_str(&names),
		    n > PATHCOMP_SHOWN ? "..." : "");
	else if (n == 0)
		*hint = xstrdup("no such file");
	free(common);
	free(head);
	buf_free(&names);
}
