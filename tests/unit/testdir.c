/* Temporary directories for tests that write files. */
#include "config.h"

#include <sys/stat.h>

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>

#include "testdir.h"
#include "xmalloc.h"

static int
testdir_rm_one(const char *path, const struct stat *sb, int flag,
    struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return (remove(path));
}

char *
testdir_new(const char *name)
{
	const char	*tmp = getenv("TMPDIR");
	char		*dir;

	dir = xprintf("%s/edgetui-%s-XXXXXX", tmp != NULL && *tmp != '\0' ?
	    tmp : "/tmp", name);
	if (mkdtemp(dir) == NULL) {
		free(dir);
		return (NULL);
	}
	return (dir);
}

int
testdir_remove(const char *dir)
{
	return (nftw(dir, testdir_rm_one, 16, FTW_DEPTH | FTW_PHYS));
}

int
testdir_setup(void **state, const char *name)
{
	char	*dir;

	if ((dir = testdir_new(name)) == NULL)
		return (-1);
	*state = dir;
	return (0);
}

int
testdir_teardown(void **state)
{
	char	*dir = *state;
	int	 rc;

	rc = testdir_remove(dir);
	free(dir);
	return (rc);
}
