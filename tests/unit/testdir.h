/* Temporary directories for tests that write files: made, then removed whole. */
#ifndef EDGE_TESTDIR_H
#define EDGE_TESTDIR_H

/*
 * A new directory $TMPDIR/edgetui-NAME-XXXXXX (allocated path), or NULL.
 * testdir_remove deletes it and everything below it; 0 or -1.
 */
char	*testdir_new(const char *);
int	 testdir_remove(const char *);

/* cmocka group or test fixtures: *state is the directory's path. */
int	 testdir_setup(void **, const char *);
int	 testdir_teardown(void **);

#endif
